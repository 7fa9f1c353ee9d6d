import Sentiment
import Tweets

extension TweetClassifier {
    /// Classifies the items that have a text, in one model call, and returns
    /// one result per item, in order.
    func results(for items: [ClassifyItem], thresholds: ThemeThresholds) -> [ClassifyResult] {
        let texts = items.compactMap { try? $0.text.get() }
        var predictions = (texts.isEmpty ? [] : classify(texts)).makeIterator()
        return items.map { item in
            let outcome: Result<Prediction, ItemError> = item.text.map { _ in predictions.next()! }
            return ClassifyResult(index: item.index, id: item.id, outcome: outcome, thresholds: thresholds)
        }
    }
}
