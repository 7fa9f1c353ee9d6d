/// How a tweet's mood is shown: happy, neutral or sad, each with an emoji and a colour.
///
/// The colours are Apple's system palette (dark-mode variants), chosen because
/// they are vivid on both light and dark backgrounds and distinguishable by
/// people with the common red–green colour deficiencies (yellow, grey, blue):
///
/// | Theme   | Emoji | Colour    |
/// |---------|-------|-----------|
/// | happy   | 😃    | `#FFD60A` vibrant yellow |
/// | neutral | 😐    | `#8E8E93` grey |
/// | sad     | 😔    | `#0A84FF` blue |
///
/// JSON: `{"name": "happy", "emoji": "😃", "color": "#FFD60A"}`.
public enum Theme: String, Sendable, Hashable, CaseIterable, Codable {
    /// A clearly positive tweet.
    case happy
    /// Neither clearly positive nor clearly negative.
    case neutral
    /// A clearly negative tweet.
    case sad

    /// Vibrant yellow, `#FFD60A`.
    public static let happyColor = RGBColor(red: 0xFF, green: 0xD6, blue: 0x0A)
    /// Grey, `#8E8E93`.
    public static let neutralColor = RGBColor(red: 0x8E, green: 0x8E, blue: 0x93)
    /// Blue, `#0A84FF`.
    public static let sadColor = RGBColor(red: 0x0A, green: 0x84, blue: 0xFF)

    /// 😃 (U+1F603).
    public static let happyEmoji = "\u{1F603}"
    /// 😐 (U+1F610).
    public static let neutralEmoji = "\u{1F610}"
    /// 😔 (U+1F614).
    public static let sadEmoji = "\u{1F614}"

    /// The theme's name in output formats: `happy`, `neutral` or `sad`.
    public var name: String { rawValue }

    /// The theme's emoji.
    public var emoji: String {
        switch self {
        case .happy: Self.happyEmoji
        case .neutral: Self.neutralEmoji
        case .sad: Self.sadEmoji
        }
    }

    /// The theme's colour.
    public var color: RGBColor {
        switch self {
        case .happy: Self.happyColor
        case .neutral: Self.neutralColor
        case .sad: Self.sadColor
        }
    }

    enum CodingKeys: String, CodingKey {
        case name, emoji, color
    }

    /// Encodes `{"name", "emoji", "color"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(emoji, forKey: .emoji)
        try container.encode(color, forKey: .color)
    }

    /// Decodes the object form (only `name` is read) or a bare name string.
    public init(from decoder: any Decoder) throws {
        let name: String
        if let container = try? decoder.container(keyedBy: CodingKeys.self) {
            name = try container.decode(String.self, forKey: .name)
        } else {
            name = try decoder.singleValueContainer().decode(String.self)
        }
        guard let theme = Theme(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown theme \(name)"))
        }
        self = theme
    }
}
