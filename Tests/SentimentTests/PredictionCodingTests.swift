import Foundation
import Testing
import Sentiment

@Suite("Predictions in JSON")
struct PredictionCodingTests {
    /// A classify record's probabilities and score, as written.
    private struct Fields: Decodable {
        var probabilities: [String: Double]
        var score: Double
    }

    @Test("A prediction encodes as a classify record's fields and decodes back to itself")
    func predictionRoundTrip() throws {
        let prediction = try SentimentModel.loadDefault().classify("I love this!!! 😍")
        let data = try JSONEncoder().encode(prediction)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["label", "probabilities", "score", "lang"])
        #expect(object["label"] as? String == "positive")
        #expect(object["lang"] as? String == "en")
        // The numbers are read with JSONDecoder: JSONSerialization can parse a number one unit in the
        // last place off (0.9919156432151794 written, 0.9919156432151791 read; a score of
        // 0.9893423819448799 read as …802), JSONDecoder reads them exactly.
        let fields = try JSONDecoder().decode(Fields.self, from: data)
        #expect(fields.score == prediction.score)
        let probabilities = fields.probabilities
        #expect(probabilities == ["negative": prediction.probabilities.negative, "neutral": prediction.probabilities.neutral,
                                  "positive": prediction.probabilities.positive])
        #expect(try JSONDecoder().decode(Prediction.self, from: data) == prediction)
    }

    @Test("A decoded prediction's score comes from its probabilities, not from the score written")
    func scoreIsRecomputed() throws {
        let json = #"{"label":"negative","probabilities":{"negative":0.7,"neutral":0.2,"positive":0.1},"score":5,"lang":"fr"}"#
        let prediction = try JSONDecoder().decode(Prediction.self, from: Data(json.utf8))
        #expect(abs(prediction.score - (0.1 - 0.7)) < 1e-12)
        #expect(prediction.language == .unsupported(code: "fr"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Prediction.self, from: Data(#"{"label":"negative","lang":"en"}"#.utf8))
        }
    }

    @Test("A classify record of another language, whose label is null, decodes with the most probable class")
    func nullLabelDecodes() throws {
        let json = #"{"line":1,"label":null,"probabilities":{"negative":0.2,"neutral":0.5,"positive":0.3},"score":0.1,"lang":"es","unsupported":true}"#
        let prediction = try JSONDecoder().decode(Prediction.self, from: Data(json.utf8))
        #expect(prediction.label == .neutral)
        #expect(prediction.language == .unsupported(code: "es"))
    }

    @Test("A feature's pushes, negative ones too, encode and decode as class scores")
    func pushesRoundTrip() throws {
        let push = ClassScores(negative: -0.25, neutral: 0.5, positive: -0.25)
        let decoded = try JSONDecoder().decode(ClassScores.self, from: JSONEncoder().encode(push))
        #expect(decoded == push)
        #expect(decoded[.neutral] == 0.5 && decoded.values == [-0.25, 0.5, -0.25])
    }

    @Test("Probabilities outside 0 to 1 are refused when decoding, naming the value", arguments: [
        #"{"negative":-0.1,"neutral":0.6,"positive":0.5}"#,
        #"{"negative":0.1,"neutral":1.5,"positive":0.0}"#,
    ])
    func probabilitiesOutOfRange(json: String) throws {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ClassProbabilities.self, from: Data(json.utf8))
        }
        #expect(String(describing: error).contains("a probability must be between 0 and 1"))
    }

    @Test("A language is its tag in JSON, and each tag reads back as its language",
          arguments: [(Language.english, "en"), (.undetermined, "und"), (.unsupported(code: "es"), "es"),
                      (.unsupported(code: "non-latin"), "non-latin")])
    func languageIsItsTag(language: Language, tag: String) throws {
        let data = try JSONEncoder().encode([language])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(tag)\"]")
        #expect(try JSONDecoder().decode([Language].self, from: data) == [language])
        #expect(Language(tag: tag) == language)
    }
}
