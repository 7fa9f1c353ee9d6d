import Foundation

/// A value read and set from several threads under a lock: what a signal's
/// thread reads of the work under way (`classify`'s stage: loading the
/// model, then classifying).
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    /// The value now.
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Runs `body` on the value under the lock, so that what it reads and what
    /// it sets are one step for the other threads.
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&stored) }
    }
}
