import Foundation
import Tweets

/// A ``Tweets/TweetSource`` that counts requests and failures by kind in ``ServerMetrics``.
struct MeteredTweetSource: TweetSource {
    let base: any TweetSource
    let metrics: ServerMetrics

    func user(username: String) async throws -> User {
        metrics.recordUpstreamRequest(operation: "user")
        do {
            return try await base.user(username: username)
        } catch let failure as TweetSourceFailure {
            metrics.recordUpstreamFailure(kind: failure.kind)
            throw failure
        }
    }

    func tweets(of user: User, maxResults: Int, cursor: String?) async throws -> Page<Tweet> {
        metrics.recordUpstreamRequest(operation: "tweets")
        do {
            return try await base.tweets(of: user, maxResults: maxResults, cursor: cursor)
        } catch let failure as TweetSourceFailure {
            metrics.recordUpstreamFailure(kind: failure.kind)
            throw failure
        }
    }
}

/// The clock the X API client waits on before each retry: counts the waits
/// as retries in ``ServerMetrics``, then waits on `base`.
struct MeteredSleeper: Sleeper {
    let base: any Sleeper
    let metrics: ServerMetrics

    func now() -> Date { base.now() }

    func sleep(for duration: Duration) async throws {
        metrics.upstreamRetries.increment()
        try await base.sleep(for: duration)
    }
}

/// A source for when the X API cannot be called at all (no token): every call
/// fails as `unavailable`, so stored tweets are still answered, marked stale.
struct UnavailableTweetSource: TweetSource {
    let reason: String

    func user(username: String) async throws -> User { throw TweetSourceFailure.unavailable(reason) }

    func tweets(of user: User, maxResults: Int, cursor: String?) async throws -> Page<Tweet> {
        throw TweetSourceFailure.unavailable(reason)
    }
}
