#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fitting the decision rule to out-of-fold scores.
enum Calibration {
    /// The decision rule for a temperature and prior exponent: offsets −α·log(prior).
    static func rule(temperature: Double, priorExponent: Double, priors: [Double]) -> ModelManifest.DecisionRule {
        .init(temperature: temperature, classOffsets: priors.map { -priorExponent * log($0) })
    }

    /// The temperature with the least mean log-loss (golden-section search on log T in [¼, 4]).
    static func fitTemperature(logits: [Double], gold: [SentimentLabel]) -> Double {
        func loss(_ logT: Double) -> Double {
            let inverse = exp(-logT)
            var total = 0.0
            for (i, label) in gold.enumerated() {
                let a = logits[3 * i] * inverse, b = logits[3 * i + 1] * inverse, c = logits[3 * i + 2] * inverse
                let top = max(a, b, c)
                let logSum = top + log(exp(a - top) + exp(b - top) + exp(c - top))
                total += logSum - [a, b, c][label.index]
            }
            return total / Double(max(gold.count, 1))
        }
        var lo = log(0.25), hi = log(4.0)
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<60 {
            let m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo)
            if loss(m1) < loss(m2) { hi = m2 } else { lo = m1 }
        }
        return exp((lo + hi) / 2)
    }

    /// The prior exponent α in [0, 1.5] (steps of 0.05) with the best macro-recall;
    /// ties go to the smaller α.
    static func fitPriorExponent(logits: [Double], gold: [SentimentLabel], temperature: Double, priors: [Double]) -> Double {
        var best = (alpha: 0.0, recall: -1.0)
        for step in 0...30 {
            let alpha = Double(step) * 0.05
            let recall = evaluate(logits: logits, gold: gold, rule: rule(temperature: temperature, priorExponent: alpha, priors: priors)).macroRecall
            if recall > best.recall + 1e-12 { best = (alpha, recall) }
        }
        return best.alpha
    }

    /// Evaluates raw scores under a decision rule.
    static func evaluate(logits: [Double], gold: [SentimentLabel], rule: ModelManifest.DecisionRule) -> Evaluation {
        let decision = Decision(rule)
        var evaluation = Evaluation()
        var z = [Float](repeating: 0, count: 3)
        for (i, label) in gold.enumerated() {
            for c in 0..<3 { z[c] = Float(logits[3 * i + c]) }
            let (predicted, probabilities) = z.withUnsafeBufferPointer { decision.decide($0.baseAddress!) }
            evaluation.add(gold: label, prediction: Prediction(label: predicted, probabilities: probabilities, language: .english))
        }
        return evaluation
    }
}
