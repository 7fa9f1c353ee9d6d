/// Blank text: nothing a reader can see. Unicode's `White_Space` (ASCII blanks,
/// U+0085, no-break and typographic spaces, U+2028/9, U+3000), the invisible
/// U+200B, U+2060 and U+FEFF, and control characters (`U+0000`–`U+001F`,
/// `U+007F`–`U+009F`). A blank text is the per-item `empty-text` error, as in
/// `sentiment classify`, not a neutral result.
enum BlankText {
    /// Whether `text` holds no visible character (an empty string is blank).
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isInvisible)
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B, 0x2060, 0xFEFF: true
        default: scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
        }
    }
}
