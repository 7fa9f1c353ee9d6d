import Dispatch

/// One result slot per parallel chunk: `DispatchQueue.concurrentPerform` fills
/// them, each chunk its own slot, and the caller reads them in chunk order,
/// so results never depend on scheduling.
final class ParallelSlots<Value>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Value?>
    private let count: Int

    private init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Runs `body` for each chunk on all cores and returns the results in chunk order.
    static func run(_ count: Int, _ body: @Sendable (Int) -> Value) -> [Value] {
        let storage = ParallelSlots(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { chunk in
            storage.slots[chunk] = body(chunk)   // each chunk writes only its own slot
        }
        return (0..<count).map { storage.slots[$0]! }
    }
}
