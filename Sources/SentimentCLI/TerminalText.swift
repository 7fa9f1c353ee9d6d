/// Text from tweets, archives and users made safe to print on a terminal, on one line.
///
/// A tweet's text, a display name or an id in an archive is anyone's: an ESC
/// (`\u{1B}[2J`), a BEL or a C1 control printed as it is would clear the
/// screen, recolour it, retitle the window or move the cursor. So line breaks
/// (runs of them, `\r\n` included) become one space, a tab a space, and every
/// other control character (Unicode category Cc: C0, DEL, C1) U+FFFD "�", which
/// shows that something was there. So do the bidirectional embeddings,
/// overrides and isolates (U+202A–U+202E, U+2066–U+2069): a right-to-left
/// override in a tweet would print the rest of its line backwards, so that
/// "\u{202E}9.99$" reads as "$99.9" and a line says what it does not hold.
enum TerminalText {
    /// What Swift counts as a line break (`Character.isNewline`): LF, VT, FF, CR, NEL, LS, PS.
    private static let lineBreaks: Set<Unicode.Scalar> = ["\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{2028}", "\u{2029}"]

    /// The bidirectional controls that reorder the text after them on the line.
    private static func reorders(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// `json` (a JSON text) with DEL, the C1 controls, the line and paragraph
    /// separators and the bidirectional controls written as `\uXXXX` escapes:
    /// JSON allows them raw inside strings, where JSONEncoder leaves them, but
    /// on a terminal a C1 CSI (U+009B) acts as ESC [ does. The escapes decode
    /// to the same text. Outside its strings a JSON text has no such character.
    static func escapingJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsJSONEscape) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard needsJSONEscape(scalar) else {
                result.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(result)
    }

    /// DEL, C1, U+2028, U+2029 and the bidirectional controls that reorder text.
    private static func needsJSONEscape(_ scalar: Unicode.Scalar) -> Bool {
        (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 || reorders(scalar)
    }

    /// `text` on one line with no control character.
    static func oneLine(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var inLineBreak = false
        for scalar in text.unicodeScalars {
            if lineBreaks.contains(scalar) {
                if !inLineBreak { result.append(" ") }
                inLineBreak = true
                continue
            }
            inLineBreak = false
            if scalar == "\t" {
                result.append(" ")
            } else if scalar.properties.generalCategory == .control || reorders(scalar) {
                result.append("\u{FFFD}")
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
