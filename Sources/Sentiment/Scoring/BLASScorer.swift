import CBLAS
#if canImport(Glibc)
import Glibc
#endif

/// The batch scorer of the hot path.
///
/// Where BLAS sits, and why: a tweet's scores are `z = W_sᵀ·x_s + W_dᵀ·x_d + b`.
/// The sparse part `W_sᵀ·x_s` is a gather of a few hundred rows of three weights
/// out of a table of millions; no BLAS routine fits a gather, so a direct loop
/// adds them while the tweet's features are hot in cache. The dense part is a
/// real matrix product for a whole batch: `Z (B×3) += X_d (B×d) · W_d (d×3)`,
/// one `cblas_sgemm` call per batch with `beta = 1` so it accumulates onto the
/// gathered sparse scores. Bench measures the split.
enum BLASScorer {
    /// Adds the sparse part of one tweet's scores onto `logits` (3 floats), which
    /// hold the biases.
    @inline(__always)
    static func gather(_ row: SparseRow, weights: ScoringWeights, into logits: UnsafeMutablePointer<Float>) {
        // In steps of the weights' scale, which multiplies the sums once.
        var z0: Float = 0, z1: Float = 0, z2: Float = 0
        weights.sparse.values.withUnsafeBufferPointer { w in
            row.indices.withUnsafeBufferPointer { indices in
                row.values.withUnsafeBufferPointer { values in
                    for k in 0..<indices.count {
                        let base = 3 * Int(indices[k])
                        let v = values[k]
                        z0 += v * Float(w[base])
                        z1 += v * Float(w[base + 1])
                        z2 += v * Float(w[base + 2])
                    }
                }
            }
        }
        let scale = weights.sparse.scale
        logits[0] += scale * z0
        logits[1] += scale * z1
        logits[2] += scale * z2
    }

    /// `logits (rows×3) += dense (rows×d) · W_d (d×3)` through `cblas_sgemm`.
    static func addDense(rows: Int, dense: UnsafePointer<Float>, weights: ScoringWeights, logits: UnsafeMutablePointer<Float>) {
        guard rows > 0 else { return }
        let d = Int32(DenseFeature.count)
        weights.dense.withUnsafeBufferPointer { w in
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
                        Int32(rows), 3, d,
                        1, dense, d,
                        w.baseAddress, 3,
                        1, logits, 3)
        }
    }

    /// One BLAS thread per worker: the callers parallelize across batches, and
    /// OpenBLAS's own threads would fight them for the cores. Reference BLAS has
    /// no threads and no such symbols; this is then a no-op.
    ///
    /// Setting one thread is not enough: the server threads OpenBLAS started
    /// as it loaded (one per other core) wait for work by calling
    /// `sched_yield` in a loop for 2^28 cycles (about 0.1 s) before they
    /// sleep, and in a two-core `sentiment classify` of the 1M dump that loop
    /// held a tenth of the samples. With one thread they never get work, so
    /// they are stopped (`blas_thread_shutdown_`, which OpenBLAS itself calls
    /// before a fork; a later multi-threaded call would start them again).
    static let singleThreaded: Void = {
        typealias SetThreads = @convention(c) (Int32) -> Void
        typealias Shutdown = @convention(c) () -> Int32
        let process = UnsafeMutableRawPointer(bitPattern: 0)
        if let symbol = dlsym(process, "openblas_set_num_threads") {
            unsafeBitCast(symbol, to: SetThreads.self)(1)
            if let shutdown = dlsym(process, "blas_thread_shutdown_") {
                _ = unsafeBitCast(shutdown, to: Shutdown.self)()
            }
        }
    }()
}
