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

/// The clock the X API client waits on: counts the waits before a retry and
/// the waits for a rate-limit reset apart in ``ServerMetrics``, then waits on
/// `base`.
struct MeteredSleeper: Sleeper {
    let base: any Sleeper
    let metrics: ServerMetrics

    func now() -> Date { base.now() }

    func sleep(for duration: Duration) async throws {
        try await base.sleep(for: duration)
    }

    func sleep(for duration: Duration, reason: WaitReason) async throws {
        switch reason {
        case .retry: metrics.upstreamRetries.increment()
        case .rateLimit: metrics.rateLimitWaits.increment()
        }
        try await base.sleep(for: duration, reason: reason)
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
