import Sentiment

/// Something that gives each text a ``Prediction``: the sentiment model, or a
/// test double.
///
/// `SentimentModel` conforms. Implementations must be safe to call from any task.
public protocol TweetClassifier: Sendable {
    /// Identifies the model's name, version and weights, e.g.
    /// `"default@1.0.0+3fa2c1d0"`. Stored classifications are keyed by it: when
    /// it changes, tweets are classified again as they are shown.
    var modelID: String { get }

    /// One prediction per text, in order.
    func classify(_ texts: [String]) -> [Prediction]
}
