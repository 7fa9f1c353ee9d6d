import Foundation

/// A first-in first-out queue whose `pop()` waits for an element: the
/// pipeline's pool of free batches, which holds a fixed number of them.
final class BlockingQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var head = 0

    /// Appends an element and wakes one waiting `pop()`.
    func push(_ element: Element) {
        condition.lock()
        elements.append(element)
        condition.signal()
        condition.unlock()
    }

    /// The oldest element, waiting for one.
    func pop() -> Element {
        condition.lock()
        defer { condition.unlock() }
        while head == elements.count { condition.wait() }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }
}
