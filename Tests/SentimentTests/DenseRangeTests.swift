import Foundation
import Testing
@testable import Sentiment

/// A model records each dense feature's range over its training texts and
/// holds every text's dense values to it, so a text far longer than a tweet is
/// not scored by extrapolating the dense weights (`DenseRange`).
@Suite("Dense range")
struct DenseRangeTests {
    /// The small model's training texts, said over and over: longer, louder
    /// and with more of everything than any of them, and still short enough
    /// (507 bytes) to be read whole, not in segments (`TextSegments`).
    static let longText = String(repeating: "best movie ever!!! 😍 #great @friend ", count: 13)

    /// The raw dense values of `text` as `model`'s features make them, before
    /// any range is applied.
    private func rawDense(_ text: String, _ model: SentimentModel) -> [Float] {
        let extractor = FeatureExtractor(settings: model.manifest.features, lexicon: model.weights.lexicon)
        let buffer = TokenBuffer()
        var row = SparseRow()
        var dense = [Float](repeating: 0, count: DenseFeature.count)
        var text = text
        text.withUTF8 { buffer.tokenize(UnsafeRawBufferPointer($0), options: model.manifest.features.tokenizerOptions, seed: model.manifest.features.hashSeed) }
        dense.withUnsafeMutableBufferPointer { extractor.extract(buffer, into: &row, dense: $0.baseAddress!) }
        return dense
    }

    @Test("A trained model records each dense feature's smallest and largest value over its training texts")
    func trainingRecordsTheRange() throws {
        let model = try Fixtures.smallModel()
        let range = try #require(model.manifest.denseRange)
        let values = Fixtures.sample.map { rawDense($0.text, model) }
        for feature in DenseFeature.allCases {
            let column = values.map { $0[feature.rawValue] }
            #expect(range.min[feature.rawValue] == column.min(), "\(feature.name)")
            #expect(range.max[feature.rawValue] == column.max(), "\(feature.name)")
        }
        #expect(range.max[DenseFeature.length.rawValue] > range.min[DenseFeature.length.rawValue])
    }

    @Test("Texts inside the range score exactly as they would without it")
    func rangeChangesNothingInside() throws {
        let model = try Fixtures.smallModel()
        let texts = Fixtures.sample.map(\.text)
        #expect(model.classify(texts) == Fixtures.withoutRange(model).classify(texts))
    }

    @Test("A text longer than any training text is scored with its dense values held to the range, on every path")
    func longTextIsHeldToTheRange() throws {
        let model = try Fixtures.smallModel()
        let range = try #require(model.manifest.denseRange)
        let raw = rawDense(Self.longText, model)
        let length = DenseFeature.length.rawValue, exclamations = DenseFeature.exclamations.rawValue
        #expect(raw[length] > range.max[length] && raw[exclamations] > range.max[exclamations])
        #expect(Self.longText.utf8.count <= TextSegments.wholeLimit)

        let expected = zip(raw, zip(range.min, range.max)).map { x, bounds in min(max(x, bounds.0), bounds.1) }
        #expect(DenseFeature.allCases.map { Fixtures.dense($0, of: Self.longText, model: model) } == expected)
        let workspace = SentimentModel.Workspace(batchCapacity: 1, cacheBits: 10)
        var text = Self.longText
        text.withUTF8 { model.featurize(UnsafeRawBufferPointer($0), row: 0, workspace: workspace) }
        #expect(Array(UnsafeBufferPointer(start: workspace.dense, count: DenseFeature.count)) == expected)

        #expect(model.classify(Self.longText).probabilities != Fixtures.withoutRange(model).classify(Self.longText).probabilities)
    }

    @Test("The model id changes with the dense range, and a model without one keeps the id it had before ranges (as format 2: a format 1 model is quantized as it loads, which its id says)")
    func idFollowsTheRange() throws {
        let model = try Fixtures.smallModel()
        var manifest = model.manifest
        manifest.denseRange?.max[DenseFeature.length.rawValue] += 1
        #expect(SentimentModel(manifest: manifest, weights: model.weights, directory: nil).id != model.id)
        #expect(Fixtures.withoutRange(model).id != model.id)
        // The model shipped before ranges were recorded keeps its published id
        // under the emoji-faces table, the language test and the tokenizer it was published with (revision 1 of each).
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/manifest-d45280c9.json")
        var before = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: fixture))
        #expect(before.denseRange == nil)
        #expect(!SentimentModel.fingerprint(before, emojiFacesRevision: 1, languageRevision: 1, tokenizerRevision: 1).hasPrefix("d45280c9"))
        before.formatVersion = 2
        #expect(SentimentModel.fingerprint(before, emojiFacesRevision: 1, languageRevision: 1, tokenizerRevision: 1).hasPrefix("d45280c9"))
        #expect(!SentimentModel.fingerprint(before).hasPrefix("d45280c9"))
    }

    @Test("A manifest whose dense range has the wrong number of columns, or a minimum above its maximum, is refused",
          arguments: ["columns", "order"])
    func malformedRangeIsRefused(_ damage: String) throws {
        let model = try Fixtures.smallModel()
        var manifest = model.manifest
        var range = try #require(manifest.denseRange)
        if damage == "columns" {
            range.min.removeLast()
        } else {
            range.min[0] = range.max[0] + 1
        }
        manifest.denseRange = range
        let reason = try Fixtures.malformedReason(loading: manifest, weights: model.weights)
        #expect(reason?.contains("denseRange") == true, "\(reason ?? "loaded")")
    }

    @Test("A saved model keeps its dense range exactly")
    func rangeSurvivesSaving() throws {
        let model = try Fixtures.smallModel()
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let loaded = try model.save(to: directory)
        #expect(loaded.manifest.denseRange == model.manifest.denseRange)
        #expect(loaded.id == model.id)
    }
}
