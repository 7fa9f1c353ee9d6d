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
    ///
    /// One workspace serves the whole sequence, made at its first text: its
    /// token cache (`cacheBits`, 192 KiB) keeps the stream's common words from
    /// text to text, where `classify(_:)` of each text alone would start from
    /// an empty cache every time (and make a workspace every time).
    public struct Iterator: AsyncIteratorProtocol {
        let model: SentimentModel
        var base: Base.AsyncIterator
        private var workspace: SentimentModel.Workspace?

        /// The cache of a sequence: 3,072 tokens, 192 KiB.
        static var cacheBits: Int { 12 }

        init(model: SentimentModel, base: Base.AsyncIterator) {
            self.model = model
            self.base = base
        }

        public mutating func next() async throws -> Prediction? {
            guard var text = try await base.next() else { return nil }
            let workspace = self.workspace ?? SentimentModel.Workspace(batchCapacity: 1, cacheBits: Self.cacheBits)
            self.workspace = workspace
            return text.withUTF8 { model.classify(utf8: [UnsafeRawBufferPointer($0)], workspace: workspace)[0] }
        }
    }
}

extension PredictionSequence: Sendable where Base: Sendable {}
