/// Whether an emoticon smiles or frowns, read from its shape.
///
/// The tokenizer hands emoticons over in a canonical form (nose dropped,
/// repeated mouths folded, case folded where it does not change the meaning:
/// ":-D" → ":D", ":P" → ":p", "XDDD" → "xd", "<333" → "<3"; see
/// `emoticon.c`; kaomoji come as written, from its fixed list), so the mouth
/// is the last character and a short list of shapes covers every face it
/// recognizes.
enum EmoticonPolarity {
    private static let happyKaomoji: [String] = ["^_^", "^-^", "^.^", "^^", "\\o/"]
    private static let sadKaomoji: [String] = ["-_-", "-.-", "T_T", "T.T", "T-T", ";_;", ">_<", ">.<"]

    /// +1 for a happy face, -1 for a sad or angry one, 0 for the rest
    /// (surprise ":o", the flat ":|", an angry grin ">:D", the kaomoji "o_O").
    static func of(_ text: UnsafeRawBufferPointer) -> Int {
        guard let last = text.last, let first = text.first else { return 0 }
        // Kaomoji (">_<" before the angry brows of ">:(").
        if happyKaomoji.contains(where: { text.elementsEqual($0.utf8) }) { return 1 }
        if sadKaomoji.contains(where: { text.elementsEqual($0.utf8) }) { return -1 }
        // Hearts: "<3" loves, "</3" breaks.
        if first == UInt8(ascii: "<") { return text.contains(UInt8(ascii: "/")) ? -1 : 1 }
        // x faces laugh: "xd", "xp".
        if first == UInt8(ascii: "x") { return 1 }
        // Western faces: [>] eyes [tear] mouth.
        if first == UInt8(ascii: ":") || first == UInt8(ascii: ";") || first == UInt8(ascii: "=") || first == UInt8(ascii: ">") {
            let angry = first == UInt8(ascii: ">")
            switch last {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "/"), UInt8(ascii: "\\"):
                return -1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "D"), UInt8(ascii: "p"), UInt8(ascii: "3"), UInt8(ascii: "*"):
                return angry ? 0 : 1
            default:
                return 0
            }
        }
        return 0
    }
}
