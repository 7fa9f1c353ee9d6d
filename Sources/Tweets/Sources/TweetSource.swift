/// Where users and their tweets come from: the X API, or an archive.
///
/// Implementations throw only ``TweetSourceFailure`` (and `CancellationError`).
/// They are `Sendable` and may be called concurrently.
public protocol TweetSource: Sendable {
    /// Looks a user up by username (case-insensitive, without `@`).
    ///
    /// - Throws: ``TweetSourceFailure/unknownUser(_:)`` when there is no such
    ///   user, or another ``TweetSourceFailure`` when the source failed.
    func user(username: String) async throws -> User

    /// One page of a user's tweets, newest first.
    ///
    /// - Parameters:
    ///   - user: a user the source returned from ``user(username:)``.
    ///   - maxResults: the page size wanted; sources clamp it to what they allow.
    ///   - cursor: `nil` for the newest tweets, else the `nextCursor` of the previous page.
    /// - Throws: ``TweetSourceFailure``.
    func tweets(of user: User, maxResults: Int, cursor: String?) async throws -> Page<Tweet>
}
