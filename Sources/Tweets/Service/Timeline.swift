/// A page of a user's timeline, each tweet with its mood, as ``TweetService`` answers it.
///
/// JSON — the HTTP API's `GET /v1/users/{username}/tweets` body:
/// `{"user": {…}, "tweets": [ClassifiedTweet…], "next_cursor": "…" | null,
///   "stale": false, "failure": null | {"kind": "connection", "message": "…"}}`.
public struct Timeline: Sendable, Hashable, Codable {
    /// Whose tweets.
    public var user: User
    /// The tweets, newest first.
    public var tweets: [ClassifiedTweet]
    /// Pass it back as `cursor` for the next (older) page; `nil` at the end.
    public var nextCursor: String?
    /// Why the source could not be reached, when the answer comes from the store alone.
    public var failure: TweetSourceFailure?
    /// How many of ``tweets`` were classified for this answer; the others had
    /// the model's classification stored (cache hits). Not part of the JSON (a
    /// decoded timeline has 0) nor of equality.
    public var newlyClassified: Int

    /// Whether the answer may be out of date: the source failed and the store answered.
    public var isStale: Bool { failure != nil }

    /// Creates a timeline.
    public init(user: User, tweets: [ClassifiedTweet], nextCursor: String? = nil, failure: TweetSourceFailure? = nil,
                newlyClassified: Int = 0) {
        self.user = user
        self.tweets = tweets
        self.nextCursor = nextCursor
        self.failure = failure
        self.newlyClassified = newlyClassified
    }

    enum CodingKeys: String, CodingKey {
        case user, tweets, stale, failure
        case nextCursor = "next_cursor"
    }

    /// Encodes every field, `null`s included, and `stale`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(tweets, forKey: .tweets)
        try container.encode(nextCursor, forKey: .nextCursor)
        try container.encode(isStale, forKey: .stale)
        try container.encode(failure, forKey: .failure)
    }

    /// Whether two timelines show the same page: ``newlyClassified`` is how this
    /// answer was made, not what it says, so it takes no part (a timeline equals
    /// its JSON decoded).
    public static func == (lhs: Timeline, rhs: Timeline) -> Bool {
        lhs.user == rhs.user && lhs.tweets == rhs.tweets && lhs.nextCursor == rhs.nextCursor
            && lhs.failure == rhs.failure
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(user)
        hasher.combine(tweets)
        hasher.combine(nextCursor)
        hasher.combine(failure)
    }

    /// Decodes what ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        user = try container.decode(User.self, forKey: .user)
        tweets = try container.decode([ClassifiedTweet].self, forKey: .tweets)
        nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
        failure = try container.decodeIfPresent(TweetSourceFailure.self, forKey: .failure)
        newlyClassified = 0
    }
}
