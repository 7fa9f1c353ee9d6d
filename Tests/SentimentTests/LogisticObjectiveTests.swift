import Testing
@testable import Sentiment

@Suite("Logistic objective")
struct LogisticObjectiveTests {
    /// 600 rows (two blocks of rows) of up to six features over 16 buckets, of which bucket 15 is never hit.
    static func objective() -> LogisticObjective {
        var generator = SplitMix64(seed: 23)
        var set = TrainingSet(rowStart: [0], indices: [], values: [], dense: [], labels: [])
        for _ in 0..<600 {
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                set.indices.append(Int32.random(in: 0..<15, using: &generator))
                set.values.append(Float.random(in: 0.1...1, using: &generator))
            }
            set.rowStart.append(set.indices.count)
            set.dense += (0..<DenseFeature.count).map { _ in Float.random(in: -1...1, using: &generator) }
            set.labels.append(UInt8.random(in: 0...2, using: &generator))
        }
        let scale = (0..<16).map { Float($0 % 4) * 0.5 + 0.5 }
        return LogisticObjective(set: set, rows: Array(0..<600), classWeights: [1.5, 1, 0.8], l2: 0.01,
                                 buckets: 16, scale: scale)
    }

    static func theta(_ objective: LogisticObjective, seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        let movable = objective.movableParameters()
        return (0..<objective.parameterCount).map { movable($0) ? Double.random(in: -0.5...0.5, using: &generator) : 0 }
    }

    @Test("Zero weights are the lowest loss of rows with the same features in every class, equally weighted, and of no others")
    func flatAtZero() {
        var set = TrainingSet(rowStart: [0], indices: [], values: [], dense: [], labels: [])
        for row in 0..<12 {
            set.indices += [3, 7]
            set.values += [0.7, 0.2]
            set.rowStart.append(set.indices.count)
            set.dense += (0..<DenseFeature.count).map { Float($0) * 0.37 - 1 }
            set.labels.append(UInt8(row % 3))
        }
        func objective(_ set: TrainingSet, classWeights: [Double] = [1, 1, 1], rows: [Int] = Array(0..<12)) -> LogisticObjective {
            LogisticObjective(set: set, rows: rows, classWeights: classWeights, l2: 1e30, buckets: 16)
        }
        #expect(objective(set).isFlatAtZero())
        #expect(!objective(set, rows: Array(0..<11)).isFlatAtZero(), "four, four and three rows")
        #expect(!objective(set, classWeights: [1.5, 1, 1]).isFlatAtZero())
        var apart = set
        apart.values[0] = 0.71  // the first row, a negative one, differs in one feature
        #expect(!objective(apart).isFlatAtZero())
        #expect(!Self.objective().isFlatAtZero())
    }

    @Test("The objective's gradient agrees with its finite differences in sparse, dense and bias parameters")
    func gradientMatchesFiniteDifferences() {
        let objective = Self.objective()
        #expect(objective.gradientChunks == 2)
        let theta = Self.theta(objective, seed: 1)
        var gradient = [Double]()
        _ = objective.evaluate(theta, gradient: &gradient)
        var scratch = [Double]()
        for k in [0, 1, 2, 7, 22, 44, objective.denseOffset, objective.denseOffset + 10, objective.biasOffset, objective.biasOffset + 2] {
            let h = 1e-3
            var up = theta, down = theta
            up[k] += h
            down[k] -= h
            let difference = (objective.evaluate(up, gradient: &scratch) - objective.evaluate(down, gradient: &scratch)) / (2 * h)
            #expect(abs(difference - gradient[k]) <= 1e-4 + 1e-3 * abs(gradient[k]), "parameter \(k): \(difference) against \(gradient[k])")
        }
        // Bucket 15 is hit by no row: only the L2 term, on a zero weight.
        #expect(!objective.movableParameters()(45) && gradient[45] == 0 && gradient[46] == 0 && gradient[47] == 0)
    }

    @Test("Buffers kept from one evaluation to the next give the bits of fresh ones")
    func keptBuffersGiveFreshBits() {
        let objective = Self.objective()
        let buffers = objective.makeBuffers()
        var kept = [Double](), fresh = [Double]()
        for seed: UInt64 in [2, 3, 4] {
            let theta = Self.theta(objective, seed: seed)
            let keptLoss = objective.evaluate(theta, gradient: &kept, buffers: buffers)
            let freshLoss = objective.evaluate(theta, gradient: &fresh)
            #expect(keptLoss.bitPattern == freshLoss.bitPattern)
            #expect(kept.map(\.bitPattern) == fresh.map(\.bitPattern))
        }
    }
}
