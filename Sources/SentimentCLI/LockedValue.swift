import Foundation

/// A value read and set from several threads under a lock: what a signal's
/// thread reads of the work under way (`classify`'s pipeline, once the model
/// has loaded).
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
}
