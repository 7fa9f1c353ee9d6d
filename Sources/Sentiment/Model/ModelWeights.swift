/// The numbers of a trained model, as trained (dense weights not yet folded
/// with the standardization; see `ScoringWeights`).
struct ModelWeights: Sendable {
    /// log2 of the sparse bucket count.
    var bucketBits: Int
    /// `buckets × 3` weights, bucket-major: a feature's three class weights
    /// sit together. Held as 16-bit integers and a scale (`SparseWeights`).
    var sparse: SparseWeights
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

    /// The Float sections after the sparse weights, in their order in `weights.bin`.
    var floatSections: [[Float]] { [dense, denseMean, denseScale, bias, lexicon.scores] }

    /// The first NaN or infinite weight, counted across the sections in their
    /// order in `weights.bin` (as loading reports it), or nil when all are
    /// finite. A scale that is not finite makes every sparse weight so: the
    /// first is 0.
    var firstNonFiniteIndex: Int? {
        if !sparse.scale.isFinite { return 0 }
        var offset = sparse.count
        for section in floatSections {
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
            sparse: .zeros(count: (1 << bucketBits) * classes),
            dense: [Float](repeating: 0, count: d * classes),
            denseMean: [Float](repeating: 0, count: d),
            denseScale: [Float](repeating: 1, count: d),
            bias: [Float](repeating: 0, count: classes),
            lexicon: lexicon)
    }
}
