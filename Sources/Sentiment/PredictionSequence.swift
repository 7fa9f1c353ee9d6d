/// The predictions for an asynchronous sequence of texts, in order; made by
/// `SentimentModel.predictions(for:)`. It fails when the base sequence fails,
/// and with `CancellationError` when the task iterating it is cancelled: no
/// text is taken from the base or classified after that, however many it
/// still holds. It is `Sendable` when its base is.
public struct PredictionSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == String {
    public typealias Element = Prediction
    let model: SentimentModel
    let base: Base

    public func makeAsyncIterator() -> Iterator {
        Iterator(model: model, base: base.makeAsyncIterator())
    }

    /// Iterates the predictions.
    ///
    /// One workspace serves the whole sequence, made at its first text, on
    /// the token table the model's calls share: the words of earlier texts
    /// (and of other calls) are found from text to text.
    public struct Iterator: AsyncIteratorProtocol {
        let model: SentimentModel
        var base: Base.AsyncIterator
        private var workspace: SentimentModel.Workspace?

        init(model: SentimentModel, base: Base.AsyncIterator) {
            self.model = model
            self.base = base
        }

        /// The next text's prediction, nil at the end of the base sequence.
        ///
        /// - Throws: what the base throws, or `CancellationError` when the
        ///   task is cancelled, before a text is taken or once one arrives.
        public mutating func next() async throws -> Prediction? {
            try Task.checkCancellation()
            // A stream ends (nil) when the task waiting on it is cancelled: that is no end of the texts.
            guard var text = try await base.next() else {
                try Task.checkCancellation()
                return nil
            }
            // Cancelled while waiting: the text that arrived is not classified.
            try Task.checkCancellation()
            let workspace = self.workspace ?? model.makeWorkspace(sharing: model.sharedCallTable, batchCapacity: 1)
            self.workspace = workspace
            return text.withUTF8 { model.classify(utf8: [UnsafeRawBufferPointer($0)], workspace: workspace)[0] }
        }
    }
}

extension PredictionSequence: Sendable where Base: Sendable {}
