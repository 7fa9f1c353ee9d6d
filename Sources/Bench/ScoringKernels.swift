#if canImport(Glibc)
import Glibc
#endif
import Sentiment

/// The scoring kernels, replicated with the library's exact shapes, because
/// `BLASScorer` and `ReferenceScorer` are internal to `Sentiment`:
///
/// - dense block `Z (B×3) += X (B×d) · W (d×3)`: `cblas_sgemm` (the same symbol
///   the library calls, looked up at run time) against a direct Float loop, and
///   against a loop of fused multiply-adds summed from 0 in k order and then
///   added to Z, the order of OpenBLAS's Haswell kernel and so the only loop
///   whose sums are sgemm's bit for bit there (Swift's `addingProduct` is a
///   call of `fmaf` in a build for any x86-64, which is why it is the slowest), for
///   batch sizes 1 to 4096;
/// - the sparse gather (`BLASScorer.gather`): a few hundred random rows of three
///   16-bit weights out of the 2^bucketBits × 3 table, Float accumulators, the
///   scale applied once per tweet;
/// - the plain-Swift reference (`ReferenceScorer.logits`): Double, arrays,
///   standardization per tweet.
///
/// Inputs are random; the table has the model's size; the feature counts per
/// tweet are the dump's own.
struct ScoringKernels {
    let bucketBits: Int
    let featureCounts: [Int]
    let plan: TimingPlan
    let recorder: Recorder

    static let d = DenseFeature.allCases.count

    typealias SGEMM = @convention(c) (Int32, Int32, Int32, Int32, Int32, Int32, Float, UnsafePointer<Float>?, Int32,
                                      UnsafePointer<Float>?, Int32, Float, UnsafeMutablePointer<Float>?, Int32) -> Void

