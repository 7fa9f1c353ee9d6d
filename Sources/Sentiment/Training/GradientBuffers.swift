/// What `LogisticObjective.evaluate` reads and sums into, kept by a fit from
/// one evaluation to the next (a fresh buffer of megabytes costs its pages'
/// clearing every time).
///
/// Each block of rows sums its gradient apart, and a sparse bucket's three
/// weights and its three sums lie side by side in one 32-byte piece of a
/// cache line: weights at 8b…8b+2, sums at 8b+4…8b+6, the rest padding. A row
/// reads each of its features' weights and then adds to the same features'
/// sums; with the weights and the sums in arrays of their own, a bucket that
/// was not in the cache cost two misses: in a profile of one fit, the passes
/// over the rows took three quarters of the time, and four fifths of theirs
/// went to those two loads. Side by side, the sums' line is the one the
/// weights brought in (one fit on the training file: 71–74 s before, 53 s
/// after, in runs taken in turn). The arithmetic is unchanged: the
/// same Float weights are read, and the same products added in the same order.
final class GradientBuffers: @unchecked Sendable {
    /// Floats a bucket's piece spans.
    static let stride = 8
    /// Where a piece's sums start.
    static let sumsOffset = 4

    let buckets: Int
    /// The parameters in Float, as the passes over the rows read them.
    var weights: [Float]
    /// Each block of rows' bucket pieces (`buckets · stride` floats, aligned to cache lines).
    let blocks: [UnsafeMutablePointer<Float>]

    /// Buffers for `parameters` parameters of which the first `3 · buckets`
    /// are sparse, summed in `blocks` blocks.
    init(buckets: Int, parameters: Int, blocks: Int) {
        self.buckets = buckets
        weights = [Float](repeating: 0, count: parameters)
        let count = buckets * Self.stride
        self.blocks = (0..<blocks).map { _ in
            let floats = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Float>.stride, alignment: 64)
                .bindMemory(to: Float.self, capacity: count)
            floats.initialize(repeating: 0, count: count)
            return floats
        }
    }

    deinit {
        for block in blocks { UnsafeMutableRawPointer(block).deallocate() }
    }

    /// Readies block `index` for a pass: each bucket's weights from
    /// `weights`, its sums zero.
    func load(block index: Int) {
        let block = blocks[index]
        weights.withUnsafeBufferPointer { weights in
            for bucket in 0..<buckets {
                let piece = block + bucket * Self.stride
                piece[0] = weights[3 * bucket]
                piece[1] = weights[3 * bucket + 1]
                piece[2] = weights[3 * bucket + 2]
                piece[Self.sumsOffset] = 0
                piece[Self.sumsOffset + 1] = 0
                piece[Self.sumsOffset + 2] = 0
            }
        }
    }

    /// Block `index`'s sum for sparse parameter `k` (bucket k / 3, class k mod 3).
    @inline(__always)
    func sum(block index: Int, parameter k: Int) -> Float {
        blocks[index][k / 3 * Self.stride + Self.sumsOffset + k % 3]
    }
}
