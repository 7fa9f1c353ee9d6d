extension SentimentModel {
    /// Scratch space for classifying on one thread: token buffers, one tweet's
    /// sparse features, and a batch's dense block and scores. Reused from batch
    /// to batch, so classification allocates nothing once it is warm.
    ///
    /// Not thread-safe: create one per worker (`SentimentModel.makeWorkspace()`).
    public final class Workspace {
        /// Rows scored per `cblas_sgemm` call.
        public let batchCapacity: Int
        let tokens = TokenBuffer()
        var row = SparseRow()
        /// What each distinct token contributes, memoized.
        let cache: TokenCache
        /// `batchCapacity × DenseFeature.count` raw dense values.
        let dense: UnsafeMutablePointer<Float>
        /// `batchCapacity × 3` scores.
        let logits: UnsafeMutablePointer<Float>
        /// The language of each row of the batch.
        var languages: [Language]

        /// A workspace scoring `batchCapacity` texts per BLAS call.
        public convenience init(batchCapacity: Int = 256) {
            self.init(batchCapacity: batchCapacity, cacheBits: 16)
        }

        /// A workspace whose token cache has `1 << cacheBits` entries (tests use tiny ones).
        init(batchCapacity: Int, cacheBits: Int) {
            precondition(batchCapacity > 0)
            self.batchCapacity = batchCapacity
            cache = TokenCache(bits: cacheBits)
            dense = .allocate(capacity: batchCapacity * DenseFeature.count)
            logits = .allocate(capacity: batchCapacity * 3)
            languages = Array(repeating: .english, count: batchCapacity)
        }

        deinit {
            dense.deallocate()
            logits.deallocate()
        }
    }
}
