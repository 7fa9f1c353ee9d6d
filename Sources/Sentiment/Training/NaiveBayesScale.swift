#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Naive Bayes log-count ratios of the sparse buckets (NBSVM, Wang & Manning
/// 2012, made multiclass), used to scale the sparse features in training.
///
/// For class c, bucket f: `r_c(f) = log(p_c(f)/‖p_c‖₁) − log(q_c(f)/‖q_c‖₁)`,
/// where p_c(f) counts the training rows of class c holding f and q_c(f) the
/// rows of the other classes, each plus `smoothing`. A bucket's scale is
/// `max_c |r_c(f)|` raised to `power`: words that tell the classes apart keep
/// a large value, words that do not shrink toward 0.
///
/// Training fits θ on features `x_f · scale(f)`, so the L2 penalty bears
/// hardest on the weights of uninformative buckets. The shipped weights are
/// `scale(f) · θ_f`: scoring does not change, and models trained this way have
/// the same format and speed as any other.
struct NaiveBayesScale {
    /// Scales of `buckets` buckets from the rows `rows` of `set`.
    static func scales(set: TrainingSet, rows: [Int], buckets: Int, power: Double, smoothing: Double = 1) -> [Float] {
        var counts = [Double](repeating: 0, count: 3 * buckets)
        var lastRow = [Int32](repeating: -1, count: buckets)
        var totals = (0.0, 0.0, 0.0)
        set.indices.withUnsafeBufferPointer { indices in
            for i in rows {
                let y = Int(set.labels[i])
                for k in set.rowStart[i]..<set.rowStart[i + 1] where set.values[k] != 0 {
                    let f = Int(indices[k])
                    // Presence, not frequency: a bucket counts once per row.
                    guard lastRow[f] != Int32(i) else { continue }
                    lastRow[f] = Int32(i)
                    counts[3 * f + y] += 1
                    switch y {
                    case 0: totals.0 += 1
                    case 1: totals.1 += 1
                    default: totals.2 += 1
                    }
                }
            }
        }
        let all = totals.0 + totals.1 + totals.2
        let mass = smoothing * Double(buckets)
        let classTotals = [totals.0, totals.1, totals.2]
        var scales = [Float](repeating: 0, count: buckets)
        for f in 0..<buckets {
            let n = (counts[3 * f], counts[3 * f + 1], counts[3 * f + 2])
            let sum = n.0 + n.1 + n.2
            var best = 0.0
            for c in 0..<3 {
                let inClass = c == 0 ? n.0 : (c == 1 ? n.1 : n.2)
                let p = (inClass + smoothing) / (classTotals[c] + mass)
                let q = (sum - inClass + smoothing) / (all - classTotals[c] + mass)
                best = max(best, abs(log(p / q)))
            }
            scales[f] = Float(pow(best, power))
        }
        return scales
    }
}
