/// The sparse weights of a model, `buckets × 3` of them, bucket-major, held
/// as 16-bit integers with one scale for the whole table:
/// `weight = Float(values[i]) · scale`.
///
/// Training fits them in Float and quantizes them once, after the fit
/// (`init(quantizing:)`): the scale is the largest magnitude over 32,767, so
/// the largest weight becomes ±32,767 and every weight is kept to within
/// half a step. For the shipped model the step is 2·10⁻⁴, and dev's 1,993
/// labels and four metrics came out the same as with the Float weights. The
/// table is half the memory of the Float one (6 MiB at 2^20 buckets), which
/// is what scoring spends its time reading (Docs/performance.md).
struct SparseWeights: Sendable, Hashable {
    /// The quantized weights.
    let values: [Int16]
    /// What one step of `values` is worth; 0 when every weight is 0.
    let scale: Float

    /// The largest quantized magnitude.
    static let levels: Float = 32_767

    /// Weights as read from a file.
    init(values: [Int16], scale: Float) {
        self.values = values
        self.scale = scale
    }

    /// Quantizes Float weights: each is rounded to the nearest multiple of
    /// `scale`, the largest magnitude over 32,767.
    ///
    /// - Precondition: every weight is finite.
    init(quantizing weights: [Float]) {
        let largest = weights.reduce(Float(0)) { max($0, abs($1)) }
        let scale = largest / Self.levels
        self.scale = scale
        guard scale > 0 else {
            values = [Int16](repeating: 0, count: weights.count)
            return
        }
        values = weights.map { weight in
            Int16(max(-Self.levels, min(Self.levels, (weight / scale).rounded())))
        }
    }

    /// Whether a model file may hold `scale`: every weight it scales
    /// (32,767 steps at most) is usable (`ModelWeights.isUsable`).
    static func isUsable(scale: Float) -> Bool { ModelWeights.isUsable(scale * levels) }

    /// All zero.
    static func zeros(count: Int) -> SparseWeights {
        SparseWeights(values: [Int16](repeating: 0, count: count), scale: 0)
    }

    /// The number of weights (`buckets × 3`).
    var count: Int { values.count }

    /// Weight `index` as a Float.
    subscript(index: Int) -> Float {
        Float(values[index]) * scale
    }
}
