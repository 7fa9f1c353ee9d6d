import CTokenizer

/// One token as the tokenizer saw it: its kind, its normalized text and marks.
public struct Token: Sendable, Hashable {
    /// What the token is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case word, number, url, user, hashtag, emoji, emoticon, punct, symbol

        init(raw: UInt16) {
            switch Int32(raw) {
            case Int32(CTK_WORD.rawValue): self = .word
            case Int32(CTK_NUMBER.rawValue): self = .number
            case Int32(CTK_URL.rawValue): self = .url
            case Int32(CTK_USER.rawValue): self = .user
            case Int32(CTK_HASHTAG.rawValue): self = .hashtag
            case Int32(CTK_EMOJI.rawValue): self = .emoji
            case Int32(CTK_EMOTICON.rawValue): self = .emoticon
            case Int32(CTK_PUNCT.rawValue): self = .punct
            default: self = .symbol
            }
        }
    }

    /// Marks the tokenizer put on a token.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        /// Inside a negation scope ("not [good]").
        public static let negated = Flags(rawValue: UInt16(CTK_FLAG_NEGATED))
        /// A letter was repeated 3+ times ("soooo").
        public static let elongated = Flags(rawValue: UInt16(CTK_FLAG_ELONGATED))
        /// Written in capitals ("GREAT").
        public static let allCaps = Flags(rawValue: UInt16(CTK_FLAG_ALLCAPS))
        /// A negation cue ("not", "never", "don't").
        public static let negator = Flags(rawValue: UInt16(CTK_FLAG_NEGATOR))
        /// A punctuation run of 2+ characters ("!!").
        public static let emphasis = Flags(rawValue: UInt16(CTK_FLAG_EMPHASIS))
        /// An invalid UTF-8 sequence, read as a U+FFFD symbol.
        public static let invalid = Flags(rawValue: UInt16(CTK_FLAG_INVALID))
    }

    /// The token's kind.
    public var kind: Kind
    /// The normalized text (case-folded, NFKC; "<url>" and "<user>" for URLs and mentions).
    public var text: String
    /// The tokenizer's marks.
    public var flags: Flags
    /// Where the token starts in the input, in UTF-8 bytes.
    public var sourceOffset: Int
    /// How many input bytes it spans.
    public var sourceLength: Int
}
