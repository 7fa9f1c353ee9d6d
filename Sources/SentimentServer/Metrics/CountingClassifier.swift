import Sentiment
import NIOConcurrencyHelpers
import Tweets

/// Wraps the model for one request and counts the texts it classifies
/// (`sentiment_texts_classified_total`): a timeline's count includes fetched
/// tweets beyond the page shown.
final class CountingClassifier: TweetClassifier, Sendable {
    let base: any TweetClassifier
    private let count = NIOLockedValueBox(0)

    init(_ base: any TweetClassifier) {
        self.base = base
    }

    var modelID: String { base.modelID }

    /// Texts classified so far.
    var classified: Int { count.withLockedValue { $0 } }

    func classify(_ texts: [String]) -> [Prediction] {
        count.withLockedValue { $0 += texts.count }
        return base.classify(texts)
    }
}
