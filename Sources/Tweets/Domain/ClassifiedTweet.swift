import Sentiment

/// A tweet with the model's prediction and the mood to show for it.
///
/// This is the one JSON shape of a tweet in every output (the command line's
/// `--format jsonl`, the HTTP API's `tweets` array):
///
/// ```json
/// {"id":"1","author_id":"7","text":"What a day!","created_at":"2024-05-01T09:30:00.000Z",
///  "lang":"en","label":"positive",
///  "probabilities":{"negative":0.05,"neutral":0.15,"positive":0.8},"score":0.75,
///  "language":"en","mood":"happy",
///  "theme":{"name":"happy","emoji":"😃","color":"#FFD60A"},"model_id":"default@1.0.0+3fa2c1d0"}
/// ```
///
/// `label` and `theme` are `null` and `mood` is `"unsupported_language"` when
/// the tweet is not in English, as `POST /v1/classify` and `sentiment classify`
/// answer such a text: another language is flagged, not scored.
/// `probabilities` and `score` are still the model's raw output then, but are
/// not meaningful. `lang` is the source's language tag, `language` the
/// model's (`en`, `und`, or the unsupported code).
public struct ClassifiedTweet: Sendable, Hashable, Identifiable, Codable {
    /// The tweet.
    public var tweet: Tweet
    /// The model's answer for the tweet's text.
    public var prediction: Prediction
    /// The theme to show, or unsupported language.
    public var mood: Mood
    /// The identifier of the model that classified it (see ``TweetClassifier/modelID``).
    public var modelID: String

    /// Creates a classified tweet, deriving its mood with `thresholds`.
    public init(tweet: Tweet, prediction: Prediction, modelID: String, thresholds: ThemeThresholds = .default) {
        self.tweet = tweet
        self.prediction = prediction
        self.modelID = modelID
        self.mood = Mood(prediction: prediction, sourceLanguage: tweet.language, thresholds: thresholds)
    }

    /// The tweet's id.
    public var id: String { tweet.id }

    /// The theme, or `nil` when the language is unsupported.
    public var theme: Theme? { mood.theme }

    /// The model's label to show, or `nil` when the language is unsupported
    /// (the model's decision is then not meaningful, and is withheld).
    public var label: SentimentLabel? { mood.theme == nil ? nil : prediction.label }

    /// Whether two classified tweets say the same: the label withheld for an
    /// unsupported language (``label``) takes no part, so a tweet equals its
    /// JSON decoded.
    public static func == (lhs: ClassifiedTweet, rhs: ClassifiedTweet) -> Bool {
        lhs.tweet == rhs.tweet && lhs.mood == rhs.mood && lhs.modelID == rhs.modelID && lhs.label == rhs.label
            && lhs.prediction.probabilities == rhs.prediction.probabilities
            && lhs.prediction.language == rhs.prediction.language
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(tweet)
        hasher.combine(mood)
        hasher.combine(modelID)
        hasher.combine(label)
        hasher.combine(prediction.probabilities)
        hasher.combine(prediction.language)
    }

    enum CodingKeys: String, CodingKey {
        case id, text, label, probabilities, score, language, mood, theme
        case authorID = "author_id"
        case createdAt = "created_at"
        case sourceLanguage = "lang"
        case modelID = "model_id"
    }

    /// Encodes the flat shape shown in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tweet.id, forKey: .id)
        try container.encode(tweet.authorID, forKey: .authorID)
        try container.encode(tweet.text, forKey: .text)
        try container.encode(TweetDate.iso8601String(tweet.createdAt), forKey: .createdAt)
        try container.encode(tweet.language, forKey: .sourceLanguage)
        try container.encode(label, forKey: .label)
        try container.encode(prediction.probabilities, forKey: .probabilities)
        try container.encode(prediction.score, forKey: .score)
        try container.encode(prediction.language.tag, forKey: .language)
        try container.encode(mood.name, forKey: .mood)
        try container.encode(mood.theme, forKey: .theme)
        try container.encode(modelID, forKey: .modelID)
    }

    /// Decodes the flat shape; `mood` is read back as written, not recomputed.
    /// A `null` label (an unsupported language) is read as the most probable
    /// class, which ``label`` withholds again.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let date = try container.decode(String.self, forKey: .createdAt)
        guard let createdAt = TweetDate.parse(date) else {
            throw DecodingError.dataCorruptedError(forKey: .createdAt, in: container, debugDescription: "not a date: \(date)")
        }
        let sourceLanguage = try container.decodeIfPresent(String.self, forKey: .sourceLanguage)
        tweet = Tweet(
            id: try container.decode(String.self, forKey: .id),
            authorID: try container.decodeIfPresent(String.self, forKey: .authorID) ?? "",
            text: try container.decode(String.self, forKey: .text),
            createdAt: createdAt,
            language: sourceLanguage
        )
        let language = Language(tag: try container.decodeIfPresent(String.self, forKey: .language) ?? "und")
        let probabilities = try container.decode(ClassProbabilities.self, forKey: .probabilities)
        prediction = Prediction(
            label: try container.decodeIfPresent(SentimentLabel.self, forKey: .label) ?? probabilities.argmax,
            probabilities: probabilities,
            language: language
        )
        modelID = try container.decodeIfPresent(String.self, forKey: .modelID) ?? ""
        if let theme = try container.decodeIfPresent(Theme.self, forKey: .theme) {
            mood = .themed(theme)
        } else {
            let code = language.isSupported ? (sourceLanguage ?? "und").lowercased() : language.tag
            mood = .unsupportedLanguage(code)
        }
    }
}
