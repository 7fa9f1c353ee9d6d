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

    /// The largest magnitude a model file may hold in any weight, mean, scale
    /// or lexicon score: 10⁶. Training writes values under 100 (the shipped
    /// model's largest is 10.3); within this bound a text's scores stay far
    /// inside Float's range, so its probabilities are numbers, never NaN.
    static let largestMagnitude: Float = 1_000_000

    /// Whether a model file may hold `value`: finite and within ±``largestMagnitude``.
    static func isUsable(_ value: Float) -> Bool { abs(value) <= largestMagnitude }

    /// The first weight after the sparse ones that is not usable (NaN,
    /// infinite, or beyond ``largestMagnitude``), counted across the sections
    /// in their order in `weights.bin` (as loading reports it), or nil when
    /// all are usable. The sparse weights are usable when their scale is
    /// (`SparseWeights.isUsable(scale:)`).
    var firstNonFiniteIndex: Int? {
        var offset = sparse.count
        for section in floatSections {
            if let index = section.firstIndex(where: { !Self.isUsable($0) }) { return offset + index }
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
