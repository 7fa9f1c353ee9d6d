import Testing
@testable import Sentiment

@Suite("Naive Bayes feature scaling")
struct NaiveBayesScaleTests {
    /// Six rows over four buckets: bucket 0 only in positive rows, bucket 1 in
    /// every row, bucket 2 twice in one negative row, bucket 3 nowhere.
    static let set: TrainingSet = {
        let rows: [(label: UInt8, buckets: [Int32])] = [
            (2, [0, 1]), (2, [0, 1]), (1, [1]), (1, [1]), (0, [1, 2, 2]), (0, [1]),
        ]
        var set = TrainingSet(rowStart: [0], indices: [], values: [], dense: [], labels: [])
        for row in rows {
            set.indices += row.buckets
            set.values += row.buckets.map { _ in 0.5 }
            set.rowStart.append(set.indices.count)
            set.dense += [Float](repeating: 0, count: DenseFeature.count)
            set.labels.append(row.label)
        }
        return set
    }()

    @Test("A bucket that tells the classes apart is scaled up, one found in every row is scaled down")
    func scalesFollowInformativeness() {
        let scale = NaiveBayesScale.scales(set: Self.set, rows: Array(0..<6), buckets: 4, power: 1)
        #expect(scale[0] > 0.5, "\(scale)")
        #expect(scale[0] > 3 * scale[1], "\(scale)")
        #expect(scale.allSatisfy { $0 >= 0 && $0.isFinite })
    }

    @Test("Presence counts once per row: a bucket twice in a row scales like once")
    func presenceNotFrequency() {
        var once = Self.set
        once.indices[once.rowStart[4] + 2] = 3   // the second 2 of row 4 moved to the unseen bucket 3…
        once.values[once.rowStart[4] + 2] = 0    // …with value 0, which the counts skip
        let twice = NaiveBayesScale.scales(set: Self.set, rows: Array(0..<6), buckets: 4, power: 1)
        let single = NaiveBayesScale.scales(set: once, rows: Array(0..<6), buckets: 4, power: 1)
        #expect(twice[2] == single[2])
    }

    @Test("Scales come from the rows given only")
    func scalesUseTheirRows() {
        let all = NaiveBayesScale.scales(set: Self.set, rows: Array(0..<6), buckets: 4, power: 1)
        let withoutPositives = NaiveBayesScale.scales(set: Self.set, rows: [2, 3, 4, 5], buckets: 4, power: 1)
        #expect(withoutPositives[0] < all[0])
    }

    @Test("Power 0.5 is the square root of power 1")
    func powerApplies() {
        let one = NaiveBayesScale.scales(set: Self.set, rows: Array(0..<6), buckets: 4, power: 1)
        let half = NaiveBayesScale.scales(set: Self.set, rows: Array(0..<6), buckets: 4, power: 0.5)
        for f in 0..<4 { #expect(abs(half[f] - one[f].squareRoot()) < 1e-6) }
    }

    @Test("The exported sparse weights score unscaled features as the scaled objective scores its own")
    func exportedWeightsMatchScaledObjective() {
        let buckets = 4
        let scale = NaiveBayesScale.scales(set: Self.set, rows: Array(0..<6), buckets: buckets, power: 1)
        let scaled = LogisticObjective(set: Self.set, rows: Array(0..<6), classWeights: [1, 1, 1], l2: 0,
                                       buckets: buckets, scale: scale)
        let plain = LogisticObjective(set: Self.set, rows: Array(0..<6), classWeights: [1, 1, 1], l2: 0,
                                      buckets: buckets)
        var generator = SplitMix64(seed: 3)
        let theta = (0..<scaled.parameterCount).map { _ in Double(generator.next() % 2001) / 1000 - 1 }
        var exported = theta
        for (k, w) in scaled.sparseWeights(theta).enumerated() { exported[k] = Double(w) }
        for row in 0..<6 {
            let a = theta.withUnsafeBufferPointer { scaled.logits(row: row, theta: $0.baseAddress!) }
            let b = exported.withUnsafeBufferPointer { plain.logits(row: row, theta: $0.baseAddress!) }
            #expect(abs(a.0 - b.0) < 1e-5 && abs(a.1 - b.1) < 1e-5 && abs(a.2 - b.2) < 1e-5, "row \(row)")
        }
        #expect(scaled.sparseWeights(theta) != plain.sparseWeights(theta))
    }

    @Test("A model trained with naive Bayes scaling learns the small sample and records the power")
    func trainingWithScaling() throws {
        var options = Fixtures.smallOptions
        options.naiveBayesPower = 1
        let model = try Trainer(options: options).train(Fixtures.sample).model
        let evaluation = Evaluation(gold: Fixtures.sample.map(\.label), predictions: model.classify(Fixtures.sample.map(\.text)))
        #expect(evaluation.accuracy >= 0.9)
        #expect(model.manifest.training?.naiveBayesPower == 1)

        options.naiveBayesPower = nil
        let unscaled = try Trainer(options: options).train(Fixtures.sample).model
        #expect(unscaled.manifest.training?.naiveBayesPower == nil)
        #expect(unscaled.weights.sparse != model.weights.sparse)
    }
}
