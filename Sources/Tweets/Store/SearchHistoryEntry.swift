import Foundation

/// One searched username. JSON: `{"username": "jack", "searched_at": "2024-05-01T09:30:00.000Z"}`.
public struct SearchHistoryEntry: Sendable, Hashable, Codable {
    /// The username as last typed (without `@`).
    public var username: String
    /// When it was last searched.
    public var searchedAt: Date

    /// Creates an entry.
    public init(username: String, searchedAt: Date) {
        self.username = username
        self.searchedAt = searchedAt
    }

    enum CodingKeys: String, CodingKey {
        case username
        case searchedAt = "searched_at"
    }

    /// Encodes `username` and `searched_at` (ISO 8601).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(username, forKey: .username)
        try container.encode(TweetDate.iso8601String(searchedAt), forKey: .searchedAt)
    }

    /// Decodes `username` and `searched_at`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        username = try container.decode(String.self, forKey: .username)
        let text = try container.decode(String.self, forKey: .searchedAt)
        guard let date = TweetDate.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: .searchedAt, in: container, debugDescription: "not a date: \(text)")
        }
        searchedAt = date
    }
}
