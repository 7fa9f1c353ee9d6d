#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The regularized, weighted mean cross-entropy of a multinomial logistic
/// regression over a subset of a `TrainingSet`, with its gradient.
///
/// Parameters, one flat vector: `[sparse buckets×3 | dense d×3 | bias 3]`.
/// Objective: `Σ_i w_i·(−log p_i[y_i]) / Σ_i w_i  +  (l2/2)·‖θ without biases‖²`.
/// The gradient is computed in `gradientBlocks` blocks of the rows, in
/// parallel, each into Float sums of its own (`GradientBuffers`), and the blocks are added
/// in order. The split decides the last bits of the sums, and so of the
/// trained weights: it is fixed, not the number of cores, so that a training
/// writes the same weights on any machine and with any `--threads` (with the
/// split following the thread count, one, two and three threads wrote three
/// different weight files from the same data).
///
/// With `scale` (one factor per sparse bucket, see `NaiveBayesScale`) the
/// sparse feature values are multiplied by their bucket's factor: θ's sparse
/// part then weighs scaled features, and `scale(f)·θ_f` is the weight of the
/// unscaled feature.
struct LogisticObjective: @unchecked Sendable {
    let set: TrainingSet
    let rows: [Int]
    let classWeights: [Double]
    let l2: Double
    let buckets: Int
    /// The factor of each sparse bucket, if any.
    let scale: [Float]?
    /// The sparse values the objective reads: `set.values`, scaled by bucket when a scale is given.
    let values: [Float]

    /// Blocks of rows whose gradients are summed apart (fewer for fewer than
    /// 256 rows a block). Two, the cores of the machine that trained the
    /// shipped model, which `make model` therefore reproduces everywhere; a
    /// fit uses at most two cores, and a training runs its fits side by side
    /// to use more (`FitQueue`).
    static let gradientBlocks = 2

    init(set: TrainingSet, rows: [Int], classWeights: [Double], l2: Double, buckets: Int, scale: [Float]? = nil) {
        self.set = set
        self.rows = rows
        self.classWeights = classWeights
        self.l2 = l2
        self.buckets = buckets
        self.scale = scale
        if let scale {
            values = zip(set.values, set.indices).map { $0 * scale[Int($1)] }
        } else {
            values = set.values
        }
    }

    var parameterCount: Int { Self.parameterCount(buckets: buckets) }
    /// The parameters of a model with `buckets` sparse buckets: three weights
    /// a bucket and a dense feature, and three biases.
    static func parameterCount(buckets: Int) -> Int { 3 * buckets + 3 * DenseFeature.count + 3 }
    var denseOffset: Int { 3 * buckets }
    var biasOffset: Int { 3 * buckets + 3 * DenseFeature.count }

    /// Whether parameter `k` can move in a fit: biases and dense weights
    /// always, a sparse bucket's weights when one of the rows hashes a feature
    /// to it (any other keeps its zero weight: its gradient is l2·0).
    func movableParameters() -> (Int) -> Bool {
        var hit = [Bool](repeating: false, count: buckets)
        set.indices.withUnsafeBufferPointer { indices in
            for i in rows {
                for k in set.rowStart[i]..<set.rowStart[i + 1] { hit[Int(indices[k])] = true }
            }
        }
        let denseOffset = denseOffset
        return { k in k >= denseOffset || hit[k / 3] }
    }

    /// The weights of the unscaled sparse features that `theta` amounts to:
    /// θ's sparse part times each bucket's scale (θ itself without a scale).
    /// Scoring unscaled features with them gives the scores this objective
    /// computes from θ.
    func sparseWeights(_ theta: [Double]) -> [Float] {
        (0..<(3 * buckets)).map { k in Float(theta[k] * Double(scale?[k / 3] ?? 1)) }
    }

    /// The three scores of row `i` under parameters `theta` (Double or Float).
    @inline(__always)
    func logits<T: BinaryFloatingPoint>(row i: Int, theta: UnsafePointer<T>) -> (Double, Double, Double) {
        logits(row: i, theta: theta, sparse: theta, stride: 3)
    }

