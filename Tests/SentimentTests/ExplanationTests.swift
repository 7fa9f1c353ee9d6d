import Foundation
import Testing
@testable import Sentiment

/// `SentimentModel.explain` on the shipped model: the pushes it lists are the
/// model's own arithmetic, not a story told beside it.
@Suite("Explanations on the shipped model")
struct ExplanationTests {
    static let model: SentimentModel? = try? SentimentModel.loadDefault()

    static let texts = [
        "the food was great but the service was awful :(",
        "This movie was not bad at all",
        "I love this, best day ever!!! 😍",
        "The store opens at 9 on Saturday #shopping @mall http://example.com",
        // Over 560 bytes: read in segments, each push the segments' mean.
        (0..<20).map { "Day \($0): the food was great but the service was awful." }.joined(separator: " "),
    ]

    /// Each class's sum of every listed feature's push (an explanation with no
    /// limit lists them all); a feature is listed under every class it pushes
    /// towards, and is counted once.
    private static func totalPush(_ explanation: Explanation) -> [Double] {
        var total = [0.0, 0.0, 0.0]
        var seen = Set<String>()
        for label in SentimentLabel.allCases {
            for contribution in explanation.strongest[label] ?? [] where seen.insert(contribution.feature).inserted {
                for c in 0..<3 { total[c] += contribution.push.values[c] }
            }
        }
        return total
    }

    @Test("Every feature's pushes and the bias add up to the scores behind the probabilities", arguments: texts)
    func pushesAddUpToTheScores(text: String) throws {
        let model = try #require(Self.model, "Models/default must load")
        let explanation = model.explain(text, limit: 100_000)
        let total = Self.totalPush(explanation)
        let bias = model.weights.bias.map(Double.init)
        let biasMean = bias.reduce(0, +) / 3
        // p = softmax(z / T), so T·(log p − mean log p) is z − mean z.
        let p = explanation.prediction.probabilities
        let logs = [p.negative, p.neutral, p.positive].map { Foundation.log($0) }
        let logMean = logs.reduce(0, +) / 3
        let temperature = model.manifest.decision.temperature
        for c in 0..<3 {
            let score = temperature * (logs[c] - logMean)
            #expect(abs(score - (total[c] + bias[c] - biasMean)) < 1e-3, "class \(c): \(score) vs \(total[c] + bias[c] - biasMean)")
        }
    }

    @Test("The scores are the model's bias plus every feature's push, and their softmax at the temperature is the probabilities", arguments: texts)
    func scoresAreTheBiasPlusEveryPush(text: String) throws {
        let model = try #require(Self.model, "Models/default must load")
        let explanation = model.explain(text, limit: 100_000)
        let total = Self.totalPush(explanation)
        let bias = model.weights.bias.map(Double.init), biasMean = bias.reduce(0, +) / 3
        for c in 0..<3 {
            #expect(abs(explanation.bias.values[c] - (bias[c] - biasMean)) < 1e-9, "class \(c)")
            #expect(abs(explanation.scores.values[c] - (total[c] + explanation.bias.values[c])) < 1e-9, "class \(c)")
        }
        let tempered = explanation.scores.values.map { exp($0 / model.manifest.decision.temperature) }
        let p = explanation.prediction.probabilities
        for (c, probability) in [p.negative, p.neutral, p.positive].enumerated() {
            #expect(abs(tempered[c] / tempered.reduce(0, +) - probability) < 1e-4, "class \(c)")
        }
    }

    @Test("A dense feature carries its value in the text and its training mean, so one the text lacks reads as 0; a sparse feature has none")
    func denseFeaturesCarryTheirValue() throws {
        let model = try #require(Self.model, "Models/default must load")
        func listed(_ text: String) -> [Explanation.Contribution] {
            let explanation = model.explain(text, limit: 100_000)
            return SentimentLabel.allCases.flatMap { explanation.strongest[$0] ?? [] }
        }
        let withoutURL = try #require(listed("ok").first { $0.feature == "dense:hasURL" }, "hasURL pushes a text without a URL")
        #expect(withoutURL.value == 0)
        let mean = try #require(withoutURL.trainingMean)
        #expect(mean > 0 && mean < 1, "the share of training tweets with a URL: \(mean)")
        let withURL = try #require(listed("ok https://example.com").first { $0.feature == "dense:hasURL" })
        #expect(withURL.value == 1 && withURL.trainingMean == mean)
        let length = try #require(listed("ok").first { $0.feature == "dense:length" })
        #expect(abs((length.value ?? -1) - Foundation.log(2)) < 1e-6, "log(1 + one token)")
        #expect(listed("ok").filter { !$0.feature.hasPrefix("dense:") }.allSatisfy { $0.value == nil && $0.trainingMean == nil })
    }

    @Test("Each class lists at most `limit` features, strongest first, each pushing towards it")
    func listsAreOrderedAndCapped() throws {
        let model = try #require(Self.model, "Models/default must load")
        let explanation = model.explain(Self.texts[0], limit: 5)
        for label in SentimentLabel.allCases {
            let list = try #require(explanation.strongest[label])
            #expect((1...5).contains(list.count), "\(label): \(list.count)")
            let pushes = list.map { $0.push[label] }
            #expect(pushes.allSatisfy { $0 > 0 })
            #expect(pushes == pushes.sorted(by: >))
            for contribution in list {
                let p = contribution.push
                #expect(abs(p.negative + p.neutral + p.positive) < 1e-9, "\(contribution.feature)")
            }
        }
    }

