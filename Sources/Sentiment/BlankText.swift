/// Text with nothing to classify: not one character a reader can see.
///
/// A scalar is invisible when it is white space (Unicode's `White_Space`:
/// ASCII blanks, U+0085, no-break and typographic spaces, U+2028/9, U+3000),
/// a control character (U+0000–U+001F, U+007F–U+009F), or default-ignorable
/// (`Default_Ignorable_Code_Point`: the zero-width space, joiners and
/// direction marks, U+2060, the byte order mark U+FEFF, the soft hyphen,
/// variation selectors, the Hangul fillers, tags), which the tokenizer skips.
///
/// `sentiment classify` ("empty line", "empty text") and `POST /v1/classify`
/// (`empty-text`) answer a blank text with an error rather than a label, both
/// by this definition. `SentimentModel.classify` scores whatever it is given
/// (a blank text as a text without words, language `undetermined`), so
/// callers that want the error ask `isBlank` first.
public enum BlankText {
    /// Whether `text` holds no visible character (an empty string is blank).
    public static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isInvisible)
    }

    /// Whether the UTF-8 `bytes` hold no visible character (no bytes are
    /// blank). Stops at the first visible one; a byte that is not part of
    /// well-formed UTF-8 counts as visible (it is shown as U+FFFD).
    public static func isBlank(utf8 bytes: UnsafeRawBufferPointer) -> Bool {
        firstVisible(utf8: bytes) == nil
    }

    /// The byte offset in the UTF-8 `bytes` of the first visible character
    /// (or of the first byte that is not part of well-formed UTF-8), or nil
    /// when the bytes are blank: what an invisible prefix, such as a byte
    /// order mark or a zero-width space, hides.
    public static func firstVisible(utf8 bytes: UnsafeRawBufferPointer) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if !isInvisible(Unicode.UTF8.decode(encoded)) { return offset }
                offset += encoded.count
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }

    /// Whether `scalar` is white space, a control character or default-ignorable.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value <= 0x20 || scalar.value == 0x7F }
        let properties = scalar.properties
        return properties.isWhitespace || properties.isDefaultIgnorableCodePoint || properties.generalCategory == .control
    }
}
