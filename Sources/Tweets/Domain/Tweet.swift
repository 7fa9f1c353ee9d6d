import Foundation

/// One post: its text, author and time, as the source gave them.
///
/// The JSON encoding uses `id`, `author_id`, `text`, `created_at` (ISO 8601, UTC)
/// and `lang` (the source's language tag, or `null`).
public struct Tweet: Sendable, Hashable, Codable, Identifiable {
    /// The post's identifier (a decimal snowflake id on X, e.g. `"1445880548472328192"`).
    public var id: String
    /// The id of the ``User`` who wrote it.
    public var authorID: String
    /// The full text.
    public var text: String
    /// When it was posted, to the millisecond (``TweetDate/normalized(_:)``:
    /// as JSON and the store keep it, so a tweet equals its JSON decoded).
    public var createdAt: Date {
        didSet { createdAt = TweetDate.normalized(createdAt) }
    }
    /// The source's BCP 47 language tag (`"en"`, `"es"`, `"und"`…), when it gave one.
    public var language: String?

    /// Creates a tweet.
    public init(id: String, authorID: String, text: String, createdAt: Date, language: String? = nil) {
        self.id = id
        self.authorID = authorID
        self.text = text
        self.createdAt = TweetDate.normalized(createdAt)
        self.language = language
    }

    enum CodingKeys: String, CodingKey {
        case id
        case authorID = "author_id"
        case text
        case createdAt = "created_at"
        case language = "lang"
    }

    /// Encodes every field; `created_at` as an ISO 8601 string whatever the encoder's date strategy.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(authorID, forKey: .authorID)
        try container.encode(text, forKey: .text)
        try container.encode(TweetDate.iso8601String(createdAt), forKey: .createdAt)
        try container.encode(language, forKey: .language)
    }

    /// Decodes what ``encode(to:)`` writes; `created_at` may be ISO 8601 or the
    /// v1.1 form (`"Wed Oct 10 20:19:24 +0000 2018"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        authorID = try container.decode(String.self, forKey: .authorID)
        text = try container.decode(String.self, forKey: .text)
        let date = try container.decode(String.self, forKey: .createdAt)
        guard let parsed = TweetDate.parse(date) else {
            throw DecodingError.dataCorruptedError(forKey: .createdAt, in: container, debugDescription: "not a date: \(date)")
        }
        createdAt = parsed
        language = try container.decodeIfPresent(String.self, forKey: .language)
    }
}
