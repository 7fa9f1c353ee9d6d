/// The model's answer for one text.
public struct Prediction: Sendable, Hashable {
    /// The decided class (the most probable one after the model's decision
    /// rule; see `SentimentModel.classify(_:)`).
    public var label: SentimentLabel
    /// One probability per class.
    public var probabilities: ClassProbabilities
    /// What the language test saw. When `language.isSupported` is false the
    /// label is not meaningful and presentation layers withhold it.
    public var language: Language

    /// Creates a prediction.
    public init(label: SentimentLabel, probabilities: ClassProbabilities, language: Language) {
        self.label = label
        self.probabilities = probabilities
        self.language = language
    }

    /// p(positive) − p(negative), in [-1, 1]: the signed strength of the mood.
    public var score: Double { probabilities.positive - probabilities.negative }
}
