import Foundation

/// The command line as the process got it, in bytes: the Swift runtime reads
/// an argument that is not UTF-8 with U+FFFD in place of its bad bytes and
/// says nothing (`CommandLine.arguments`), so a file name in another encoding
/// ("caf\xe9.tsv") would name another file, one that does not exist.
enum RawArguments {
    /// The arguments whose bytes are not UTF-8, as the runtime read them.
    static var invalidUTF8: [String] {
        (1..<Int(CommandLine.argc)).compactMap { i in
            guard let raw = CommandLine.unsafeArgv[i], String(validatingCString: raw) == nil else { return nil }
            return String(cString: raw)
        }
    }

    /// Whether `text`, an argument, came as bytes that are not UTF-8.
    static func isInvalidUTF8(_ text: String) -> Bool {
        text.unicodeScalars.contains("\u{FFFD}") && invalidUTF8.contains(text)
    }
}
