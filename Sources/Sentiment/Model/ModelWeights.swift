/// The numbers of a trained model, as trained (dense weights not yet folded
/// with the standardization; see `ScoringWeights`).
struct ModelWeights: Sendable {
    /// log2 of the sparse bucket count.
    var bucketBits: Int
    /// `buckets × 3` weights, bucket-major: a feature's three class weights sit together.
    var sparse: [Float]
    /// `DenseFeature.count × 3` weights, row-major.
    var dense: [Float]
    /// Per-dense-feature mean of the training set.
    var denseMean: [Float]
    /// Per-dense-feature 1/standard deviation of the training set (0 for constant features).
    var denseScale: [Float]
    /// Three class biases.
    var bias: [Float]
    /// The learned lexicon.
    var lexicon: Lexicon

    static let classes = 3
    var buckets: Int { 1 << bucketBits }

    /// The sections in their order in `weights.bin`.
    var sections: [[Float]] { [sparse, dense, denseMean, denseScale, bias, lexicon.scores] }

    /// The first NaN or infinite value, counted across the sections in their
    /// order in `weights.bin` (as loading reports it), or nil when all are finite.
    var firstNonFiniteIndex: Int? {
        var offset = 0
        for section in sections {
            if let index = section.firstIndex(where: { !$0.isFinite }) { return offset + index }
            offset += section.count
        }
        return nil
    }

    /// Zero weights of the given shape.
    static func zeros(bucketBits: Int, lexicon: Lexicon) -> ModelWeights {
        let d = DenseFeature.count
        return ModelWeights(
            bucketBits: bucketBits,
            sparse: [Float](repeating: 0, count: (1 << bucketBits) * classes),
            dense: [Float](repeating: 0, count: d * classes),
            denseMean: [Float](repeating: 0, count: d),
            denseScale: [Float](repeating: 1, count: d),
            bias: [Float](repeating: 0, count: classes),
            lexicon: lexicon)
    }
}
