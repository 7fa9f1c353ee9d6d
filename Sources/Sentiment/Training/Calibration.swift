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
        func loss(_ logT: Double) -> Double { meanLogLoss(logits: logits, gold: gold, inverseTemperature: exp(-logT)) }
        var lo = log(0.25), hi = log(4.0)
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<60 {
            let m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo)
            if loss(m1) < loss(m2) { hi = m2 } else { lo = m1 }
        }
        return exp((lo + hi) / 2)
    }

    /// The mean log-loss of `logits` (three a row) divided by a temperature,
    /// given as its inverse.
    static func meanLogLoss(logits: [Double], gold: [SentimentLabel], inverseTemperature inverse: Double) -> Double {
        var total = 0.0
        for (i, label) in gold.enumerated() {
            let a = logits[3 * i] * inverse, b = logits[3 * i + 1] * inverse, c = logits[3 * i + 2] * inverse
            let top = max(a, b, c)
            let logSum = top + log(exp(a - top) + exp(b - top) + exp(c - top))
            total += logSum - [a, b, c][label.index]
        }
        return total / Double(max(gold.count, 1))
    }

    /// What to tell the user when a temperature fitted to `logits` is at an end
    /// of ``fitTemperature(logits:gold:)``'s range (`nil` inside it): the least
    /// log-loss lies beyond it, so the probabilities stay over- (at 4) or
    /// under-confident (at ¼), as on data too small or too noisy to learn from.
    /// Said only when twice as far (8 or ⅛) the log-loss is lower by more than
    /// a thousandth: scores that are flat (every class about 1/3 whatever the
    /// temperature, as when every text is the same) drift to the top for nothing.
    static func temperatureBoundWarning(_ temperature: Double, logits: [Double], gold: [SentimentLabel]) -> String? {
        let tolerance = 1e-6
        func lowerAt(_ beyond: Double, than bound: Double) -> Bool {
            meanLogLoss(logits: logits, gold: gold, inverseTemperature: 1 / bound)
                - meanLogLoss(logits: logits, gold: gold, inverseTemperature: 1 / beyond) > 1e-3
        }
        if temperature >= 4 * (1 - tolerance) {
            guard lowerAt(8, than: 4) else { return nil }
            return "warning: the temperature is at the top of its range (4): the held-out scores are less sure even than "
                + "that, so the model's probabilities are still overconfident (too few or too noisy examples?)"
        }
        if temperature <= 0.25 * (1 + tolerance) {
            guard lowerAt(0.125, than: 0.25) else { return nil }
            return "warning: the temperature is at the bottom of its range (0.25): the held-out scores are surer even than "
                + "that, so the model's probabilities are still underconfident"
        }
        return nil
    }

    /// The prior exponent α in [0, 1.5] (steps of 0.05), by the one-standard-error
    /// rule of cross-validation: the smallest α whose mean macro-recall over the
    /// folds is within one standard error of the best mean.
    ///
    /// Each fold is a period of time (see `FoldOrder.chronological`), so the
    /// spread of the folds' macro-recall measures how much the best α moves as
    /// tweets drift. Within that spread the curve over α is flat, and a larger
    /// α than needed buys a sliver of recall on the rare class with labels users
    /// find wrong (a tweet at p = 0.24 / 0.19 / 0.57 called negative); the
    /// smallest α that is as good keeps the decision closest to the model's own
    /// probabilities. The standard error is the folds' standard deviation at the
    /// best α over √folds.
    static func fitPriorExponent(logits: [Double], gold: [SentimentLabel], fold: [Int], folds: Int,
                                 temperature: Double, priors: [Double]) -> Double {
        let members = foldMembers(fold: fold, folds: folds)
        func foldRecalls(_ alpha: Double) -> [Double] {
            foldMacroRecalls(logits: logits, gold: gold, members: members,
                             rule: rule(temperature: temperature, priorExponent: alpha, priors: priors))
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(values.count, 1)) }
        let alphas: [Double] = (0...30).map { Double($0) * 0.05 }
        let recalls: [[Double]] = alphas.map(foldRecalls)
        let means: [Double] = recalls.map(mean)
        guard let bestIndex = means.indices.max(by: { means[$0] < means[$1] }) else { return 0 }
        let threshold = means[bestIndex] - standardError(recalls[bestIndex])
        return alphas[means.firstIndex { $0 >= threshold } ?? bestIndex]
    }

    /// The rows of each fold that has any, in fold order.
    static func foldMembers(fold: [Int], folds: Int) -> [[Int]] {
        (0..<folds).map { k in fold.indices.filter { fold[$0] == k } }.filter { !$0.isEmpty }
    }

    /// Each fold's macro-recall of its out-of-fold scores under `rule`, in fold
    /// order (`members`: `foldMembers`).
    static func foldMacroRecalls(logits: [Double], gold: [SentimentLabel], members: [[Int]],
                                 rule: ModelManifest.DecisionRule) -> [Double] {
        members.map { rows -> Double in
            var scores = [Double]()
            scores.reserveCapacity(3 * rows.count)
            for i in rows { scores += [logits[3 * i], logits[3 * i + 1], logits[3 * i + 2]] }
            return evaluate(logits: scores, gold: rows.map { gold[$0] }, rule: rule).macroRecall
        }
    }

    /// The standard error of the mean of `values`: their standard deviation
    /// over √count (0 for fewer than two).
    static func standardError(_ values: [Double]) -> Double {
        let k = Double(values.count)
        guard k > 1 else { return 0 }
        let mean = values.reduce(0, +) / k
        var squares = 0.0
        for value in values { squares += (value - mean) * (value - mean) }
        return (squares / (k - 1) / k).squareRoot()
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
