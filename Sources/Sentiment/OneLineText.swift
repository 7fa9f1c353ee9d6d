extension String {
    /// The string with its control characters (Unicode category Cc: C0, DEL,
    /// C1), line and paragraph separators written as Swift escapes (`\n`,
    /// `\u{1B}`), for an error's one-line description that repeats text from
    /// outside (a caller's username, a file's table names, a model's file
    /// names): a line break in it would otherwise split the line in a log, or
    /// forge another. (`package`: the tweet service's errors use it too.)
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: Self.isEscaped) else { return self }
        return unicodeScalars.map { Self.isEscaped($0) ? $0.escaped(asASCII: true) : String($0) }.joined()
    }

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        [.control, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
    }
}
