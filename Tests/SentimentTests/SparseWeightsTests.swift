import Foundation
import Testing
@testable import Sentiment

@Suite("16-bit sparse weights and model format 2")
struct SparseWeightsTests {
    /// Random weights of the spread a trained model has: most small, a few large.
    static func randomWeights(count: Int, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let u = Float(random.next() % 2_000_001) / 1_000_000 - 1
            return random.next() % 50 == 0 ? 6 * u : u * u * u / 4
        }
    }

    @Test("Quantizing maps the largest weight to ±32,767 and keeps every weight within half a step")
    func quantizingIsWithinHalfAStep() {
        let floats = Self.randomWeights(count: 30_000, seed: 1) + [-6.5]
        let sparse = SparseWeights(quantizing: floats)
        #expect(sparse.scale == 6.5 / 32_767)
        #expect(sparse.values.last == -32_767)
        #expect(abs(sparse[floats.count - 1] + 6.5) <= 6.5 * Float.ulpOfOne)
        var worst: Float = 0
        for (i, weight) in floats.enumerated() { worst = max(worst, abs(sparse[i] - weight)) }
        // Half a step, and the rounding of one Float product beside it.
        #expect(worst <= sparse.scale / 2 * 1.001)
        #expect(worst > sparse.scale / 4, "random weights fall between steps")
    }

    @Test("All-zero weights quantize to zeros with a zero scale, not NaN")
    func zeroWeightsQuantizeToZero() {
        let sparse = SparseWeights(quantizing: [Float](repeating: 0, count: 12))
        #expect(sparse == .zeros(count: 12))
        #expect(sparse[3] == 0)
    }

    @Test("A trained model's sparse weights are 16-bit, written as format 2, half the bytes of format 1")
    func trainedModelIsFormatTwo() throws {
        let model = try Fixtures.smallModel()
        #expect(model.manifest.formatVersion == 2)
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let saved = try model.save(to: directory)
        let bytes = try Data(contentsOf: directory.appendingPathComponent("weights.bin"))
        #expect(bytes.count == WeightsFile.expectedLength(bucketBits: 14, dense: DenseFeature.count, lexiconBits: 10))
        #expect(bytes.count - WeightsFile.expectedLength(bucketBits: 14, dense: DenseFeature.count, lexiconBits: 10, version: 1)
                    == -2 * 3 << 14)
        #expect(bytes[4] == 2)
        #expect(saved.weights.sparse == model.weights.sparse)
        #expect(saved.manifest.formatVersion == 2)
    }

    @Test("A format 1 model loads with its Float weights quantized as training quantizes them, under an id of its own, and saves as format 2")
    func formatOneLoads() throws {
        let model = try Fixtures.smallModel()
        // Float weights between the steps, as a format 1 model's were.
        let floats = zip(model.weights.sparse.values, Self.randomWeights(count: model.weights.sparse.count, seed: 2))
            .map { Float($0) * model.weights.sparse.scale + $1 / 1000 }
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let bytes = Data(Self.formatOne(model.weights, sparse: floats))
        try bytes.write(to: directory.appendingPathComponent("weights.bin"))
        var manifest = model.manifest
        manifest.formatVersion = 1
        manifest.weights = .init(file: "weights.bin", bytes: bytes.count, sha256: ModelDirectory.sha256(bytes))
        let encoder = JSONEncoder()
        try encoder.encode(manifest).write(to: directory.appendingPathComponent("manifest.json"))

        let loaded = try SentimentModel.load(from: directory)
        #expect(loaded.weights.sparse == SparseWeights(quantizing: floats))
        #expect(loaded.weights.sparse != model.weights.sparse, "the weights moved off the steps")
        var asFormatTwo = manifest
        asFormatTwo.formatVersion = 2
        let quantized = SentimentModel(manifest: asFormatTwo, weights: loaded.weights, directory: nil)
        let texts = Fixtures.sample.map(\.text)
        #expect(loaded.classify(texts) == quantized.classify(texts))
        #expect(loaded.id != quantized.id, "the builds that wrote format 1 scored the Float weights")

        let resaved = try loaded.save(to: directory.appendingPathComponent("again"))
        #expect(resaved.manifest.formatVersion == 2)
        #expect(resaved.weights.sparse == loaded.weights.sparse)
        #expect(resaved.classify(texts) == loaded.classify(texts))
    }

    @Test("A NaN among a format 1 file's Float sparse weights is refused, by its index")
    func formatOneNaNIsRefused() throws {
        let weights = ModelWeights.zeros(bucketBits: 8, lexicon: .empty(bits: 8))
        var floats = [Float](repeating: 0.5, count: weights.sparse.count)
        floats[5] = .nan
        #expect(throws: ModelError.nonFiniteWeight(path: "w.bin", index: 5)) {
            try WeightsFile.decode(Data(Self.formatOne(weights, sparse: floats)), path: "w.bin", expectedBucketBits: 8, expectedLexiconBits: 8)
        }
        floats[5] = 0.25
        let decoded = try WeightsFile.decode(Data(Self.formatOne(weights, sparse: floats)), path: "w.bin",
                                             expectedBucketBits: 8, expectedLexiconBits: 8)
        #expect(decoded.sparse == SparseWeights(quantizing: floats))
        #expect(abs(decoded.sparse[5] - 0.25) <= decoded.sparse.scale / 2)
    }

    @Test("A weights file of another version than its manifest's is refused")
    func versionMustMatchTheManifest() throws {
        let model = try Fixtures.smallModel()
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try model.save(to: directory)
        let url = directory.appendingPathComponent("manifest.json")
        var manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: url))
        manifest.formatVersion = 1
        try JSONEncoder().encode(manifest).write(to: url)
        #expect(throws: ModelError.sizeMismatch(path: directory.appendingPathComponent("weights.bin").path,
                                                what: "format version", expected: 1, found: 2)) {
            try SentimentModel.load(from: directory)
        }
    }

    @Test("A scale that is not a finite number (NaN, infinite, or 32,767 steps of it beyond 10⁶) is refused as the scale, not as weight 0",
          arguments: [Float.infinity, -.infinity, .nan, 31])
    func nonFiniteScaleIsRefused(scale: Float) throws {
        var weights = ModelWeights.zeros(bucketBits: 8, lexicon: .empty(bits: 8))
        weights.sparse = SparseWeights(values: weights.sparse.values, scale: scale)
        #expect(!SparseWeights.isUsable(scale: scale))
        #expect(weights.firstNonFiniteIndex == nil, "the weights after the sparse ones are all usable")
        do {
            _ = try WeightsFile.decode(Data(WeightsFile.encode(weights)), path: "w.bin", expectedBucketBits: 8, expectedLexiconBits: 8)
            Issue.record("a scale of \(scale) was read")
        } catch {
            #expect(error == .nonFiniteScale(path: "w.bin"))
            #expect(error.description == "w.bin: the sparse weights' scale (the header field at byte 24) is not a finite number small enough that 32767 steps of it stay within ±1000000")
        }
        weights.sparse = SparseWeights(values: weights.sparse.values, scale: 30)
        #expect(try WeightsFile.decode(Data(WeightsFile.encode(weights)), path: "w.bin", expectedBucketBits: 8, expectedLexiconBits: 8).sparse.scale == 30)
    }

    /// `weights` in format 1, written here from its published layout (not by
    /// the library, which writes format 2 only), with `sparse` as the Float
    /// sparse weights.
    static func formatOne(_ weights: ModelWeights, sparse: [Float]) -> [UInt8] {
        var bytes: [UInt8] = [0x53, 0x53, 0x4C, 0x52]
        for field in [1, 3, weights.bucketBits, DenseFeature.count, weights.lexicon.bits, 0, 0] {
            withUnsafeBytes(of: UInt32(field).littleEndian) { bytes += $0 }
        }
        for section in [sparse, weights.dense, weights.denseMean, weights.denseScale, weights.bias, weights.lexicon.scores] {
            for value in section { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
        }
        return bytes
    }
}
