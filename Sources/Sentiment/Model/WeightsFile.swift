import Foundation

/// The binary weights file (`weights.bin`), little-endian throughout:
///
/// | offset | size | content |
/// | --- | --- | --- |
/// | 0 | 4 | magic `SSLR` (0x53 0x53 0x4C 0x52) |
/// | 4 | 4 | UInt32 format version (1) |
/// | 8 | 4 | UInt32 classes (3) |
/// | 12 | 4 | UInt32 bucketBits *b* |
/// | 16 | 4 | UInt32 dense features *d* |
/// | 20 | 4 | UInt32 lexicon bits *l* |
/// | 24 | 8 | reserved, zero |
/// | 32 | 4·3·2^b | Float32 sparse weights, bucket-major |
/// | … | 4·3·d | Float32 dense weights, feature-major |
/// | … | 4·d | Float32 dense means |
/// | … | 4·d | Float32 dense scales (1/σ) |
/// | … | 4·3 | Float32 biases |
/// | … | 4·2·2^l | Float32 lexicon (positive, negative) pairs |
enum WeightsFile {
    static let magic: [UInt8] = [0x53, 0x53, 0x4C, 0x52]
    static let version: UInt32 = 1
    static let headerSize = 32

    /// The file's exact length for a shape.
    static func expectedLength(bucketBits: Int, dense: Int, lexiconBits: Int) -> Int {
        headerSize + 4 * (3 * (1 << bucketBits) + 3 * dense + 2 * dense + 3 + 2 * (1 << lexiconBits))
    }

    /// Serializes weights.
    static func encode(_ weights: ModelWeights) -> [UInt8] {
        let d = DenseFeature.count
        var bytes = [UInt8]()
        bytes.reserveCapacity(expectedLength(bucketBits: weights.bucketBits, dense: d, lexiconBits: weights.lexicon.bits))
        bytes += magic
        for value in [version, 3, UInt32(weights.bucketBits), UInt32(d), UInt32(weights.lexicon.bits), 0, 0] {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        for array in [weights.sparse, weights.dense, weights.denseMean, weights.denseScale, weights.bias, weights.lexicon.scores] {
            for value in array { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
        }
        return bytes
    }

    /// Reads and checks weights; `path` names the file in errors.
    static func decode(_ data: Data, path: String, expectedBucketBits: Int, expectedLexiconBits: Int) throws(ModelError) -> ModelWeights {
        guard data.count >= headerSize else {
            throw .sizeMismatch(path: path, what: "file length", expected: headerSize, found: data.count)
        }
        guard Array(data.prefix(4)) == magic else { throw .badMagic(path: path) }
        func header(_ index: Int) -> Int {
            Int(data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 + 4 * index, as: UInt32.self) }.littleEndian)
        }
        guard header(0) == Int(version) else {
            throw .unsupportedVersion(path: path, found: header(0), supported: Int(version))
        }
        guard header(1) == 3 else { throw .sizeMismatch(path: path, what: "class count", expected: 3, found: header(1)) }
        guard header(2) == expectedBucketBits else {
            throw .sizeMismatch(path: path, what: "bucketBits", expected: expectedBucketBits, found: header(2))
        }
        guard header(3) == DenseFeature.count else {
            throw .sizeMismatch(path: path, what: "dense feature count", expected: DenseFeature.count, found: header(3))
        }
        guard header(4) == expectedLexiconBits else {
            throw .sizeMismatch(path: path, what: "lexiconBits", expected: expectedLexiconBits, found: header(4))
        }
        let d = DenseFeature.count
        let length = expectedLength(bucketBits: header(2), dense: d, lexiconBits: header(4))
        guard data.count == length else {
            throw .sizeMismatch(path: path, what: "file length", expected: length, found: data.count)
        }
        // Each section is decoded straight from the file's bytes into its own
        // array: no intermediate copy of the whole file, so loading holds the
        // weights twice at most (the file and the arrays), not three times.
        var cursor = headerSize
        func take(_ n: Int) throws(ModelError) -> [Float] {
            let start = cursor
            cursor += 4 * n
            var bad: Int?
            let values = data.withUnsafeBytes { raw in
                [Float](unsafeUninitializedCapacity: n) { buffer, initialized in
                    for i in 0..<n {
                        let bits = raw.loadUnaligned(fromByteOffset: start + 4 * i, as: UInt32.self)
                        let value = Float(bitPattern: UInt32(littleEndian: bits))
                        if !value.isFinite, bad == nil { bad = i }
                        buffer[i] = value
                    }
                    initialized = n
                }
            }
            if let bad { throw .nonFiniteWeight(path: path, index: (start - headerSize) / 4 + bad) }
            return values
        }
        let bucketBits = header(2), lexiconBits = header(4)
        let sparse = try take(3 << bucketBits)
        let dense = try take(3 * d)
        let denseMean = try take(d)
        let denseScale = try take(d)
        let bias = try take(3)
        let lexicon = try take(2 << lexiconBits)
        return ModelWeights(
            bucketBits: bucketBits, sparse: sparse, dense: dense, denseMean: denseMean, denseScale: denseScale,
            bias: bias, lexicon: Lexicon(bits: lexiconBits, scores: lexicon))
    }
}
