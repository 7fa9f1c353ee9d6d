import Testing
@testable import Sentiment

@Suite("Evaluation")
struct EvaluationTests {
    static func prediction(_ label: SentimentLabel, confidence: Double = 0.8) -> Prediction {
        let rest = (1 - confidence) / 2
        var p = ClassProbabilities(negative: rest, neutral: rest, positive: rest)
        switch label {
        case .negative: p.negative = confidence
        case .neutral: p.neutral = confidence
        case .positive: p.positive = confidence
        }
        return Prediction(label: label, probabilities: p, language: .english)
    }

    @Test("Macro recall is the mean of the per-class recalls")
    func macroRecallIsMeanOfRecalls() {
        // negative: 1/2 right, neutral: 2/2, positive: 0/1.
        let gold: [SentimentLabel] = [.negative, .negative, .neutral, .neutral, .positive]
        let predicted: [SentimentLabel] = [.negative, .neutral, .neutral, .neutral, .negative]
        let e = Evaluation(gold: gold, predictions: predicted.map { Self.prediction($0) })
        #expect(abs(e.macroRecall - (0.5 + 1 + 0) / 3) < 1e-12)
        #expect(abs(e.accuracy - 3.0 / 5) < 1e-12)
        #expect(e.confusion == [[1, 1, 0], [0, 2, 0], [1, 0, 0]])
        #expect(abs(e.precision(.neutral) - 2.0 / 3) < 1e-12)
        let f1Negative = 2 * 0.5 * 0.5 / 1.0, f1Neutral = 2 * (2.0 / 3) * 1 / (2.0 / 3 + 1)
        #expect(abs(e.macroF1 - (f1Negative + f1Neutral + 0) / 3) < 1e-12)
    }

    @Test("A perfectly calibrated set has zero calibration error; an overconfident one does not")
    func calibrationError() {
        let right = (0..<8).map { _ in Self.prediction(.positive, confidence: 0.75) }
        let gold: [SentimentLabel] = [.positive, .positive, .positive, .positive, .positive, .positive, .negative, .negative]
        #expect(abs(Evaluation(gold: gold, predictions: right).expectedCalibrationError) < 1e-12)
        let overconfident = (0..<8).map { _ in Self.prediction(.positive, confidence: 0.99) }
        #expect(abs(Evaluation(gold: gold, predictions: overconfident).expectedCalibrationError - 0.24) < 1e-9)
    }

    @Test("A confidence on a bin's edge (0.4, 7/15) lands in the bin it opens, as the table's edges say, and the number just below it in the bin below; float rounding moves none")
    func confidenceOnAnEdge() {
        func bin(of confidence: Double) -> Int? {
            var table = ReliabilityTable()
            table.add(confidence: confidence, correct: true)
            return table.bins.firstIndex { $0.count == 1 }
        }
        let edges = ReliabilityTable().bins.map(\.lower)
        for k in 1..<ReliabilityTable.binCount {
            #expect(bin(of: edges[k]) == k, "\(k)/15")
            #expect(bin(of: edges[k].nextDown) == k - 1, "just below \(k)/15")
            #expect(bin(of: edges[k].nextUp) == k, "just above \(k)/15")
        }
        // Decimal edges, which k/15 of a decimal are: 0.2 = 3/15, 0.4 = 6/15, 0.6 = 9/15, 0.8 = 12/15.
        for (confidence, k) in [(0.2, 3), (0.4, 6), (0.6, 9), (0.8, 12), (7.0 / 15, 7), (1.0, 14)] {
            #expect(bin(of: confidence) == k, "\(confidence)")
            let lower = ReliabilityTable().bins[k].lower, upper = ReliabilityTable().bins[k].upper
            #expect(lower <= confidence && (confidence < upper || k == ReliabilityTable.binCount - 1), "\(confidence)")
        }
    }

    @Test("Hand-built probabilities outside 0 to 1, or NaN, land in the end bins instead of stopping the run")
    func confidenceOutOfRange() {
        var table = ReliabilityTable()
        for confidence in [Double.nan, -0.5, 1.5, .infinity, -.infinity] { table.add(confidence: confidence, correct: true) }
        #expect(table.bins.first?.count == 3)  // NaN, -0.5, -∞ as 0
        #expect(table.bins.last?.count == 2)  // 1.5, +∞ as 1
        #expect(table.bins.first?.confidenceSum == 0)
        #expect(table.bins.last?.confidenceSum == 2)
        #expect(table.expectedCalibrationError.isFinite)
    }
}
