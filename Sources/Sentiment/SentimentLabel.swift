/// The three sentiment classes, in the order the model scores them.
///
/// The raw values are the labels of the training data and of every output
/// format: `"negative"`, `"neutral"`, `"positive"`.
public enum SentimentLabel: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case negative
    case neutral
    case positive

    /// The class's row in the model's weights and in `ClassProbabilities`.
    public var index: Int {
        switch self {
        case .negative: 0
        case .neutral: 1
        case .positive: 2
        }
    }

    /// The label at a class index (0 negative, 1 neutral, 2 positive).
    ///
    /// - Precondition: `index` is 0, 1 or 2.
    public init(index: Int) {
        precondition((0..<3).contains(index), "class index out of range: \(index)")
        self = Self.allCases[index]
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.index < rhs.index }
}
