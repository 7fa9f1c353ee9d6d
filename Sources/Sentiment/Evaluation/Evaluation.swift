/// How a model's predictions compare with gold labels: the task's metric
/// (macro-averaged recall) first, with accuracy, macro-F1, per-class precision
/// and recall, the confusion matrix and calibration beside it.
public struct Evaluation: Sendable, Hashable {
    /// `confusion[gold][predicted]`, class order negative, neutral, positive.
    public private(set) var confusion: [[Int]] = Array(repeating: [0, 0, 0], count: 3)
    /// Calibration of the top probability.
    public private(set) var reliability = ReliabilityTable()
    /// Examples whose language is not supported (`Language.isSupported`):
    /// counted in every metric with the model's label, which `sentiment
    /// classify` withholds from them.
    public private(set) var otherLanguage = 0

    /// An empty evaluation.
    public init() {}

    /// Evaluates predictions against gold labels (paired in order).
    ///
    /// - Precondition: one prediction per gold label (`gold.count ==
    ///   predictions.count`); for pairs as they come, use ``add(gold:prediction:)``.
    public init(gold: [SentimentLabel], predictions: [Prediction]) {
        precondition(gold.count == predictions.count, "one prediction per gold label")
        for (label, prediction) in zip(gold, predictions) { add(gold: label, prediction: prediction) }
    }

    /// Adds one scored example.
    public mutating func add(gold: SentimentLabel, prediction: Prediction) {
        confusion[gold.index][prediction.label.index] += 1
        let top = prediction.probabilities.argmax
        reliability.add(confidence: prediction.probabilities[top], correct: top == gold)
        if !prediction.language.isSupported { otherLanguage += 1 }
    }

    /// Examples counted.
    public var count: Int { confusion.joined().reduce(0, +) }

    /// Examples whose gold label is `label`: `recall(label)` is undefined when none.
    public func support(_ label: SentimentLabel) -> Int {
        confusion[label.index].reduce(0, +)
    }

    /// Examples predicted as `label`: `precision(label)` is undefined when none.
    public func predictedCount(_ label: SentimentLabel) -> Int {
        (0..<3).reduce(0) { $0 + confusion[$1][label.index] }
    }

    /// Of the examples whose gold label is `label`, the share predicted as
    /// `label` (undefined when none, see `support`: then 0, and counted as 0 in
    /// `macroRecall`).
    public func recall(_ label: SentimentLabel) -> Double {
        let row = support(label)
        return row == 0 ? 0 : Double(confusion[label.index][label.index]) / Double(row)
    }

    /// Of the examples predicted as `label`, the share whose gold label is
    /// `label` (undefined when none, see `predictedCount`: then 0).
    public func precision(_ label: SentimentLabel) -> Double {
        let column = predictedCount(label)
        return column == 0 ? 0 : Double(confusion[label.index][label.index]) / Double(column)
    }

    /// Harmonic mean of precision and recall for `label` (0 when both are 0;
    /// undefined only when `label` is neither a gold label nor a prediction,
    /// then 0 and counted as 0 in `macroF1`).
    public func f1(_ label: SentimentLabel) -> Double {
        let p = precision(label), r = recall(label)
        return p + r == 0 ? 0 : 2 * p * r / (p + r)
    }

    /// The mean of the three per-class recalls: the SemEval task's metric,
    /// over all three classes even when one has no gold examples.
    public var macroRecall: Double { SentimentLabel.allCases.map(recall).reduce(0, +) / 3 }
    /// The mean of the three per-class F1 scores.
    public var macroF1: Double { SentimentLabel.allCases.map(f1).reduce(0, +) / 3 }
    /// The share of correct labels.
    public var accuracy: Double {
        count == 0 ? 0 : Double((0..<3).reduce(0) { $0 + confusion[$1][$1] }) / Double(count)
    }
    /// Expected calibration error of the top probability.
    public var expectedCalibrationError: Double { reliability.expectedCalibrationError }
}

/// Confidence against accuracy in equal-width bins of the top probability.
///
/// Bin k holds confidences in [k/15, (k+1)/15): a confidence on an edge
/// (0.4) goes to the bin above it, and 1 to the last bin, [14/15, 1]. With
/// three classes the top probability is at least 1/3, so the five bins below
/// it stay empty. "Correct" means the most probable class is the gold one,
/// which is not always the decided label (`Prediction.label`), so the bins'
/// accuracy is not the evaluation's accuracy.
public struct ReliabilityTable: Sendable, Hashable {
    /// 15 equal-width bins over [0, 1].
    public static let binCount = 15

    /// One bin.
    public struct Bin: Sendable, Hashable {
        /// Lower and upper edges of the top probability.
        public var lower: Double, upper: Double
        /// Examples in the bin.
        public var count = 0
        /// Sum of their top probabilities.
        public var confidenceSum = 0.0
        /// How many were right.
        public var correct = 0

        /// Mean top probability (0 when empty).
        public var confidence: Double { count == 0 ? 0 : confidenceSum / Double(count) }
        /// Share right (0 when empty).
        public var accuracy: Double { count == 0 ? 0 : Double(correct) / Double(count) }
    }

    /// The bins, lowest first.
    public private(set) var bins: [Bin] = (0..<binCount).map {
        Bin(lower: Double($0) / Double(binCount), upper: Double($0 + 1) / Double(binCount))
    }

    /// An empty table.
    public init() {}

    /// Adds one example. A confidence outside [0, 1] is taken as the nearest
    /// end of it, and NaN as 0, so hand-built predictions cannot stop a run.
    public mutating func add(confidence: Double, correct: Bool) {
        let confidence = confidence.isNaN ? 0 : min(max(confidence, 0), 1)
        let index = min(Int(confidence * Double(Self.binCount)), Self.binCount - 1)
        bins[index].count += 1
        bins[index].confidenceSum += confidence
        if correct { bins[index].correct += 1 }
    }

    /// Σ (n_b / N)·|accuracy_b − confidence_b|.
    public var expectedCalibrationError: Double {
        let total = bins.reduce(0) { $0 + $1.count }
        guard total > 0 else { return 0 }
        return bins.reduce(0) { $0 + Double($1.count) / Double(total) * abs($1.accuracy - $1.confidence) }
    }
}