    @Test("Each class lists at most `limit` features against it, strongest first, each pushing away from it")
    func againstListsAreOrderedAndCapped() throws {
        let model = try #require(Self.model, "Models/default must load")
        let explanation = model.explain(Self.texts[0], limit: 5)
        let all = model.explain(Self.texts[0], limit: 100_000)
        for label in SentimentLabel.allCases {
            let list = try #require(explanation.against[label])
            #expect((1...5).contains(list.count), "\(label): \(list.count)")
            let pushes = list.map { $0.push[label] }
            #expect(pushes.allSatisfy { $0 < 0 }, "\(label): \(pushes)")
            #expect(pushes == pushes.sorted(by: <))
            // The strongest of them all: none left out pushes away harder.
            let everyPush = (all.against[label] ?? []).map { $0.push[label] }
            #expect(everyPush.count >= list.count && Array(everyPush.prefix(list.count)) == pushes, "\(label)")
        }
    }

    @Test("With no limit, a feature is listed against every class it pushes away from and towards every class it pushes towards, never both for one class")
    func againstAndStrongestSplitTheFeatures() throws {
        let model = try #require(Self.model, "Models/default must load")
        let explanation = model.explain(Self.texts[0], limit: 100_000)
        // Every feature that pushes at all pushes some class up (the three sum to zero).
        let features = SentimentLabel.allCases.flatMap { explanation.strongest[$0] ?? [] }
        #expect(features.count > 20)
        for label in SentimentLabel.allCases {
            let towards = Set((explanation.strongest[label] ?? []).map(\.feature))
            let away = Set((explanation.against[label] ?? []).map(\.feature))
            #expect(towards.isDisjoint(with: away), "\(label): \(towards.intersection(away))")
            for contribution in features {
                #expect(away.contains(contribution.feature) == (contribution.push[label] < 0), "\(label): \(contribution.feature)")
            }
        }
    }

    @Test("In a mixed review the praise speaks against negative and the complaint against positive")
    func mixedReviewSpeaksAgainstEachSide() throws {
        let model = try #require(Self.model, "Models/default must load")
        let explanation = model.explain("the food was great but the service was awful")
        let againstNegative = (explanation.against[.negative] ?? []).map(\.feature)
        let againstNeutral = (explanation.against[.neutral] ?? []).map(\.feature)
        let againstPositive = (explanation.against[.positive] ?? []).map(\.feature)
        // "great" speaks against negative by its bigram and character n-grams; the word
        // itself pushes positive up and neutral down about as much, so it is against neutral.
        #expect(againstNegative.contains("was great") && againstNegative.contains("char:great"), "\(againstNegative)")
        #expect(againstNeutral.first == "great", "\(againstNeutral)")
        #expect(againstPositive.contains("awful"), "\(againstPositive)")
        #expect(!againstNegative.contains { $0.contains("awful") }, "\(againstNegative)")
        #expect(!againstPositive.contains { $0.contains("great") }, "\(againstPositive)")
    }

    @Test("A limit of zero or less lists no features instead of trapping", arguments: [0, -1, Int.min])
    func nonPositiveLimitListsNothing(limit: Int) throws {
        let model = try #require(Self.model, "Models/default must load")
        let explanation = model.explain("I love this, best day ever", limit: limit)
        #expect(explanation.strongest.count == 3 && explanation.against.count == 3)
        #expect(explanation.strongest.values.allSatisfy { $0.isEmpty })
        #expect(explanation.against.values.allSatisfy { $0.isEmpty })
        #expect(explanation.prediction.label == .positive)
    }

    @Test("The tokens are the tokenizer's and the prediction is classify's")
    func tokensAndPrediction() throws {
        let model = try #require(Self.model, "Models/default must load")
        let text = "NOT happy @bob :("
        let explanation = model.explain(text)
        #expect(explanation.tokens.map(\.text) == ["not", "happy", "<user>", ":("])
        #expect(explanation.tokens[1].flags.contains(.negated))
        #expect(explanation.prediction == model.classify(text))
    }

    @Test("A word and a character n-gram with the same letters are listed apart, not summed under one name")
    func wordsAndCharacterNgramsAreNamedApart() throws {
        let model = try #require(Self.model, "Models/default must load")
        // "the" is a word here and a character 3-gram of "other"; "fail" a word and a 4-gram of "<fail>".
        let explanation = model.explain("other the fail", limit: 100_000)
        let features = Set(SentimentLabel.allCases.flatMap { (explanation.strongest[$0] ?? []).map(\.feature) })
        for name in ["the", "fail"] {
            #expect(features.contains(name) && features.contains("char:" + name), "\(name): \(features.sorted())")
        }
        #expect(features.contains("char:<fai") && features.contains("char:il>"), "\(features.sorted())")
    }

    @Test("A plainly happy text is explained by its happy words")
    func happyWordsExplainHappyText() throws {
        let model = try #require(Self.model, "Models/default must load")
        let explanation = model.explain("I love this, best day ever")
        #expect(explanation.prediction.label == .positive)
        let towardsPositive = (explanation.strongest[.positive] ?? []).map(\.feature)
        #expect(towardsPositive.contains("love") || towardsPositive.contains("best"), "\(towardsPositive)")
    }
}
