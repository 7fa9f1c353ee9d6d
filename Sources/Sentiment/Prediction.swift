/// The model's answer for one text.
///
/// In JSON (`Codable`) a prediction has the fields of a `sentiment classify`
/// record: `{"label": "positive", "probabilities": {"negative": …, "neutral":
/// …, "positive": …}, "score": …, "lang": "en"}`. `score` is written for
/// readers and recomputed from the probabilities when decoding. Unlike the
/// command line, which writes `"label": null` for an unsupported language,
/// the label is always written: it is the model's decision either way. A
/// `null` label is read back as the most probable class, so a `classify`
/// record of another language decodes too.
public struct Prediction: Sendable, Hashable, Codable {
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

    enum CodingKeys: String, CodingKey {
        case label, probabilities, score
        case language = "lang"
    }

    /// Decodes `label`, `probabilities` and `lang`; `score` is not read. A
    /// `null` label (the command line's for an unsupported language) is the
    /// most probable class.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let probabilities = try container.decode(ClassProbabilities.self, forKey: .probabilities)
        self.init(label: try container.decodeIfPresent(SentimentLabel.self, forKey: .label) ?? probabilities.argmax,
                  probabilities: probabilities,
                  language: try container.decode(Language.self, forKey: .language))
    }

    /// Encodes `label`, `probabilities`, `score` and `lang`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encode(probabilities, forKey: .probabilities)
        try container.encode(score, forKey: .score)
        try container.encode(language, forKey: .language)
    }
}
