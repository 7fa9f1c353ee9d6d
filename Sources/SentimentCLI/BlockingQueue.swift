import Foundation

/// A first-in first-out queue whose `pop()` waits for an element, and that can
/// be closed: then `pop()` drains what is left and returns nil.
///
/// Unbounded by itself; the pipeline bounds it by circulating a fixed number
/// of batches.
final class BlockingQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var head = 0
    private var closed = false

    /// Appends an element and wakes one waiting `pop()`.
    func push(_ element: Element) {
        condition.lock()
        elements.append(element)
        condition.signal()
        condition.unlock()
    }

    /// The oldest element, waiting for one; nil once the queue is closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == elements.count && !closed { condition.wait() }
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }

    /// No more pushes: waiting and later `pop()`s return nil when the queue is empty.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Puts batches finished in any order back in sequence for the writer.
final class ReorderBuffer: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [Int: Batch] = [:]
    private var total: Int?

    /// A worker hands in a finished batch.
    func put(_ batch: Batch) {
        condition.lock()
        waiting[batch.sequence] = batch
        condition.broadcast()
        condition.unlock()
    }

    /// The reader has made `count` batches in all.
    func finish(total count: Int) {
        condition.lock()
        total = count
        condition.broadcast()
        condition.unlock()
    }

    /// The batch with sequence number `sequence`, waiting for it; nil when the
    /// reader made fewer batches.
    func take(_ sequence: Int) -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let batch = waiting.removeValue(forKey: sequence) { return batch }
            if let total, sequence >= total { return nil }
            condition.wait()
        }
    }
}
