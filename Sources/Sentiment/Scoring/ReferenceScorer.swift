/// A plain-Swift scorer in Double precision straight from the trained weights
/// (no folding, no BLAS): the yardstick the BLAS path is tested against.
enum ReferenceScorer {
    /// The three scores `z` of one tweet's features.
    static func logits(indices: [Int32], values: [Float], dense: [Float], weights: ModelWeights) -> [Double] {
        var z = weights.bias.map(Double.init)
        for (index, value) in zip(indices, values) {
            for c in 0..<3 { z[c] += Double(value) * Double(weights.sparse[3 * Int(index) + c]) }
        }
        for j in 0..<DenseFeature.count {
            let standardized = (Double(dense[j]) - Double(weights.denseMean[j])) * Double(weights.denseScale[j])
            for c in 0..<3 { z[c] += standardized * Double(weights.dense[3 * j + c]) }
        }
        return z
    }
}
