import Sentiment

/// The sentiment model classifies tweets; its ``TweetClassifier/modelID`` is
/// `SentimentModel.id` (`name@version+sha8`: changes with anything that changes a prediction).
extension SentimentModel: TweetClassifier {
    /// `id`: the model's name, version and a digest of its weights, features and decision rule.
    public var modelID: String { id }
}
