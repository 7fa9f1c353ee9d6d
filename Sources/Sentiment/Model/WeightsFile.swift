import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The binary weights file (`weights.bin`), little-endian throughout.
/// Format 2, which this build writes:
///
/// | offset | size | content |
/// | --- | --- | --- |
/// | 0 | 4 | magic `SSLR` (0x53 0x53 0x4C 0x52) |
/// | 4 | 4 | UInt32 format version (2) |
/// | 8 | 4 | UInt32 classes (3) |
/// | 12 | 4 | UInt32 bucketBits *b* |
/// | 16 | 4 | UInt32 dense features *d* |
/// | 20 | 4 | UInt32 lexicon bits *l* |
/// | 24 | 4 | Float32 sparse scale *s* |
/// | 28 | 4 | reserved, zero |
/// | 32 | 2·3·2^b | Int16 sparse weights, bucket-major (weight = value·*s*) |
/// | … | 4·3·d | Float32 dense weights, feature-major |
/// | … | 4·d | Float32 dense means |
/// | … | 4·d | Float32 dense scales (1/σ) |
/// | … | 4·3 | Float32 biases |
/// | … | 4·2·2^l | Float32 lexicon (positive, negative) pairs |
///
/// Format 1 is read too: bytes 24–31 reserved and zero, and the sparse
/// weights as Float32 (4·3·2^b bytes), which loading quantizes as training
/// does (`SparseWeights.init(quantizing:)`).
enum WeightsFile {
    static let magic: [UInt8] = [0x53, 0x53, 0x4C, 0x52]
    /// The version this build writes: the manifest's (a model's two files share one).
    static let version = UInt32(ModelManifest.currentFormatVersion)
    /// The versions this build reads: the manifest's.
    static let readableVersions = ModelManifest.readableFormatVersions
    static let headerSize = 32

    /// The file's exact length for a shape, in format `version`.
    static func expectedLength(bucketBits: Int, dense: Int, lexiconBits: Int, version: Int = Int(version)) -> Int {
        let sparseBytes = (version == 1 ? 4 : 2) * 3 * (1 << bucketBits)
        return headerSize + sparseBytes + 4 * (3 * dense + 2 * dense + 3 + 2 * (1 << lexiconBits))
    }

