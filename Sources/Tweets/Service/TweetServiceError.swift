import Sentiment
/// Why ``TweetService`` could not answer at all.
public enum TweetServiceError: Sendable, Hashable, DescribedError {
    /// The text is not a username (1–50 letters, digits or `_`, optional `@`);
    /// the description shows its control characters escaped (`\n`), on one line.
    case invalidUsername(String)
    /// The cursor was not produced by this service, or was made for another user's timeline.
    case invalidCursor
    /// The source says there is no such user.
    case unknownUser(String)
    /// The source failed (or there is none: `failure` is `nil` offline) and the
    /// store holds nothing for this user.
    case nothingStored(username: String, failure: TweetSourceFailure?)
    /// An import names no owner for some tweets: give one (`--user`).
    case ownerRequired

    /// A one-line reason for a person.
    public var description: String {
        switch self {
        case .invalidUsername(let text): "not a username: \(text.escapingControlCharacters)"
        case .invalidCursor: "invalid cursor"
        case .unknownUser(let username): "unknown user @\(username)"
        case .nothingStored(let username, let failure?): "nothing stored for @\(username) and the source failed: \(failure.message)"
        case .nothingStored(let username, nil): "nothing stored for @\(username)"
        case .ownerRequired: "the input does not say whose tweets these are; name the user"
        }
    }
}
