import Foundation
import Testing
@testable import Sentiment

/// The hot path sums each distinct token's share once and keeps it in a cache
/// (`FusedScorer`, `TokenCache`); training and `explain` build the features
/// one by one. The two must score every text alike.
@Suite("Fused scorer")
struct FusedScorerTests {
    /// Texts that touch every branch: negation, contrast, hashtags, emoji,
    /// emoticons, emphasis, questions, URLs, mentions, accents, other
    /// languages and scripts, empty and huge texts, and repeated words.
    static let texts: [String] = ScoringTests.texts + [
        "The food was great but the service was awful", "not good. not good at all!!!", "I don't like it, but I don't hate it?",
        "#notcool #LoveIt so #blessed", ":) :( :-D <3 😍😢🙏", "we won 🏆🎉👍🏽 but the refs 🤦‍♂️👎 🤮 😎🙄", "WHY IS THIS SO HARD?!?!", "@united lost my bag https://t.co/abc",
        "Qué día tan bonito, me encanta", "Je suis très content aujourd'hui", "Das ist nicht gut und ich bin müde",
        "これはペンです", "Привет, как дела?", "123 456 789", "🙂", "but but but", "!!!", "???",
        String(repeating: "good bad ugly ", count: 2000), "naïve café déjà vu résumé",
        // More tokens than the scratch starts with (256), in one piece (under 560 bytes).
        String(repeating: "( ", count: 275), String(repeating: "no ", count: 180),
        // Read in segments (over 560 bytes): sentences, one unbroken word, another language.
        (0..<30).map { "Day \($0) was great but the service was awful!" }.joined(separator: " "),
        String(repeating: "é", count: 700), String(repeating: "Qué día tan bonito. ", count: 40),
    ] + (0..<300).map { i in
        // Made-up words, so a small cache must evict and refill.
        let words = ["love", "hate", "not", "but", "great", "awful", "the", "meh", "#yay", ":)", "😡", "👍", "el", "und", "!!"]
        return (0..<(3 + i % 17)).map { j in words[(i * 7 + j * 3) % words.count] + (j % 4 == 0 ? "x\(i)" : "") }
            .joined(separator: " ")
    }

    /// Scores, dense rows and languages of `texts`, through `featurize` (fused)
    /// or `featurizeReference`.
    private func rows(_ model: SentimentModel, workspace: SentimentModel.Workspace, fused: Bool)
        -> [(logits: [Float], dense: [Float], language: Language, features: Int)] {
        Self.texts.map { text in
            var text = text
            text.withUTF8 { bytes in
                if fused {
                    model.featurize(UnsafeRawBufferPointer(bytes), row: 0, workspace: workspace)
                } else {
                    model.featurizeReference(UnsafeRawBufferPointer(bytes), row: 0, workspace: workspace)
                }
            }
            return (Array(UnsafeBufferPointer(start: workspace.logits, count: 3)),
                    Array(UnsafeBufferPointer(start: workspace.dense, count: DenseFeature.count)),
                    workspace.languages[0], workspace.row.count)
        }
    }

    private func expectAgreement(_ model: SentimentModel, cacheBits: Int) {
        let reference = rows(model, workspace: SentimentModel.Workspace(batchCapacity: 1, cacheBits: 14), fused: false)
        let workspace = SentimentModel.Workspace(batchCapacity: 1, cacheBits: cacheBits)
        // Twice over the same workspace: the second pass reads a warm cache.
        for fused in [rows(model, workspace: workspace, fused: true), rows(model, workspace: workspace, fused: true)] {
            for (text, (expected, actual)) in zip(Self.texts, zip(reference, fused)) {
                // Summing n floats in another order moves the result by up to
                // about n·ε of its size: 1e-4 for a tweet, more for a book.
                let tolerance = max(1e-4, 2 * Float.ulpOfOne * Float(expected.features))
                for c in 0..<3 {
                    #expect(abs(expected.logits[c] - actual.logits[c]) <= tolerance * max(1, abs(expected.logits[c])),
                            "class \(c) of \(text.prefix(60))")
                }
                #expect(expected.dense == actual.dense, "dense values of \(text.prefix(60))")
                #expect(expected.language == actual.language, "language of \(text.prefix(60))")
            }
        }
    }

    /// `classify(utf8:workspace:)` scores texts in batches (the dense part of
    /// a batch is one `cblas_sgemm`), reads long texts in segments between
    /// short ones, and shares one token cache across them. Scored in one
    /// call, in batches of any size, or one call per text, the texts must
    /// come out the same, bit for bit: a prediction never depends on the
    /// texts it was scored with. (The sparse sums are of integers, exact in
    /// any order; the dense block's sums are BLAS's, whose order OpenBLAS
    /// keeps whatever the batch's row count. A direct Float loop for small
    /// batches, measured as a way past the call's cost for one text, moved
    /// 1,186 of dev's 5,979 probabilities in their last bits, none at four
    /// decimals, and was not kept.)
    @Test("Texts classified in one call, in batches of any size, score bit for bit as texts classified one by one",
          arguments: [(256, 14), (3, 14), (17, 14), (1, 1)])
    func oneCallAgreesWithOneByOne(batchCapacity: Int, cacheBits: Int) throws {
        let model = try SentimentModel.loadDefault()
        // Long and short texts interleaved: a segmented text after a short one and before one.
        let texts = Self.texts + Self.texts.reversed()
        let bytes = texts.map { Array($0.utf8) }
        let alone = bytes.map { text in
            Fixtures.classify(utf8: [text], model, workspace: SentimentModel.Workspace(batchCapacity: 1, cacheBits: 14))[0]
        }
        let together = Fixtures.classify(
            utf8: bytes, model, workspace: SentimentModel.Workspace(batchCapacity: batchCapacity, cacheBits: cacheBits))
        #expect(together.count == alone.count)
        for (text, (a, b)) in zip(texts, zip(alone, together)) {
            #expect(a.label == b.label && a.language == b.language, "\(text.prefix(60))")
            #expect(a.probabilities.values.map(\.bitPattern) == b.probabilities.values.map(\.bitPattern), "\(text.prefix(60))")
        }
    }

    @Test("The fused path scores the shipped model's texts as the feature-by-feature path does")
    func shippedModelAgrees() throws {
        expectAgreement(try SentimentModel.loadDefault(), cacheBits: 14)
    }

    @Test("A cache of one slot, evicted at nearly every token, still scores alike")
    func evictedCacheAgrees() throws {
        #expect(TokenTable(bits: 1).capacity == 1)
        expectAgreement(try SentimentModel.loadDefault(), cacheBits: 1)
    }

    @Test("A small trained model with trigrams and no negated character n-grams scores alike")
    func otherSettingsAgree() throws {
        var options = Fixtures.smallOptions
        options.features.wordNgrams = 3
        options.features.negatedCharNgrams = false
        options.learnsLexicon = true
        let model = try Trainer(options: options).train(Fixtures.sample).model
        expectAgreement(model, cacheBits: 4)
    }

    @Test("A small trained model with contrast-scope words scores alike")
    func contrastWordsAgree() throws {
        var options = Fixtures.smallOptions
        options.features.contrastWords = true
        options.learnsLexicon = true
        let model = try Trainer(options: options).train(Fixtures.sample).model
        expectAgreement(model, cacheBits: 4)
    }

    @Test("A model without character n-grams scores alike")
    func noCharacterNgramsAgree() throws {
        var options = Fixtures.smallOptions
        options.features.charNgramMax = 0
        let model = try Trainer(options: options).train(Fixtures.sample).model
        expectAgreement(model, cacheBits: 4)
    }
}
