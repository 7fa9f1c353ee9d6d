import Foundation

/// The passage of time, injectable: the wall clock now, and waiting.
///
/// The retry policy and rate-limit handling read and spend time only through
/// this, so tests substitute a virtual clock that records each wait and
/// returns at once.
public protocol Sleeper: Sendable {
    /// The current wall-clock time (rate-limit resets are wall-clock times).
    func now() -> Date
    /// Waits for `duration`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
    /// Waits for `duration`, for `reason`. Clocks that keep accounts (metrics)
    /// implement this; the default just waits.
    func sleep(for duration: Duration, reason: WaitReason) async throws
}

/// Why the X API client waits.
public enum WaitReason: Sendable, Hashable {
    /// Before retrying a request that failed transiently.
    case retry
    /// Until the rate-limit window resets.
    case rateLimit
}

extension Sleeper {
    /// Waits for `duration`, whatever the reason.
    public func sleep(for duration: Duration, reason: WaitReason) async throws {
        try await sleep(for: duration)
    }
}

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemSleeper: Sleeper {
    /// Creates the real clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }

    /// `Task.sleep(for:)`.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
