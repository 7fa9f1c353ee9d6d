import Foundation

/// An account whose tweets can be shown: an X user, or the owner of an archive.
///
/// The JSON encoding uses the field names of the command line's `--format jsonl`
/// output and of the HTTP API: `id`, `username`, `display_name`, `description`,
/// `avatar_url` (the last two may be `null`).
public struct User: Sendable, Hashable, Codable, Identifiable {
    /// The account's stable identifier (the X user id, e.g. `"2244994945"`).
    public var id: String
    /// The handle without `@`, as the source spells it (e.g. `"XDevelopers"`).
    public var username: String
    /// The name shown on the profile.
    public var displayName: String
    /// The profile's biography, when known.
    public var description: String?
    /// The profile picture, when known.
    public var avatarURL: URL?

    /// The start of the id of a user made up for an import's `--user NAME`
    /// (`local:name`), whose tweets the input did not say the author of.
    public static let localIDPrefix = "local:"

    /// Creates a user.
    public init(id: String, username: String, displayName: String, description: String? = nil, avatarURL: URL? = nil) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.description = description
        self.avatarURL = avatarURL
    }

    enum CodingKeys: String, CodingKey {
        case id
        case username
        case displayName = "display_name"
        case description
        case avatarURL = "avatar_url"
    }

    /// Encodes every field, `null` included, so that clients see a stable shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(username, forKey: .username)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(description, forKey: .description)
        try container.encode(avatarURL?.absoluteString, forKey: .avatarURL)
    }
}

extension User {
    /// The username lowercased: X usernames are case-insensitive, so lookups,
    /// search history and prefix search compare this key.
    public var usernameKey: String { Self.key(for: username) }

    /// The case-insensitive key of a username, without a leading `@`.
    public static func key(for username: String) -> String {
        var name = Substring(username.trimmingCharacters(in: .whitespacesAndNewlines))
        if name.hasPrefix("@") { name = name.dropFirst() }
        return name.lowercased()
    }

    /// Whether `username` looks like a handle: 1 to 50 ASCII letters, digits or
    /// underscores, after an optional `@`. (X allows 15; archives and tests may use more.)
    ///
    /// The name is checked as given, not lowercased: the Kelvin sign `K`
    /// (U+212A) lowercases to an ASCII `k`, but is no letter of a handle.
    public static func isValidUsername(_ username: String) -> Bool {
        var name = Substring(username.trimmingCharacters(in: .whitespacesAndNewlines))
        if name.hasPrefix("@") { name = name.dropFirst() }
        return (1...50).contains(name.unicodeScalars.count)
            && name.unicodeScalars.allSatisfy { ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "_" }
    }
}
