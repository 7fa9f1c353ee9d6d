/// The elements of an array as an `AsyncSequence`, each at once: a stream of
/// texts with no waiting in it, so `predictions(for:)` is timed, not the source.
struct ArrayAsyncSequence<Element: Sendable>: AsyncSequence, Sendable {
    let elements: [Element]

    func makeAsyncIterator() -> Iterator { Iterator(elements: elements) }

    struct Iterator: AsyncIteratorProtocol {
        let elements: [Element]
        var index = 0

        mutating func next() async -> Element? {
            guard index < elements.count else { return nil }
            defer { index += 1 }
            return elements[index]
        }
    }
}
