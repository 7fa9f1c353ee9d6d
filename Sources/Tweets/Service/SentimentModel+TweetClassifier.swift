import Sentiment

/// The sentiment model classifies tweets; its ``TweetClassifier/modelID`` is
/// `SentimentModel.id` (`name@version+sha8` of the weights).
extension SentimentModel: TweetClassifier {
    /// `id`: the model's name, version and the first 8 hex digits of its weights' SHA-256.
    public var modelID: String { id }
}
