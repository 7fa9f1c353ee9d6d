/// The model's probability for each class: three numbers in [0, 1] that sum to 1.
public struct ClassProbabilities: Sendable, Hashable, Codable {
    /// p(negative).
    public var negative: Double
    /// p(neutral).
    public var neutral: Double
    /// p(positive).
    public var positive: Double

    /// Probabilities from the three values, in class order.
    public init(negative: Double, neutral: Double, positive: Double) {
        self.negative = negative
        self.neutral = neutral
        self.positive = positive
    }

    /// Decodes `{"negative": …, "neutral": …, "positive": …}`; each value must
    /// be a number in [0, 1] (their sum is not checked: records round to four
    /// decimals).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var values: [Double] = []
        for key in [CodingKeys.negative, .neutral, .positive] {
            let value = try container.decode(Double.self, forKey: key)
            guard (0...1).contains(value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "a probability must be between 0 and 1, not \(value)")
            }
            values.append(value)
        }
        self.init(negative: values[0], neutral: values[1], positive: values[2])
    }

    /// The probability of one class.
    public subscript(label: SentimentLabel) -> Double {
        switch label {
        case .negative: negative
        case .neutral: neutral
        case .positive: positive
        }
    }

    /// The three values in class order (negative, neutral, positive).
    public var values: [Double] { [negative, neutral, positive] }

    /// The most probable class; ties go to the lower class index.
    public var argmax: SentimentLabel {
        var best = SentimentLabel.negative
        for label in SentimentLabel.allCases where self[label] > self[best] { best = label }
        return best
    }
}
