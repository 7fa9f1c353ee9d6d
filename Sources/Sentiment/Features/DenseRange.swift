/// The range each dense feature took over a model's training set. Scoring
/// holds a text's dense values inside it, so a text unlike any the model was
/// trained on (an X long post of thousands of words, whose lexicon sums grow
/// with its length) is scored as the most extreme training tweet would be,
/// not by extrapolating the weights far beyond anything they were fitted on.
///
/// Every training text lies inside the range by construction, so holding
/// values to it changes no training text's score.
public struct DenseRange: Sendable, Hashable, Codable {
    /// The smallest raw value of each dense feature, in column order.
    public var min: [Float]
    /// The largest raw value of each dense feature, in column order.
    public var max: [Float]

    /// A range of `DenseFeature.count` columns.
    public init(min: [Float], max: [Float]) {
        self.min = min
        self.max = max
    }

    /// Why the range cannot be used with this build's dense features, or nil.
    var problem: String? {
        guard min.count == DenseFeature.count, max.count == DenseFeature.count else {
            return "denseRange needs \(DenseFeature.count) minimums and maximums, found \(min.count) and \(max.count)"
        }
        guard zip(min, max).allSatisfy({ $0.isFinite && $1.isFinite && $0 <= $1 }) else {
            return "denseRange needs finite minimums no larger than their maximums"
        }
        return nil
    }

    /// Holds the `DenseFeature.count` raw values at `dense` inside the range.
    @inline(__always)
    func clamp(_ dense: UnsafeMutablePointer<Float>) {
        min.withUnsafeBufferPointer { lower in
            max.withUnsafeBufferPointer { upper in
                for j in 0..<DenseFeature.count {
                    dense[j] = Swift.min(Swift.max(dense[j], lower[j]), upper[j])
                }
            }
        }
    }
}
