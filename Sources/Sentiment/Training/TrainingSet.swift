/// Featurized examples in compressed sparse rows, with their dense block,
/// labels and loss weights — what the optimizer reads.
struct TrainingSet: Sendable {
    /// Row `i`'s features are `indices[rowStart[i]..<rowStart[i+1]]`.
    var rowStart: [Int]
    var indices: [Int32]
    var values: [Float]
    /// `count × DenseFeature.count` dense values (standardized once `standardize` ran).
    var dense: [Float]
    /// Gold class index per row.
    var labels: [UInt8]

    var count: Int { labels.count }

    /// Featurizes `examples`, example `i` with `extractor(i)`, on `threads`
    /// threads (a long text as the mean of its segments, as it is classified).
    static func build(_ examples: [LabeledExample], threads: Int, extractor: (Int) -> FeatureExtractor) -> TrainingSet {
        let n = examples.count
        let chunks = max(1, min(threads, n / 512 + 1))
        let extractors = (0..<n).map(extractor)
        let parts = ParallelSlots<TrainingSet>.run(chunks) { chunk in
            let range = (n * chunk / chunks)..<(n * (chunk + 1) / chunks)
            let buffer = TokenBuffer()
            var row = SparseRow()
            var part = TrainingSet(rowStart: [0], indices: [], values: [], dense: [], labels: [])
            part.dense.reserveCapacity(range.count * DenseFeature.count)
            var dense = [Float](repeating: 0, count: DenseFeature.count)
            for i in range {
                extractors[i].extract(text: examples[i].text, buffer: buffer, into: &row, dense: &dense)
                part.indices += row.indices
                part.values += row.values
                part.rowStart.append(part.indices.count)
                part.dense += dense
                part.labels.append(UInt8(examples[i].label.index))
            }
            return part
        }
        var set = TrainingSet(rowStart: [0], indices: [], values: [], dense: [], labels: [])
        for part in parts {
            let offset = set.indices.count
            set.rowStart += part.rowStart.dropFirst().map { $0 + offset }
            set.indices += part.indices
            set.values += part.values
            set.dense += part.dense
            set.labels += part.labels
        }
        return set
    }

    /// Mean and 1/σ of each dense column (1/σ = 0 for a constant column).
    func denseMoments() -> (mean: [Float], scale: [Float]) {
        let d = DenseFeature.count
        var sum = [Double](repeating: 0, count: d), squares = [Double](repeating: 0, count: d)
        for i in 0..<count {
            for j in 0..<d {
                let x = Double(dense[i * d + j])
                sum[j] += x
                squares[j] += x * x
            }
        }
        let n = Double(max(count, 1))
        var mean = [Float](repeating: 0, count: d), scale = [Float](repeating: 0, count: d)
        for j in 0..<d {
            let m = sum[j] / n
            let variance = max(squares[j] / n - m * m, 0)
            mean[j] = Float(m)
            scale[j] = variance > 1e-12 ? Float(1 / variance.squareRoot()) : 0
        }
        return (mean, scale)
    }

    /// The smallest and largest raw dense value of each feature over
    /// `examples`, as `extractor` (the shipped model's: its lexicon is learned
    /// from every example, where the training set's own dense values each saw
    /// their fold's) computes them.
    static func denseRange(_ examples: [LabeledExample], extractor: FeatureExtractor) -> DenseRange {
        let d = DenseFeature.count
        guard !examples.isEmpty else { return DenseRange(min: [Float](repeating: 0, count: d), max: [Float](repeating: 0, count: d)) }
        var lower = [Float](repeating: .infinity, count: d), upper = [Float](repeating: -.infinity, count: d)
        let buffer = TokenBuffer()
        var row = SparseRow()
        var dense = [Float](repeating: 0, count: d)
        for example in examples {
            extractor.extract(text: example.text, buffer: buffer, into: &row, dense: &dense)
            for j in 0..<d {
                lower[j] = min(lower[j], dense[j])
                upper[j] = max(upper[j], dense[j])
            }
        }
        return DenseRange(min: lower, max: upper)
    }

    /// Standardizes the dense block in place.
    mutating func standardize(mean: [Float], scale: [Float]) {
        let d = DenseFeature.count
        for i in 0..<count {
            for j in 0..<d { dense[i * d + j] = (dense[i * d + j] - mean[j]) * scale[j] }
        }
    }
}
