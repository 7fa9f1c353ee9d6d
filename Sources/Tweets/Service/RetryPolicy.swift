import Foundation
import Logging

/// When to try an upstream request again.
///
/// - A transient failure (``TweetSourceFailure/isTransient``: a connection error,
///   a timeout or a 5xx) is retried after each of ``delays`` in turn — by
///   default at most 2 retries, after 4 s and then 8 s (exponential back-off
///   that gives a restarting upstream ~12 s while keeping a user's wait short).
/// - Other 4xx are never retried: asking again would get the same answer.
/// - 429 (``TweetSourceFailure/rateLimited(resetAt:)``) waits for the reset time
///   once, and only when it is at most ``maximumRateLimitWait`` away (default
///   10 s); otherwise the failure is reported at once, so a caller can answer
///   from its store instead of hanging for up to 15 minutes.
public struct RetryPolicy: Sendable, Hashable {
    /// The waits before each retry; its count is the number of retries.
    public var delays: [Duration]
    /// The longest wait for a rate-limit reset before giving up.
    public var maximumRateLimitWait: Duration

    /// 2 retries after 4 s and 8 s; rate-limit waits up to 10 s.
    public static let standard = backoff(retries: 2)

    /// `retries` retries after 4 s, 8 s, 16 s, … (doubling); rate-limit waits up
    /// to 10 s, or none at all when `retries` is 0 (``none``).
    ///
    /// - Precondition: `retries` is not negative.
    public static func backoff(retries: Int) -> RetryPolicy {
        precondition(retries >= 0, "retries cannot be negative")
        guard retries > 0 else { return .none }
        return RetryPolicy(delays: (0..<retries).map { .seconds(4 << min($0, 20)) }, maximumRateLimitWait: .seconds(10))
    }

    /// No retries and no waiting.
    public static let none = RetryPolicy(delays: [], maximumRateLimitWait: .zero)

    /// Creates a policy.
    public init(delays: [Duration], maximumRateLimitWait: Duration) {
        self.delays = delays
        self.maximumRateLimitWait = maximumRateLimitWait
    }

    /// How long to wait for a rate-limit reset at `resetAt`, or `nil` when too long or unknown.
    public func rateLimitWait(until resetAt: Date?, now: Date) -> Duration? {
        guard let resetAt else { return nil }
        let seconds = max(0, resetAt.timeIntervalSince(now))
        // Compared before converting: a reset years away does not fit the milliseconds.
        guard seconds <= maximumRateLimitWait.seconds else { return nil }
        let wait = Duration.milliseconds(Int64((seconds * 1000).rounded(.up)))
        return wait <= maximumRateLimitWait ? wait : nil
    }

    /// Runs `operation`, retrying it as the policy says.
    ///
    /// - Parameters:
    ///   - sleeper: spends the waits (inject a virtual clock in tests).
    ///   - logger: receives a `notice` for each retry.
    ///   - isolation: the caller's actor, on which `operation` runs.
    ///   - operation: one attempt; it throws ``TweetSourceFailure`` on failure.
    /// - Returns: the first successful result.
    /// - Throws: the last ``TweetSourceFailure`` when the retries are spent or
    ///   the failure is not retryable; `CancellationError` when cancelled.
    public func run<Result: Sendable>(
        sleeper: any Sleeper,
        logger: Logger,
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async throws -> Result {
        var retries = 0
        var waitedForRateLimit = false
        while true {
            try Task.checkCancellation()
            do {
                return try await operation()
            } catch let failure as TweetSourceFailure {
                if failure.isTransient, retries < delays.count {
                    let delay = delays[retries]
                    retries += 1
                    logger.notice("upstream request failed, retrying", metadata: [
                        "failure": "\(failure.kind)", "retry": "\(retries)", "delay_s": "\(delay.seconds)",
                    ])
                    try await sleeper.sleep(for: delay, reason: .retry)
                } else if case .rateLimited(let resetAt) = failure, !waitedForRateLimit,
                    let wait = rateLimitWait(until: resetAt, now: sleeper.now())
                {
                    waitedForRateLimit = true
                    logger.notice("rate limited, waiting for the reset", metadata: ["delay_s": "\(wait.seconds)"])
                    try await sleeper.sleep(for: wait, reason: .rateLimit)
                } else {
                    throw failure
                }
            }
        }
    }
}
