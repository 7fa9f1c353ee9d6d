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

        /// The largest `batchCapacity`: 2^20 rows, whose dense block and scores
        /// take 108 MiB (a BLAS call gains nothing from rows past a few hundred).
        public static let maximumBatchCapacity = 1 << 20

        /// The token cache's default size: 3 MiB (2^16 × 48 bytes), 49,152 entries.
        public static let defaultCacheBits = 16

        /// A workspace scoring `batchCapacity` texts per BLAS call, whose token
        /// cache takes 2^cacheBits × 48 bytes and holds three quarters as many
        /// distinct tokens, one to a 64-byte cache line (`TokenTable`).
        ///
        /// A bigger cache misses less on text with many distinct words, at the
        /// cost of memory per workspace: one worker classifying a large dump
        /// ran 583,000 tweets/s with `cacheBits` 17 (6 MiB) against 546,000 with
        /// the default 16 (3 MiB), in interleaved runs of the same binary.
        ///
        /// The cache is the workspace's own; it keeps the entries of the last
        /// model that used it, so give each model its own workspaces (a
        /// workspace switched between models empties its cache at each
        /// switch). Workspaces on several threads can share one cache:
        /// `SentimentModel.makeWorkspace(sharing:)`.
        ///
        /// - Precondition: `batchCapacity` is 1 to ``maximumBatchCapacity`` and
        ///   `cacheBits` is 1 to 24.
        public convenience init(batchCapacity: Int = 256, cacheBits: Int = Workspace.defaultCacheBits) {
            self.init(batchCapacity: batchCapacity, table: TokenTable(bits: cacheBits))
        }

        init(batchCapacity: Int, table: TokenTable) {
            precondition((1...Self.maximumBatchCapacity).contains(batchCapacity),
                         "batchCapacity \(batchCapacity) is not 1 to \(Self.maximumBatchCapacity)")
            self.batchCapacity = batchCapacity
            cache = TokenCache(table: table)
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
