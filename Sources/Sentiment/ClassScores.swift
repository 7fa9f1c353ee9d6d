/// Three signed numbers, one per class, such as a feature's push on each
/// class's score (`Explanation.Contribution.push`). Unlike
/// `ClassProbabilities`, any finite values go, negative ones too.
///
/// In JSON (`Codable`): `{"negative": …, "neutral": …, "positive": …}`.
public struct ClassScores: Sendable, Hashable, Codable {
    /// The negative class's value.
    public var negative: Double
    /// The neutral class's value.
    public var neutral: Double
    /// The positive class's value.
    public var positive: Double

    /// The three values, in class order.
    public init(negative: Double, neutral: Double, positive: Double) {
        self.negative = negative
        self.neutral = neutral
        self.positive = positive
    }

    /// The value of one class.
    public subscript(label: SentimentLabel) -> Double {
        switch label {
        case .negative: negative
        case .neutral: neutral
        case .positive: positive
        }
    }

    /// The three values in class order (negative, neutral, positive).
    public var values: [Double] { [negative, neutral, positive] }
}