    /// The three scores of row `i`, bucket b's weights read at
    /// `sparse[stride·b …]` and the dense weights and biases from `theta`.
    @inline(__always)
    private func logits<T: BinaryFloatingPoint>(row i: Int, theta: UnsafePointer<T>, sparse: UnsafePointer<T>,
                                                stride: Int) -> (Double, Double, Double) {
        var z0 = Double(theta[biasOffset]), z1 = Double(theta[biasOffset + 1]), z2 = Double(theta[biasOffset + 2])
        set.indices.withUnsafeBufferPointer { indices in
            values.withUnsafeBufferPointer { values in
                for k in set.rowStart[i]..<set.rowStart[i + 1] {
                    let base = stride * Int(indices[k])
                    let v = Double(values[k])
                    z0 += v * Double(sparse[base])
                    z1 += v * Double(sparse[base + 1])
                    z2 += v * Double(sparse[base + 2])
                }
            }
        }
        let d = DenseFeature.count
        set.dense.withUnsafeBufferPointer { dense in
            for j in 0..<d {
                let x = Double(dense[i * d + j])
                let base = denseOffset + 3 * j
                z0 += x * Double(theta[base])
                z1 += x * Double(theta[base + 1])
                z2 += x * Double(theta[base + 2])
            }
        }
        return (z0, z1, z2)
    }

    /// Whether zero weights are already the lowest loss: the gradient there,
    /// summed in Double, is 0 but for rounding (within 10⁻⁹ of the sum of its
    /// terms' sizes, for every parameter). Then no feature's weighted values
    /// differ between the classes, and the classes weigh the same: the data
    /// does that (every row the same text, its classes equally split), not the
    /// options (L2 adds nothing at 0). `evaluate`'s Float sums cannot tell:
    /// their rounding leaves such a gradient at 10⁻⁸, as large as some data's.
    func isFlatAtZero() -> Bool {
        let d = DenseFeature.count
        // 3·(p_c − [y = c]) at p = 1/3, exactly: 1, or −2 for the row's class.
        var sums = [Double](repeating: 0, count: parameterCount), sizes = sums
        for i in rows {
            let y = Int(set.labels[i]), w = classWeights[y]
            func add(_ slot: Int, _ x: Double) {
                for c in 0..<3 {
                    let term = w * (c == y ? -2 : 1) * x
                    sums[3 * slot + c] += term
                    sizes[3 * slot + c] += abs(term)
                }
            }
            for k in set.rowStart[i]..<set.rowStart[i + 1] { add(Int(set.indices[k]), Double(values[k])) }
            for j in 0..<d { add(buckets + j, Double(set.dense[i * d + j])) }
            add(buckets + d, 1)
        }
        return zip(sums, sizes).allSatisfy { abs($0) <= 1e-9 * $1 }
    }

    /// Blocks of rows whose gradients `evaluate` sums apart:
    /// `gradientBlocks`, or one for fewer than 256 rows.
    var gradientChunks: Int { max(1, min(Self.gradientBlocks, rows.count / 256 + 1)) }

    /// Buffers for `evaluate`, to be kept from one call to the next (one
    /// call at a time).
    func makeBuffers() -> GradientBuffers {
        GradientBuffers(buckets: buckets, parameters: parameterCount, blocks: gradientChunks)
    }

