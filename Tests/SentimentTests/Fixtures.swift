import Foundation
@testable import Sentiment

/// Small models and data made in the tests themselves.
enum Fixtures {
    /// A tiny labelled sample with obvious sentiment.
    static let sample: [LabeledExample] = {
        let positive = ["I love this so much", "what a great day :)", "best movie ever!!!", "so happy right now 😍",
                        "this is awesome", "love love love it", "great job team", "happy birthday, have a wonderful day",
                        "amazing concert tonight", "I really enjoyed the show"]
        let negative = ["I hate this", "worst day ever :(", "this is terrible", "so sad and angry 😢",
                        "awful service, never again", "I hate mondays", "terrible movie, what a waste", "this sucks",
                        "so disappointed and upset", "the worst experience"]
        let neutral = ["the meeting is at 3pm", "going to the store", "the train leaves at noon", "new episode airs on friday",
                       "the report is due tomorrow", "we are in london this week", "the game starts at 8",
                       "check the schedule for details", "the office is on the second floor", "tickets go on sale monday"]
        var examples: [LabeledExample] = []
        for i in 0..<10 {
            examples.append(LabeledExample(text: positive[i], label: .positive))
            examples.append(LabeledExample(text: negative[i], label: .negative))
            examples.append(LabeledExample(text: neutral[i], label: .neutral))
        }
        return examples
    }()

    /// Options for a small, fast model.
    static var smallOptions: TrainingOptions {
        var options = TrainingOptions()
        options.features.bucketBits = 14
        options.lexiconBits = 10
        options.folds = 3
        options.maxIterations = 200
        options.l2 = 1e-4   // 5× the shipped model's 2e-5; 1e-3 left thirty tweets underfit
        options.threads = 2
        // Ten tweets a class cannot support a cross-fitted lexicon: each fold's
        // lexicon misses most words that the full one scores, so its dense
        // features would be noise. The sparse n-grams are what this sample tests;
        // the shipped model's lexicon is covered by `GoldenSentenceTests`.
        options.learnsLexicon = false
        return options
    }

    /// A model trained on `sample`.
    static func smallModel() throws -> SentimentModel {
        try Trainer(options: smallOptions).train(sample).model
    }

    /// `texts` (any bytes) through `classify(utf8:workspace:)`, each from a
    /// buffer of its own.
    static func classify(utf8 texts: [[UInt8]], _ model: SentimentModel, workspace: SentimentModel.Workspace) -> [Prediction] {
        let copies = texts.map { bytes -> UnsafeRawBufferPointer in
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            copy.copyBytes(from: bytes)
            return UnsafeRawBufferPointer(rebasing: copy[0..<bytes.count])
        }
        defer { copies.forEach { UnsafeMutableRawBufferPointer(mutating: $0).deallocate() } }
        return model.classify(utf8: copies, workspace: workspace)
    }

    /// `read` applied to the text of the single token `text` tokenizes to, or
    /// nil when `text` is not one token of `kind`.
    static func singleToken<T>(_ text: String, kind: Token.Kind, _ read: (UnsafeRawBufferPointer) -> T) -> T? {
        let buffer = TokenBuffer()
        var text = text
        text.withUTF8 { buffer.tokenize(UnsafeRawBufferPointer($0), options: FeatureSettings.standard.tokenizerOptions, seed: 1) }
        guard buffer.count == 1, buffer.token(at: 0).kind == kind else { return nil }
        return read(buffer.textBytes(of: 0))
    }

    /// `model` with its dense range taken out of the manifest: its dense
    /// values as the features define them, before the range holds them.
    static func withoutRange(_ model: SentimentModel) -> SentimentModel {
        var manifest = model.manifest
        manifest.denseRange = nil
        return SentimentModel(manifest: manifest, weights: model.weights, directory: nil)
    }

    /// The value of dense feature `feature` for `text`, built feature by
    /// feature (`featurizeReference`) with `model`.
    static func dense(_ feature: DenseFeature, of text: String, model: SentimentModel) -> Float {
        let workspace = SentimentModel.Workspace(batchCapacity: 1, cacheBits: 10)
        var text = text
        text.withUTF8 { model.featurizeReference(UnsafeRawBufferPointer($0), row: 0, workspace: workspace) }
        return workspace.dense[feature.rawValue]
    }

    /// The sparse row and raw dense values of `text` as training builds them
    /// (`FeatureExtractor.extract(text:…)`: a long text as its segments' mean).
    static func features(of text: String, model: SentimentModel) -> (row: SparseRow, dense: [Float]) {
        var row = SparseRow()
        var dense = [Float](repeating: 0, count: DenseFeature.count)
        model.extractor.extract(text: text, buffer: TokenBuffer(), into: &row, dense: &dense)
        return (row, dense)
    }

    /// Saves `manifest` with `weights` to a temporary directory and loads it
    /// back: the reason of the `ModelError.malformedManifest` that loading
    /// fails with, or nil when it loads or fails otherwise.
    static func malformedReason(loading manifest: ModelManifest, weights: ModelWeights) throws -> String? {
        let directory = try temporaryDirectory()
        defer { remove(directory) }
        _ = try ModelDirectory.save(manifest: manifest, weights: weights, to: directory)
        do {
            _ = try SentimentModel.load(from: directory)
            return nil
        } catch ModelError.malformedManifest(_, let reason) {
            return reason
        } catch {
            return nil
        }
    }

    /// A fresh temporary directory; the test removes it (`remove`) when done.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sentiment-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes a folder made by `temporaryDirectory` and everything in it.
    static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }
}
