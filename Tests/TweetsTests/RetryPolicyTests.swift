import Foundation
import Testing
@testable import Tweets

/// Replays scripted failures, then succeeds.
final class Script: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [TweetSourceFailure]
    private(set) var attempts = 0

    init(_ failures: [TweetSourceFailure]) { self.failures = failures }

    func attempt() throws -> String {
        try lock.withLock {
            attempts += 1
            if !failures.isEmpty { throw failures.removeFirst() }
            return "ok"
        }
    }
}

@Suite("Retry policy")
struct RetryPolicyTests {
    @Test("Connection errors, timeouts and 5xx are retried twice, after 4 s then 8 s", arguments: [
        TweetSourceFailure.connection("reset"), .timeout, .upstream(status: 503, problem: nil),
    ])
    func transientRetries(failure: TweetSourceFailure) async throws {
        let sleeper = VirtualSleeper()
        let script = Script([failure, failure])
        let result = try await RetryPolicy.standard.run(sleeper: sleeper, logger: testLogger) { try script.attempt() }
        #expect(result == "ok")
        #expect(script.attempts == 3)
        #expect(sleeper.sleeps == [.seconds(4), .seconds(8)])
    }

    @Test("After two retries the failure is thrown")
    func retriesExhausted() async throws {
        let sleeper = VirtualSleeper()
        let script = Script(Array(repeating: .upstream(status: 500, problem: nil), count: 5))
        await #expect(throws: TweetSourceFailure.upstream(status: 500, problem: nil)) {
            try await RetryPolicy.standard.run(sleeper: sleeper, logger: testLogger) { try script.attempt() }
        }
        #expect(script.attempts == 3)
        #expect(sleeper.sleeps == [.seconds(4), .seconds(8)])
    }

    @Test("A 4xx is not retried", arguments: [400, 401, 403, 404])
    func noRetryOn4xx(status: Int) async throws {
        let sleeper = VirtualSleeper()
        let script = Script([.upstream(status: status, problem: nil)])
        await #expect(throws: TweetSourceFailure.upstream(status: status, problem: nil)) {
            try await RetryPolicy.standard.run(sleeper: sleeper, logger: testLogger) { try script.attempt() }
        }
        #expect(script.attempts == 1)
        #expect(sleeper.sleeps.isEmpty)
    }

    @Test("A 429 with a near reset waits for it once, then retries")
    func shortRateLimit() async throws {
        let sleeper = VirtualSleeper()
        let script = Script([.rateLimited(resetAt: referenceDate + 5)])
        _ = try await RetryPolicy.standard.run(sleeper: sleeper, logger: testLogger) { try script.attempt() }
        #expect(script.attempts == 2)
        #expect(sleeper.sleeps == [.seconds(5)])
    }

    @Test("A 429 with a far or unknown reset is reported at once", arguments: [referenceDate + 900, nil])
    func longRateLimit(resetAt: Date?) async throws {
        let sleeper = VirtualSleeper()
        let script = Script([.rateLimited(resetAt: resetAt)])
        await #expect(throws: TweetSourceFailure.rateLimited(resetAt: resetAt)) {
            try await RetryPolicy.standard.run(sleeper: sleeper, logger: testLogger) { try script.attempt() }
        }
        #expect(script.attempts == 1)
        #expect(sleeper.sleeps.isEmpty)
    }

    @Test("A reset too far away for its milliseconds to fit an Int64 is reported at once, not a trap", arguments: [1e16, 1e300, Double.infinity])
    func farRateLimitReset(seconds: Double) {
        #expect(RetryPolicy.standard.rateLimitWait(until: Date(timeIntervalSince1970: seconds), now: referenceDate) == nil)
        #expect(RetryPolicy.standard.rateLimitWait(until: referenceDate + 3, now: referenceDate) == .seconds(3))
    }

    @Test("Back-off doubles from 4 s for each retry asked for, and zero retries is no waiting at all")
    func backoffDelays() async throws {
        #expect(RetryPolicy.backoff(retries: 3).delays == [.seconds(4), .seconds(8), .seconds(16)])
        #expect(RetryPolicy.backoff(retries: 2) == .standard)
        #expect(RetryPolicy.backoff(retries: 0) == .none)

        let sleeper = VirtualSleeper()
        let script = Script([.timeout, .rateLimited(resetAt: referenceDate + 5)])
        await #expect(throws: TweetSourceFailure.timeout) {
            try await RetryPolicy.backoff(retries: 0).run(sleeper: sleeper, logger: testLogger) { try script.attempt() }
        }
        #expect(script.attempts == 1)
        #expect(sleeper.sleeps.isEmpty)
    }
}
