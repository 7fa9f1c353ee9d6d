/// The predictions for an asynchronous sequence of texts, in order; made by
/// `SentimentModel.predictions(for:)`. It fails when the base sequence fails.
/// It is `Sendable` when its base is.
public struct PredictionSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == String {
    public typealias Element = Prediction
    let model: SentimentModel
    let base: Base

    public func makeAsyncIterator() -> Iterator {
        Iterator(model: model, base: base.makeAsyncIterator())
    }

    /// Iterates the predictions.
    public struct Iterator: AsyncIteratorProtocol {
        let model: SentimentModel
        var base: Base.AsyncIterator

        public mutating func next() async throws -> Prediction? {
            guard let text = try await base.next() else { return nil }
            return model.classify(text)
        }
    }
}

extension PredictionSequence: Sendable where Base: Sendable {}
