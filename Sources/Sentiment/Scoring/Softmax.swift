#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Probabilities and the label from three scores, by a model's decision rule.
struct Decision: Sendable {
    let inverseTemperature: Float
    let offsets: (Float, Float, Float)

    init(_ rule: ModelManifest.DecisionRule) {
        inverseTemperature = Float(1 / rule.temperature)
        offsets = (Float(rule.classOffsets[0]), Float(rule.classOffsets[1]), Float(rule.classOffsets[2]))
    }

    /// The probabilities (softmax of the tempered scores) and the label (the
    /// largest tempered score plus the class offset).
    @inline(__always)
    func decide(_ z: UnsafePointer<Float>) -> (SentimentLabel, ClassProbabilities) {
        let a = z[0] * inverseTemperature, b = z[1] * inverseTemperature, c = z[2] * inverseTemperature
        let top = max(a, b, c)
        let ea = expf(a - top), eb = expf(b - top), ec = expf(c - top)
        let sum = ea + eb + ec
        let probabilities = ClassProbabilities(
            negative: Double(ea / sum), neutral: Double(eb / sum), positive: Double(ec / sum))
        let da = a + offsets.0, db = b + offsets.1, dc = c + offsets.2
        let label: SentimentLabel = da >= db ? (da >= dc ? .negative : .positive) : (db >= dc ? .neutral : .positive)
        return (label, probabilities)
    }
}