    /// Serializes weights.
    static func encode(_ weights: ModelWeights) -> [UInt8] {
        let d = DenseFeature.count
        var bytes = [UInt8]()
        bytes.reserveCapacity(expectedLength(bucketBits: weights.bucketBits, dense: d, lexiconBits: weights.lexicon.bits))
        bytes += magic
        let header = [version, 3, UInt32(weights.bucketBits), UInt32(d), UInt32(weights.lexicon.bits), weights.sparse.scale.bitPattern, 0]
        for value in header {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        for value in weights.sparse.values { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        for array in weights.floatSections {
            for value in array { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
        }
        return bytes
    }

    /// Reads and checks weights held in memory, of any version this build
    /// reads; `path` names them in errors.
    static func decode(_ data: Data, path: String, expectedBucketBits: Int, expectedLexiconBits: Int) throws(ModelError) -> ModelWeights {
        var cursor = 0
        var reading = Reading(length: data.count) { destination in
            let n = min(destination.count, data.count - cursor)
            data.copyBytes(to: destination.bindMemory(to: UInt8.self), from: cursor..<(cursor + n))
            cursor += n
            return n
        }
        return try reading.weights(path: path, expectedVersion: nil, expectedBucketBits: expectedBucketBits,
                                   expectedLexiconBits: expectedLexiconBits).get()
    }

    /// Reads and checks the weights file at `url`, straight from the file into
    /// the weights' own arrays: the file is never held in memory beside them,
    /// so loading peaks at the size of the weights, not twice that.
    ///
    /// Returns the weights (or why they are not valid) and the SHA-256 of every
    /// byte of the file: callers check the checksum first, so a damaged file
    /// reads as damaged rather than as whatever its damage looks like.
    static func read(_ url: URL, expectedVersion: Int, expectedBucketBits: Int, expectedLexiconBits: Int)
        throws(ModelError) -> (weights: Result<ModelWeights, ModelError>, length: Int, sha256: String) {
        let path = url.path
        // Non-blocking so that opening a FIFO returns at once (it is refused below).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        // A FIFO or a device (`/dev/zero`) has no length to check and may never end.
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
        var failure: Int32 = 0
        var reading = Reading(length: Int(info.st_size)) { destination in
            var done = 0
            while done < destination.count {
                let n = Glibc.read(fd, destination.baseAddress! + done, destination.count - done)
                if n > 0 { done += n; continue }
                if n < 0, errno == EINTR { continue }
                if n < 0 { failure = errno }
                break
            }
            return done
        }
        let weights = reading.weights(path: path, expectedVersion: expectedVersion, expectedBucketBits: expectedBucketBits,
                                      expectedLexiconBits: expectedLexiconBits)
        reading.drain()
        if failure != 0 { throw .unreadable(path: path, reason: String(cString: strerror(failure))) }
        return (weights, reading.length, reading.digest())
    }

    /// One pass over a weights file's bytes, in order, hashing each byte once.
    struct Reading {
        let length: Int
        /// Fills as much of the buffer as it can; returns the count (short only at the end).
        let source: (UnsafeMutableRawBufferPointer) -> Int
        private var hasher = SHA256()
        private(set) var consumed = 0

        init(length: Int, source: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
            self.length = length
            self.source = source
        }

        /// Reads exactly `destination.count` bytes; false when the file ends first.
        private mutating func fill(_ destination: UnsafeMutableRawBufferPointer) -> Bool {
            let n = source(destination)
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: destination[0..<n]))
            consumed += n
            return n == destination.count
        }

        /// Hashes whatever is left of the file.
        mutating func drain() {
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
            defer { chunk.deallocate() }
            while fill(chunk) {}
        }

        /// The SHA-256 of the bytes read so far, in lowercase hex.
        func digest() -> String {
            hasher.finalize().map { String(format: "%02x", $0) }.joined()
        }

        /// Reads the header and every section, checking each.
        mutating func weights(path: String, expectedVersion: Int?, expectedBucketBits: Int,
                              expectedLexiconBits: Int) -> Result<ModelWeights, ModelError> {
            do throws(ModelError) {
                return .success(try decode(path: path, expectedVersion: expectedVersion, expectedBucketBits: expectedBucketBits,
                                           expectedLexiconBits: expectedLexiconBits))
            } catch {
                return .failure(error)
            }
        }

        private mutating func decode(path: String, expectedVersion: Int?, expectedBucketBits: Int,
                                      expectedLexiconBits: Int) throws(ModelError) -> ModelWeights {
            var header = [UInt8](repeating: 0, count: headerSize)
            guard length >= headerSize, header.withUnsafeMutableBytes({ fill($0) }) else {
                throw .sizeMismatch(path: path, what: "file length", expected: headerSize, found: length)
            }
            guard Array(header.prefix(4)) == magic else { throw .badMagic(path: path) }
            func field(_ index: Int) -> Int {
                Int(header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 + 4 * index, as: UInt32.self) }.littleEndian)
            }
            let fileVersion = field(0)
            guard readableVersions.contains(fileVersion) else {
                throw .unsupportedVersion(path: path, found: fileVersion, supported: Int(version))
            }
            if let expectedVersion, fileVersion != expectedVersion {
                throw .sizeMismatch(path: path, what: "format version", expected: expectedVersion, found: fileVersion)
            }
            guard field(1) == 3 else { throw .sizeMismatch(path: path, what: "class count", expected: 3, found: field(1)) }
            guard field(2) == expectedBucketBits else {
                throw .sizeMismatch(path: path, what: "bucketBits", expected: expectedBucketBits, found: field(2))
            }
            guard field(3) == DenseFeature.count else {
                throw .sizeMismatch(path: path, what: "dense feature count", expected: DenseFeature.count, found: field(3))
            }
            guard field(4) == expectedLexiconBits else {
                throw .sizeMismatch(path: path, what: "lexiconBits", expected: expectedLexiconBits, found: field(4))
            }
            let d = DenseFeature.count
            let bucketBits = field(2), lexiconBits = field(4)
            let expected = expectedLength(bucketBits: bucketBits, dense: d, lexiconBits: lexiconBits, version: fileVersion)
            guard length == expected else {
                throw .sizeMismatch(path: path, what: "file length", expected: expected, found: length)
            }
            // Each section is read straight into its own array.
            var bad: Int?
            var offset = 0
            /// `n` values read straight into their array, each converted from
            /// the file's little-endian bits by `convert` (given its index).
            func section<T>(_ n: Int, _ convert: (T, Int) -> T) throws(ModelError) -> [T] {
                var complete = false
                let values = [T](unsafeUninitializedCapacity: n) { buffer, initialized in
                    HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
                    complete = fill(UnsafeMutableRawBufferPointer(buffer))
                    for i in 0..<n { buffer[i] = convert(buffer[i], i) }
                    initialized = n
                }
                guard complete else { throw .sizeMismatch(path: path, what: "file length", expected: expected, found: consumed) }
                offset += n
                return values
            }
            func take(_ n: Int) throws(ModelError) -> [Float] {
                try section(n) { (raw: Float, i: Int) in
                    let value = Float(bitPattern: UInt32(littleEndian: raw.bitPattern))
                    if !ModelWeights.isUsable(value), bad == nil { bad = offset + i }
                    return value
                }
            }
            func takeInt16(_ n: Int) throws(ModelError) -> [Int16] {
                try section(n) { (raw: Int16, _: Int) in Int16(littleEndian: raw) }
            }
            let sparse: SparseWeights
            if fileVersion == 1 {
                let floats = try take(3 << bucketBits)
                // Quantized only when every weight is finite (the error below says which is not).
                sparse = bad == nil ? SparseWeights(quantizing: floats) : .zeros(count: floats.count)
            } else {
                let scale = Float(bitPattern: UInt32(field(5)))
                guard SparseWeights.isUsable(scale: scale) else { throw .nonFiniteScale(path: path) }
                sparse = SparseWeights(values: try takeInt16(3 << bucketBits), scale: scale)
            }
            let dense = try take(3 * d)
            let denseMean = try take(d)
            let denseScale = try take(d)
            let bias = try take(3)
            let lexicon = try take(2 << lexiconBits)
            if let bad { throw .nonFiniteWeight(path: path, index: bad) }
            return ModelWeights(
                bucketBits: bucketBits, sparse: sparse, dense: dense, denseMean: denseMean, denseScale: denseScale,
                bias: bias, lexicon: Lexicon(bits: lexiconBits, scores: lexicon))
        }
    }
}