    /// The objective at `theta`; its gradient is written to `gradient`.
    /// `buffers` (from `makeBuffers()`) spares each call its own.
    func evaluate(_ theta: [Double], gradient: inout [Double], buffers: GradientBuffers? = nil) -> Double {
        let chunks = gradientChunks
        let buffers = buffers ?? makeBuffers()
        precondition(buffers.blocks.count == chunks && buffers.weights.count == parameterCount)
        // The passes over the data read and write the parameters at random: in
        // Float they take half the memory traffic. Sums stay in Double.
        buffers.weights.withUnsafeMutableBufferPointer { weights in
            for k in 0..<parameterCount { weights[k] = Float(theta[k]) }
        }
        let denseCount = parameterCount - denseOffset
        let parts = ParallelSlots<(dense: [Float], loss: Double, weight: Double)>.run(chunks) { chunk in
            let range = (rows.count * chunk / chunks)..<(rows.count * (chunk + 1) / chunks)
            buffers.load(block: chunk)
            var dense = [Float](repeating: 0, count: denseCount)
            let (loss, weight) = buffers.weights.withUnsafeBufferPointer { theta in
                dense.withUnsafeMutableBufferPointer { dense in
                    accumulate(rows[range], theta: theta.baseAddress!, block: buffers.blocks[chunk], dense: dense.baseAddress!)
                }
            }
            return (dense, loss, weight)
        }
        let totalWeight = max(parts.reduce(0) { $0 + $1.weight }, 1e-300)
        var loss = parts.reduce(0) { $0 + $1.loss } / totalWeight
        if gradient.count != parameterCount { gradient = [Double](repeating: 0, count: parameterCount) }
        gradient.withUnsafeMutableBufferPointer { gradient in
            for k in 0..<denseOffset {
                var sum = Double(buffers.sum(block: 0, parameter: k))
                for chunk in 1..<chunks { sum += Double(buffers.sum(block: chunk, parameter: k)) }
                gradient[k] = sum
            }
            for k in denseOffset..<parameterCount {
                var sum = Double(parts[0].dense[k - denseOffset])
                for part in parts.dropFirst() { sum += Double(part.dense[k - denseOffset]) }
                gradient[k] = sum
            }
        }
        let scale = 1 / totalWeight
        var penalty = 0.0
        for k in 0..<biasOffset {
            gradient[k] = gradient[k] * scale + l2 * theta[k]
            penalty += theta[k] * theta[k]
        }
        for k in biasOffset..<parameterCount { gradient[k] *= scale }
        loss += 0.5 * l2 * penalty
        return loss
    }

    /// Adds the weighted loss gradient of `rows` to `block`'s sums (sparse
    /// buckets, laid out as `GradientBuffers` lays them) and to `dense` (the
    /// dense weights', then the biases'); returns the weighted loss and the
    /// total weight.
    private func accumulate(_ rows: ArraySlice<Int>, theta: UnsafePointer<Float>, block: UnsafeMutablePointer<Float>,
                            dense gradient: UnsafeMutablePointer<Float>) -> (Double, Double) {
        var loss = 0.0, totalWeight = 0.0
        let d = DenseFeature.count
        let stride = GradientBuffers.stride, sums = GradientBuffers.sumsOffset
        for i in rows {
            let (z0, z1, z2) = logits(row: i, theta: theta, sparse: block, stride: stride)
            let top = max(z0, z1, z2)
            let e0 = exp(z0 - top), e1 = exp(z1 - top), e2 = exp(z2 - top)
            let sum = e0 + e1 + e2
            let y = Int(set.labels[i])
            let w = classWeights[y]
            let p0 = e0 / sum, p1 = e1 / sum, p2 = e2 / sum
            loss -= w * log(max(y == 0 ? p0 : (y == 1 ? p1 : p2), 1e-300))
            totalWeight += w
            let g0 = Float(w * (p0 - (y == 0 ? 1 : 0))), g1 = Float(w * (p1 - (y == 1 ? 1 : 0))), g2 = Float(w * (p2 - (y == 2 ? 1 : 0)))
            set.indices.withUnsafeBufferPointer { indices in
                values.withUnsafeBufferPointer { values in
                    for k in set.rowStart[i]..<set.rowStart[i + 1] {
                        let base = stride * Int(indices[k]) + sums
                        let v = values[k]
                        block[base] += v * g0
                        block[base + 1] += v * g1
                        block[base + 2] += v * g2
                    }
                }
            }
            for j in 0..<d {
                let x = set.dense[i * d + j]
                let base = 3 * j
                gradient[base] += x * g0
                gradient[base + 1] += x * g1
                gradient[base + 2] += x * g2
            }
            gradient[3 * d] += g0
            gradient[3 * d + 1] += g1
            gradient[3 * d + 2] += g2
        }
        return (loss, totalWeight)
    }
}
