/// Weights arranged for scoring: the dense standardization folded into the
/// dense weights and the bias, so scoring never standardizes per tweet:
///
///     Σ_j (x_j − μ_j)·s_j·W_jc  =  Σ_j x_j·(s_j·W_jc)  −  Σ_j μ_j·s_j·W_jc
struct ScoringWeights: Sendable {
    /// `buckets × 3`, bucket-major, 16 bits each (the model's own array, not a copy).
    let sparse: SparseWeights
    /// `DenseFeature.count × 3`, row-major, standardization folded in.
    let dense: [Float]
    /// Three biases with the standardization's constant folded in.
    let bias: [Float]
    /// Bucket mask.
    let mask: Int32

    init(_ weights: ModelWeights) {
        let d = DenseFeature.count
        var dense = [Float](repeating: 0, count: 3 * d)
        var bias = weights.bias
        for j in 0..<d {
            for c in 0..<3 {
                let folded = weights.denseScale[j] * weights.dense[3 * j + c]
                dense[3 * j + c] = folded
                bias[c] -= weights.denseMean[j] * folded
            }
        }
        self.sparse = weights.sparse
        self.dense = dense
        self.bias = bias
        self.mask = Int32(weights.buckets - 1)
    }
}