    /// The process's `cblas_sgemm` (linked through the Sentiment library).
    static let sgemm: SGEMM? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "cblas_sgemm").map { unsafeBitCast($0, to: SGEMM.self) }

    /// "OpenBLAS <config>" or "reference BLAS (libblas)".
    static var blasName: String {
        typealias Config = @convention(c) () -> UnsafePointer<CChar>?
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "openblas_get_config"),
           let config = unsafeBitCast(symbol, to: Config.self)() {
            return "OpenBLAS (\(String(cString: config)))"
        }
        return "reference BLAS (netlib libblas)"
    }

    func run() {
        dense()
        sparse()
        reference()
    }

    // MARK: Dense block

    private func dense() {
        let d = Self.d
        let capacity = 4096
        var random = SplitMix64(state: 42)
        func value() -> Float { Float(random.next() % 1000) / 1000 }
        let x = (0..<(capacity * d)).map { _ in value() }
        let w = (0..<(d * 3)).map { _ in value() - 0.5 }
        var z = [Float](repeating: 0, count: capacity * 3)
        let rows = 1 << 19
        for batch in [1, 4, 16, 64, 256, 1024, 4096] {
            let calls = rows / batch
            if let sgemm = Self.sgemm, recorder.wants("scoring/dense-sgemm-\(batch)") {
                let timings = plan.measure {
                    x.withUnsafeBufferPointer { x in
                        w.withUnsafeBufferPointer { w in
                            z.withUnsafeMutableBufferPointer { z in
                                for call in 0..<calls {
                                    let offset = (call * batch) % capacity
                                    sgemm(101, 111, 111, Int32(batch), 3, Int32(d), 1, x.baseAddress! + offset * d, Int32(d),
                                          w.baseAddress, 3, 1, z.baseAddress! + offset * 3, 3)
                                }
                            }
                        }
                    }
                }
                recorder.record("scoring/dense-sgemm-\(batch)", group: "scoring", items: rows, unit: "rows", timings: timings,
                                note: "cblas_sgemm \(batch)×\(d) · \(d)×3 (\(Self.blasName))")
            }
            if recorder.wants("scoring/dense-loop-\(batch)") {
                let timings = plan.measure {
                    x.withUnsafeBufferPointer { x in
                        w.withUnsafeBufferPointer { w in
                            z.withUnsafeMutableBufferPointer { z in
                                for call in 0..<calls {
                                    let offset = (call * batch) % capacity
                                    Self.denseLoop(rows: batch, x: x.baseAddress! + offset * d, w: w.baseAddress!, z: z.baseAddress! + offset * 3)
                                }
                            }
                        }
                    }
                }
                recorder.record("scoring/dense-loop-\(batch)", group: "scoring", items: rows, unit: "rows", timings: timings,
                                note: "direct Float loop, same shape")
            }
            if recorder.wants("scoring/dense-fma-loop-\(batch)") {
                let timings = plan.measure {
                    x.withUnsafeBufferPointer { x in
                        w.withUnsafeBufferPointer { w in
                            z.withUnsafeMutableBufferPointer { z in
                                for call in 0..<calls {
                                    let offset = (call * batch) % capacity
                                    Self.denseFMALoop(rows: batch, x: x.baseAddress! + offset * d, w: w.baseAddress!, z: z.baseAddress! + offset * 3)
                                }
                            }
                        }
                    }
                }
                recorder.record("scoring/dense-fma-loop-\(batch)", group: "scoring", items: rows, unit: "rows", timings: timings,
                                note: "fused multiply-adds from 0 in k order, then onto z (OpenBLAS Haswell's order)")
            }
        }
        blackHole(z)
    }

    @inline(__always)
    static func denseLoop(rows: Int, x: UnsafePointer<Float>, w: UnsafePointer<Float>, z: UnsafeMutablePointer<Float>) {
        for r in 0..<rows {
            var z0 = z[3 * r], z1 = z[3 * r + 1], z2 = z[3 * r + 2]
            let row = x + r * d
            for j in 0..<d {
                let v = row[j]
                z0 += v * w[3 * j]
                z1 += v * w[3 * j + 1]
                z2 += v * w[3 * j + 2]
            }
            z[3 * r] = z0
            z[3 * r + 1] = z1
            z[3 * r + 2] = z2
        }
    }

    @inline(__always)
    static func denseFMALoop(rows: Int, x: UnsafePointer<Float>, w: UnsafePointer<Float>, z: UnsafeMutablePointer<Float>) {
        for r in 0..<rows {
            var a0: Float = 0, a1: Float = 0, a2: Float = 0
            let row = x + r * d
            for j in 0..<d {
                let v = row[j]
                a0 = a0.addingProduct(v, w[3 * j])
                a1 = a1.addingProduct(v, w[3 * j + 1])
                a2 = a2.addingProduct(v, w[3 * j + 2])
            }
            z[3 * r] += a0
            z[3 * r + 1] += a1
            z[3 * r + 2] += a2
        }
    }

    // MARK: Sparse gather

    private func sparse() {
        guard recorder.wants("scoring/sparse-gather"), !featureCounts.isEmpty else { return }
        let buckets = 1 << bucketBits
        var random = SplitMix64(state: 7)
        let table = (0..<(3 * buckets)).map { _ in Int16(truncatingIfNeeded: Int(random.next() % 65_535) - 32_767) }
        let scale: Float = 6.5 / 32_767
        let poolSize = 1 << 22
        let indices = (0..<poolSize).map { _ in Int32(truncatingIfNeeded: random.next() & UInt64(buckets - 1)) }
        let values = (0..<poolSize).map { _ in Float(random.next() % 100) / 100 }
        let tweets = 200_000
        var checksum: Float = 0
        let timings = plan.measure {
            table.withUnsafeBufferPointer { w in
                indices.withUnsafeBufferPointer { indices in
                    values.withUnsafeBufferPointer { values in
                        var cursor = 0
                        for t in 0..<tweets {
                            let k = featureCounts[t % featureCounts.count]
                            if cursor + k > poolSize { cursor = 0 }
                            var z0: Float = 0, z1: Float = 0, z2: Float = 0
                            for i in cursor..<(cursor + k) {
                                let base = 3 * Int(indices[i])
                                let v = values[i]
                                z0 += v * Float(w[base])
                                z1 += v * Float(w[base + 1])
                                z2 += v * Float(w[base + 2])
                            }
                            cursor += k
                            checksum += scale * (z0 - z1 + z2)
                        }
                    }
                }
            }
        }
        blackHole(checksum)
        let mean = Double(featureCounts.reduce(0, +)) / Double(featureCounts.count)
        recorder.record("scoring/sparse-gather", group: "scoring", items: tweets, timings: timings,
                        note: "BLASScorer.gather replica: \(String(format: "%.0f", mean)) random rows/tweet of a \((3 * buckets * 2) >> 20) MiB table of Int16")
    }

    // MARK: Reference

    private func reference() {
        guard recorder.wants("scoring/reference"), !featureCounts.isEmpty else { return }
        let buckets = 1 << bucketBits, d = Self.d
        var random = SplitMix64(state: 9)
        let sparse = (0..<(3 * buckets)).map { _ in Int16(truncatingIfNeeded: Int(random.next() % 2001) - 1000) }
        let scale: Float = 1e-3
        let weights = (dense: (0..<(3 * d)).map { _ in Float(random.next() % 100) / 100 },
                       mean: [Float](repeating: 0.5, count: d), scale: [Float](repeating: 2, count: d), bias: [Float](repeating: 0.1, count: 3))
        let rows: [(indices: [Int32], values: [Float], dense: [Float])] = featureCounts.prefix(5000).map { k in
            ((0..<k).map { _ in Int32(truncatingIfNeeded: random.next() & UInt64(buckets - 1)) },
             [Float](repeating: 1 / Float(k).squareRoot(), count: k),
             (0..<d).map { _ in Float(random.next() % 100) / 100 })
        }
        let tweets = 100_000
        var checksum = 0.0
        let timings = plan.measure {
            for t in 0..<tweets {
                let row = rows[t % rows.count]
                // ReferenceScorer.logits, verbatim in shape: Double, arrays, standardization per tweet.
                var z = weights.bias.map(Double.init)
                for (index, value) in zip(row.indices, row.values) {
                    for c in 0..<3 { z[c] += Double(value) * Double(Float(sparse[3 * Int(index) + c]) * scale) }
                }
                for j in 0..<d {
                    let standardized = (Double(row.dense[j]) - Double(weights.mean[j])) * Double(weights.scale[j])
                    for c in 0..<3 { z[c] += standardized * Double(weights.dense[3 * j + c]) }
                }
                checksum += z[0] - z[2]
            }
        }
        blackHole(checksum)
        recorder.record("scoring/reference", group: "scoring", items: tweets, timings: timings,
                        note: "ReferenceScorer.logits replica (Double, per tweet, sparse + dense)")
    }
}
