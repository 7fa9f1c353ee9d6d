import Foundation
import Testing
@testable import Sentiment

/// With `contrastWords`, the words after a "but" are features of their own, so
/// the clause that usually carries the verdict can weigh more.
@Suite("Contrast words")
struct ContrastWordsTests {
    /// The names of the word-group features of `text` under `settings`.
    private func featureNames(_ text: String, settings: FeatureSettings) -> [String] {
        let buffer = TokenBuffer()
        var text = text
        text.withUTF8 { buffer.tokenize(UnsafeRawBufferPointer($0), options: settings.tokenizerOptions, seed: settings.hashSeed) }
        let extractor = FeatureExtractor(settings: settings, lexicon: .empty(bits: 8))
        var row = NamedRow()
        var dense = [Float](repeating: 0, count: DenseFeature.count)
        dense.withUnsafeMutableBufferPointer { extractor.extract(buffer, into: &row, dense: $0.baseAddress!) }
        return row.names
    }

    private var contrastSettings: FeatureSettings {
        var settings = FeatureSettings.standard
        settings.contrastWords = true
        return settings
    }

    @Test("Only the words, hashtags, emoji and emoticons after the first \"but\" get a contrast feature, negated ones marked")
    func scopeStartsAfterBut() {
        let names = featureNames("The food was great but the service wasn't good. :( but ok", settings: contrastSettings)
        #expect(names.filter { $0.hasSuffix("_BUT") } == [
            "the_BUT", "service_BUT", "wasn't_BUT", "good_NEG_BUT", ":(_BUT", "but_BUT", "ok_BUT",
        ])
    }

    @Test("Without the setting, or without a \"but\", there are no contrast features")
    func offOrAbsent() {
        #expect(!featureNames("great but awful", settings: .standard).contains { $0.hasSuffix("_BUT") })
        #expect(!featureNames("great and awful, butter", settings: contrastSettings).contains { $0.hasSuffix("_BUT") })
    }

    @Test("A manifest written before the setting existed reads it as off")
    func olderManifestsReadItAsOff() throws {
        let encoded = try JSONEncoder().encode(FeatureSettings.standard)
        var object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        object["contrastWords"] = nil
        var decoded = try JSONDecoder().decode(FeatureSettings.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(decoded.contrastWords == false)
        decoded.contrastWords = FeatureSettings.standard.contrastWords
        #expect(decoded == FeatureSettings.standard)
    }
}
