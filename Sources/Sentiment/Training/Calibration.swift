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

    /// The prior exponent α in [0, 1.5] (steps of 0.05), by the one-standard-error
    /// rule: the smallest α whose macro-recall is within one standard error of
    /// the best one.
    ///
    /// The curve of macro-recall over α is flat near its top, so the best α of
    /// the out-of-fold scores is mostly noise, and a large α pays for a sliver of
    /// recall on the rare class with labels users find wrong (a tweet at
    /// p = 0.24 / 0.19 / 0.57 called negative). The smallest α that is as good
    /// within the estimate's own error keeps the decision closest to the model's
    /// probabilities. The standard error is that of a mean of three binomial
    /// recalls: ⅓·√(Σ_c r_c(1 − r_c)/n_c).
    static func fitPriorExponent(logits: [Double], gold: [SentimentLabel], temperature: Double, priors: [Double]) -> Double {
        let candidates = (0...30).map { step -> (alpha: Double, evaluation: Evaluation) in
            let alpha = Double(step) * 0.05
            return (alpha, evaluate(logits: logits, gold: gold, rule: rule(temperature: temperature, priorExponent: alpha, priors: priors)))
        }
        guard let best = candidates.max(by: { $0.evaluation.macroRecall < $1.evaluation.macroRecall }) else { return 0 }
        let variance = SentimentLabel.allCases.reduce(0.0) { sum, label in
            let n = Double(best.evaluation.confusion[label.index].reduce(0, +))
            let r = best.evaluation.recall(label)
            return n > 0 ? sum + r * (1 - r) / n : sum
        }
        let standardError = variance.squareRoot() / 3
        return candidates.first { $0.evaluation.macroRecall >= best.evaluation.macroRecall - standardError }?.alpha ?? best.alpha
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
