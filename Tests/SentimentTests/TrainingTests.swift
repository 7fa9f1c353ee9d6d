import Foundation
import Testing
@testable import Sentiment

@Suite("Training")
struct TrainingTests {
    @Test("Training on a small labelled sample learns it")
    func trainingLearnsSample() throws {
        let model = try Fixtures.smallModel()
        let evaluation = Evaluation(gold: Fixtures.sample.map(\.label), predictions: model.classify(Fixtures.sample.map(\.text)))
        #expect(evaluation.accuracy >= 0.9)
        #expect(model.classify("I love it, what a great day").label == .positive)
        #expect(model.classify("I hate it, worst ever").label == .negative)
    }

    @Test("A lexicon size that a model file cannot hold fails before training, not at save", arguments: [4, 7, 25, -1])
    func unsavableLexiconBitsFailUpFront(bits: Int) throws {
        var options = Fixtures.smallOptions
        options.lexiconBits = bits
        #expect {
            try Trainer(options: options).train(Fixtures.sample)
        } throws: { error in
            guard case .invalidSettings(let reason)? = error as? ModelError else { return false }
            return reason.contains("lexiconBits \(bits)")
        }
    }

    /// Options no fit can use, each with the name its error gives.
    static let unusableOptions: [(name: String, options: TrainingOptions)] = {
        func with(_ change: (inout TrainingOptions) -> Void) -> TrainingOptions {
            var options = Fixtures.smallOptions
            change(&options)
            return options
        }
        return [
            ("maxIterations", with { $0.maxIterations = 0 }), ("maxIterations", with { $0.maxIterations = -5 }),
            ("l2", with { $0.l2 = -1 }), ("l2", with { $0.l2 = .nan }), ("l2", with { $0.l2 = .infinity }),
            ("tolerance", with { $0.tolerance = .nan }),
            ("priorExponent", with { $0.priorExponent = .nan }), ("priorExponent", with { $0.priorExponent = -1 }),
            ("priorExponent", with { $0.priorExponent = 1e39 }),
            ("naiveBayesPower", with { $0.naiveBayesPower = .nan }), ("naiveBayesPower", with { $0.naiveBayesPower = -1 }),
            ("threads", with { $0.threads = -1 }),
        ]
    }()

    @Test("Options no fit can use fail before training, instead of trapping (no iterations) or fitting a broken model (a negative or NaN L2)",
          arguments: unusableOptions)
    func unusableOptionsFailUpFront(name: String, options: TrainingOptions) throws {
        #expect {
            try Trainer(options: options).train(Fixtures.sample)
        } throws: { error in
            guard case .invalidSettings(let reason)? = error as? ModelError else { return false }
            return reason.hasPrefix(name + " ")
        }
    }

    @Test("A fit whose loss is not a finite number stops training instead of giving a model of untrained weights",
          arguments: [1e30, 1e300])
    func divergedFitFails(naiveBayesPower: Double) throws {
        var options = Fixtures.smallOptions
        options.naiveBayesPower = naiveBayesPower
        #expect {
            try Trainer(options: options).train(Fixtures.sample)
        } throws: { error in
            guard case .diverged? = error as? TrainingError else { return false }
            return "\(error)".contains("not a finite number")
        }
    }

    @Test("A fit that takes no step stops training instead of giving a model of untrained weights")
    func stalledFitFails() throws {
        var options = Fixtures.smallOptions
        options.l2 = 1e30
        #expect {
            try Trainer(options: options).train(Fixtures.sample)
        } throws: { error in
            guard case .stalled? = error as? TrainingError else { return false }
            return "\(error)".contains("no step lowered") && "\(error)".contains("options too large for floating point")
        }
    }

    @Test("A fit of rows that no feature tells apart (one text, its classes equally split) that takes no step blames the data, not the options")
    func nothingToLearnBlamesTheData() throws {
        var options = TrainingOptions()
        options.features.bucketBits = 14
        options.threads = 1
        var stopped = 0
        // Whether a step is taken from the optimum is a matter of rounding: some of these take one, some none,
        // and a step of rounding's size leaves the weights as untrained as none (10 a class, 3 folds took one).
        for perClass in [4, 5, 6, 10] {
            let examples = (0..<perClass).flatMap { _ in SentimentLabel.allCases.map { LabeledExample(text: "the bus is here", label: $0) } }
            for folds in 2...3 {
                options.folds = folds
                do {
                    _ = try Trainer(options: options).train(examples)
                } catch {
                    stopped += 1
                    guard case .nothingToLearn(_, let objective)? = error as? TrainingError else {
                        Issue.record("\(perClass) a class, \(folds) folds: \(error)")
                        continue
                    }
                    #expect(abs(objective - log(3)) < 1e-12)
                    #expect("\(error)".contains("the data does this, not the options: no row's features tell the classes apart"), "\(error)")
                    #expect(!"\(error)".contains("options too large"), "\(error)")
                }
            }
        }
        #expect(stopped == 8, "\(8 - stopped) of the 8 trainings wrote an untrained model")
    }

    @Test("Training on examples of one class fails: a model needs two classes to tell apart")
    func oneClassFails() throws {
        let positives = Fixtures.sample.filter { $0.label == .positive }
        #expect(!positives.isEmpty)
        #expect {
            try Trainer(options: Fixtures.smallOptions).train(positives)
        } throws: { error in
            guard case .oneClass(let label)? = error as? TrainingError else { return false }
            return label == .positive && "\(error)".contains("at least two classes")
        }
        #expect(throws: TrainingError.self) { try Trainer(options: Fixtures.smallOptions).train([]) }
    }

    @Test("Training is deterministic for a seed")
    func trainingIsDeterministic() throws {
        let first = try Fixtures.smallModel(), second = try Fixtures.smallModel()
        #expect(first.weights.sparse == second.weights.sparse)
        #expect(first.manifest.decision == second.manifest.decision)
    }

    @Test("Folds are stratified: each fold holds a share of every class")
    func foldsAreStratified() {
        let folds = Trainer.assignFolds(Fixtures.sample, folds: 3, seed: 7)
        for k in 0..<3 {
            for label in SentimentLabel.allCases {
                let members = Fixtures.sample.indices.filter { folds[$0] == k && Fixtures.sample[$0].label == label }
                #expect(members.count >= 3)
            }
        }
    }

    @Test("Chronological folds are contiguous blocks in tweet-id order")
    func foldsAreChronological() {
        let examples = Fixtures.sample.enumerated().map { offset, example in
            LabeledExample(text: example.text, label: example.label, id: UInt64(1_000 + 7 * ((offset * 11) % 30)))
        }
        let folds = Trainer.assignFolds(examples, folds: 3, order: .chronological, seed: 7)
        let byTime = examples.indices.sorted { examples[$0].id! < examples[$1].id! }
        #expect(byTime.map { folds[$0] } == Array(repeating: 0, count: 10) + Array(repeating: 1, count: 10) + Array(repeating: 2, count: 10))
    }

    @Test("Chronological folds of examples with unique ids are cut as they were before copies of a tweet were kept together",
          arguments: [(30, 4, [0, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]),
                      (23, 7, [0, 2, 4, 6, 1, 3, 5, 0, 3, 5, 0, 2, 4, 6, 1, 3, 6, 1, 3, 5, 0, 2, 4])])
    func chronologicalFoldsOfUniqueIDsAreUnchanged(count: Int, folds: Int, expected: [Int]) {
        let examples = Fixtures.sample.prefix(count).enumerated().map { offset, example in
            LabeledExample(text: example.text, label: example.label, id: UInt64(5_000 + 13 * ((offset * 7) % count)))
        }
        #expect(Set(examples.map(\.id)).count == count)
        #expect(Trainer.assignFolds(examples, folds: folds, order: .chronological, seed: 7) == expected)
    }

    @Test("Chronological folds keep the copies of a tweet (rows with one id) in one fold, the fold of the first, instead of cutting a fold boundary through them")
    func chronologicalFoldsKeepRepeatedIDsTogether() {
        // In id order: 10 20 30 30 | 30 40 50 60 | 60 70 80 90, boundaries after 4 and 8 rows cutting the 30s and the 60s.
        let ids: [UInt64] = [60, 10, 30, 90, 30, 40, 60, 20, 70, 30, 50, 80]
        let examples = zip(Fixtures.sample, ids).map { LabeledExample(text: $0.text, label: $0.label, id: $1) }
        let folds = Trainer.assignFolds(examples, folds: 3, order: .chronological, seed: 7)
        #expect(folds == [1, 0, 0, 2, 0, 1, 1, 0, 2, 0, 1, 2])
        for id in Set(ids) {
            #expect(Set(examples.indices.filter { ids[$0] == id }.map { folds[$0] }).count == 1, "id \(id)")
        }
    }

    @Test("Chronological folds that a run of a tweet's copies would leave empty are left out, the later ones numbered on, so every fold holds an example")
    func chronologicalFoldsLeaveNoneEmpty() {
        // In id order: 1 2 3 | 3 3 3 | 3 3 4: the 3s fill the second fold's place.
        let ids: [UInt64] = [3, 1, 4, 3, 2, 3, 3, 3, 3]
        let examples = zip(Fixtures.sample, ids).map { LabeledExample(text: $0.text, label: $0.label, id: $1) }
        let folds = Trainer.assignFolds(examples, folds: 3, order: .chronological, seed: 7)
        #expect(folds == [0, 0, 1, 0, 0, 0, 0, 0, 0])
    }

    @Test("Training whose chronological folds a tweet's many copies would leave empty trains on fewer folds (or none) and says so, naming the id, instead of fitting a fold that scores nothing (or failing as if it stalled)",
          arguments: [(9, 12, "2 chronological folds, not 3: tweet id 10 is on 12 of the 30 examples, and a tweet's copies share a fold, so 1 of 3 folds would hold no example", true),
                      (1, 29, "no cross-validation: tweet id 2 is on 29 of the 30 examples, and a tweet's copies share a fold, so 2 of 3 folds would hold no example", false)])
    func trainingSaysEmptyChronologicalFolds(before: Int, copies: Int, note: String, crossValidates: Bool) throws {
        // Unique ids 1…before, then `copies` copies of the next id, then unique ids again.
        let ids = (0..<Fixtures.sample.count).map { UInt64(1 + ($0 < before ? $0 : $0 < before + copies ? before : $0 - copies + 1)) }
        let examples = zip(Fixtures.sample, ids).map { LabeledExample(text: $0.text, label: $0.label, id: $1) }
        var lines: [String] = []
        let result = try Trainer(options: Fixtures.smallOptions).train(examples, log: { lines.append($0) })
        #expect(lines.contains(note), "\(lines)")
        #expect((result.crossValidation?.count == Fixtures.sample.count) == crossValidates)
        #expect(!lines.contains { $0.hasPrefix("fold 3/3") }, "\(lines)")
    }

    @Test("Chronological folds fall back to stratified ones when an example has no id")
    func chronologicalFoldsNeedIds() {
        #expect(Trainer.assignFolds(Fixtures.sample, folds: 3, order: .chronological, seed: 7)
            == Trainer.assignFolds(Fixtures.sample, folds: 3, order: .stratified, seed: 7))
    }

    @Test("A temperature at an end of its search range is said: the probabilities stay over- or underconfident")
    func temperatureAtItsBoundIsSaid() throws {
        // Scores that are surely wrong a third of the time want a temperature far above 4.
        let logits = (0..<300).flatMap { i -> [Double] in i % 3 == 0 ? [40, 0, 0] : [0, 40, 0] }
        let gold = (0..<300).map { $0 % 3 == 2 ? SentimentLabel.negative : .neutral }
        let top = Calibration.fitTemperature(logits: logits, gold: gold)
        #expect(top > 3.99)
        #expect(Calibration.temperatureBoundWarning(top, logits: logits, gold: gold)?.contains("overconfident") == true)
        // Scores that are right but timid want one below ¼.
        let timid = (0..<300).flatMap { i -> [Double] in i % 2 == 0 ? [0.01, 0, 0] : [0, 0.01, 0] }
        let timidGold = (0..<300).map { $0 % 2 == 0 ? SentimentLabel.negative : .neutral }
        let bottom = Calibration.fitTemperature(logits: timid, gold: timidGold)
        #expect(bottom < 0.2501)
        #expect(Calibration.temperatureBoundWarning(bottom, logits: timid, gold: timidGold)?.contains("underconfident") == true)
        #expect(Calibration.temperatureBoundWarning(1.539, logits: logits, gold: gold) == nil)
    }

    @Test("Scores the temperature cannot change (every class 1/3, as when every text is the same) are not called overconfident, though their temperature ends at the top of its range")
    func flatScoresAtTheTopTemperatureAreNotCalledOverconfident() {
        let gold = (0..<30).map { SentimentLabel.allCases[$0 % 3] }
        let flat = [Double](repeating: 0.25, count: 3 * gold.count)
        let temperature = Calibration.fitTemperature(logits: flat, gold: gold)
        #expect(temperature > 3.99)
        #expect(Calibration.evaluate(logits: flat, gold: gold, rule: Calibration.rule(temperature: temperature, priorExponent: 0, priors: [1, 1, 1]))
            .expectedCalibrationError < 1e-4)  // train prints it as 0.0000
        #expect(Calibration.temperatureBoundWarning(temperature, logits: flat, gold: gold) == nil)
    }

    @Test("Forward calibration scores each later fold once, by a model of the folds before it, and fits the temperature there")
    func forwardCalibrationChainsFolds() throws {
        let examples = Fixtures.sample.enumerated().map { offset, example in
            LabeledExample(text: example.text, label: example.label, id: UInt64(1_000 + 7 * ((offset * 11) % 30)))
        }
        var options = Fixtures.smallOptions
        options.calibration = .forward
        options.threads = 4   // the six fits four at a time: each line comes as its fit ends
        var lines: [String] = []
        let forward = try Trainer(options: options).train(examples, log: { lines.append($0) }).model
        options.calibration = .pooled
        var pooledLines: [String] = []
        let pooled = try Trainer(options: options).train(examples, log: { pooledLines.append($0) }).model

        let fits = lines.filter { $0.hasPrefix("forward ") && !$0.hasPrefix("forward chaining") }
        #expect(fits.count == 2)
        #expect(fits.contains { $0.hasPrefix("forward 1/2: folds 1–1 → fold 2") })
        #expect(fits.contains { $0.hasPrefix("forward 2/2: folds 1–2 → fold 3") })
        #expect(!pooledLines.contains { $0.hasPrefix("forward") })
        #expect(lines.contains("6 fits, 4 at a time"), "\(lines)")
        let fitLines = ["fold 1/3", "fold 2/3", "fold 3/3", "forward 1/2", "forward 2/2"]
        let order = fitLines + ["forward chaining", "cross-validation:", "cross-validation by fold", "final model"]
        let said = lines.filter { line in order.contains { line.hasPrefix($0) } }.map { line in order.first { line.hasPrefix($0) }! }
        #expect(Set(said.prefix(fitLines.count)) == Set(fitLines) && Array(said.dropFirst(fitLines.count)) == Array(order.dropFirst(fitLines.count)))
        let summary = try #require(lines.first { $0.hasPrefix("forward chaining: temperature") })
        #expect(summary.contains(String(format: "pooled folds: %.3f", pooled.manifest.decision.temperature)))
        #expect(summary.contains(String(format: "temperature %.3f", forward.manifest.decision.temperature)))
    }

    @Test("Each fit's line is said when the fit ends, in the order the fits end, not held back until the fits listed before it end")
    func fitLinesComeAsFitsEnd() throws {
        // 29 examples in time order: chronological folds of 10, 10 and 9, so fold 3's
        // fit and forward chaining's second (20 rows each) run before fold 1's and
        // fold 2's (19 rows), the largest first; one fit at a time, each ends before
        // the next starts.
        let examples = Fixtures.sample.prefix(29).enumerated().map { offset, example in
            LabeledExample(text: example.text, label: example.label, id: UInt64(1_000 + offset))
        }
        var options = Fixtures.smallOptions
        options.calibration = .forward
        options.threads = 1
        var lines: [String] = []
        _ = try Trainer(options: options).train(examples, log: { lines.append($0) })
        let fitLines = lines.filter { $0.hasPrefix("fold ") || ($0.hasPrefix("forward ") && !$0.hasPrefix("forward chaining")) }
        #expect(fitLines.map { String($0.prefix { $0 != ":" }) } == ["fold 3/3", "forward 2/2", "fold 1/3", "fold 2/3", "forward 1/2"], "\(lines)")
        #expect(fitLines.first?.hasPrefix("fold 3/3: ") == true && fitLines.first?.contains(" iterations, objective ") == true)
    }

    @Test("More folds than the examples can fill, up to Int.max, train without cross-validation and say so")
    func tooManyFolds() throws {
        for folds in [Fixtures.sample.count, Int.max] {
            var options = Fixtures.smallOptions
            options.folds = folds
            var lines: [String] = []
            let result = try Trainer(options: options).train(Fixtures.sample, log: { lines.append($0) })
            #expect(result.crossValidation == nil)
            #expect(lines.contains { $0.hasPrefix("no cross-validation: \(folds) folds need") }, "\(lines)")
        }
    }

    @Test("Examples that repeat an earlier tweet id are counted, those without an id never, and training says how many it learns from twice")
    func repeatedIDsAreCounted() throws {
        let ids: [UInt64?] = [5, 9, 5, nil, nil, 9, 5, 12]
        #expect(zip(Fixtures.sample, ids).map { LabeledExample(text: $0.text, label: $0.label, id: $1) }.repeatedIDCount == 3)
        #expect(Fixtures.sample.repeatedIDCount == 0, "no ids, nothing repeated")

        var examples = Fixtures.sample.enumerated().map { LabeledExample(text: $1.text, label: $1.label, id: UInt64(100 + $0)) }
        examples += examples.prefix(2)
        var lines: [String] = []
        _ = try Trainer(options: Fixtures.smallOptions).train(examples, log: { lines.append($0) })
        #expect(lines.contains("2 examples repeat an earlier one's tweet id, each trained on all the same"), "\(lines)")
        var unique: [String] = []
        _ = try Trainer(options: Fixtures.smallOptions).train(Array(examples.dropLast(2)), log: { unique.append($0) })
        #expect(!unique.contains { $0.contains("repeat") }, "\(unique)")
    }

    @Test("Stratified folds with forward calibration fit the temperature to pooled scores, and say so")
    func stratifiedFoldsSayCalibrationIsPooled() throws {
        let examples = Fixtures.sample.enumerated().map { LabeledExample(text: $1.text, label: $1.label, id: UInt64(100 + $0)) }
        var options = Fixtures.smallOptions
        options.foldOrder = .stratified
        options.calibration = .forward
        var lines: [String] = []
        let forward = try Trainer(options: options).train(examples, log: { lines.append($0) }).model
        #expect(lines.contains("stratified folds: forward calibration needs chronological ones, so the temperature is fitted to pooled scores"),
                "\(lines)")
        options.calibration = .pooled
        var pooledLines: [String] = []
        let pooled = try Trainer(options: options).train(examples, log: { pooledLines.append($0) }).model
        #expect(forward.manifest.decision == pooled.manifest.decision)
        #expect(!pooledLines.contains { $0.contains("forward") }, "\(pooledLines)")
    }

    @Test("Without tweet ids, forward calibration is the pooled one")
    func forwardCalibrationNeedsTime() throws {
        var options = Fixtures.smallOptions
        options.calibration = .forward
        let forward = try Trainer(options: options).train(Fixtures.sample).model
        options.calibration = .pooled
        let pooled = try Trainer(options: options).train(Fixtures.sample).model
        #expect(forward.manifest.decision == pooled.manifest.decision)
    }

    @Test("L-BFGS finds the minimum of a quadratic")
    func lbfgsMinimizesQuadratic() {
        var x = [Double](repeating: 0, count: 5)
        let target: [Double] = [1, -2, 3, 0.5, -0.25]
        let report = LBFGS(maxIterations: 100, tolerance: 1e-14).minimize(&x) { x, gradient in
            var f = 0.0
            for i in 0..<x.count {
                let weight = Double(i + 1)
                f += weight * (x[i] - target[i]) * (x[i] - target[i])
                gradient[i] = 2 * weight * (x[i] - target[i])
            }
            return f
        }
        #expect(report.objective < 1e-8)
        for i in 0..<5 { #expect(abs(x[i] - target[i]) < 1e-4) }
    }

    @Test("The fixed-order vector arithmetic agrees with plain sums at every length around its eight lanes")
    func fixedOrderVectorArithmetic() {
        var generator = SplitMix64(seed: 3)
        for n in [0, 1, 7, 8, 9, 15, 16, 17, 1_000] {
            let a = (0..<n).map { _ in Double.random(in: -1...1, using: &generator) }
            let b = (0..<n).map { _ in Double.random(in: -1...1, using: &generator) }
            let plain = zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }
            #expect(abs(FixedOrderVector.dot(a, b) - plain) <= 1e-12 * Double(max(n, 1)), "n = \(n)")
            var y = b
            FixedOrderVector.axpy(0.5, a, &y)
            #expect(y == zip(a, b).map { 0.5 * $0 + $1 }, "n = \(n)")
            FixedOrderVector.scale(&y, -2)
            #expect(y == zip(a, b).map { -2 * (0.5 * $0 + $1) }, "n = \(n)")
        }
    }

    @Test("L-BFGS reports the steps it took, and none when no step lowers the objective")
    func lbfgsCountsSteps() {
        var x = [1.0, -2.0]
        let moving = LBFGS(maxIterations: 50).minimize(&x) { x, gradient in
            gradient = x.map { 2 * $0 }
            return x.reduce(0) { $0 + $1 * $1 }
        }
        #expect(moving.steps > 0)

        // A loss whose slope points downhill but that rises wherever it is taken.
        var start = [0.0]
        let stuck = LBFGS(maxIterations: 50).minimize(&start) { x, gradient in
            gradient = [1]
            return x[0] == 0 ? 0 : 1
        }
        #expect(stuck.steps == 0)
        #expect(start == [0])
    }

    @Test("Reading a TSV without a text column names the file and line 1")
    func tsvWithoutTextColumnFails() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("bad.tsv")
        try "id\tlabel\tbody\n1\tpositive\thi\n".write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try LabeledExample.readTSV(url.path)
        } throws: { error in
            (error as? DataFileError)?.line == 1
        }
    }

    @Test("A TSV without a header, as the SemEval task files were published (id, label, text; 2013's with the user's id too), is read from its first row, and a first line that is no such row is still a missing header")
    func headerlessSemEvalFiles() throws {
        let semEval = "\n628949369883000832\tnegative\tdear @Microsoft no Lync update? C'mon.\n"
            + "628976607420645377\t Neutral \ta tab\tinside and one after\t\n"
        let read = try LabeledExample.readTSV(data: Data(semEval.utf8), name: "standard input")
        #expect(read.map(\.id) == [628949369883000832, 628976607420645377])
        #expect(read.map(\.label) == [.negative, .neutral])
        #expect(read.map(\.text) == ["dear @Microsoft no Lync update? C'mon.", "a tab\tinside and one after\t"])
        let withUser = try LabeledExample.readTSV(data: Data("264183816548130816\t15140428\tpositive\tGaga is great\r\n".utf8), name: "standard input")
        #expect(withUser == [LabeledExample(text: "Gaga is great", label: .positive, id: 264183816548130816)])
        let labelFirst = try LabeledExample.readTSV(data: Data("positive\tgreat day\nnegative\tbad\n".utf8), name: "standard input")
        #expect(labelFirst.map(\.label) == [.positive, .negative] && labelFirst.map(\.id) == [nil, nil])
        // A later row that is not of the first's shape is an error on its line, as under a header.
        #expect {
            try LabeledExample.readTSV(data: Data("1\tpositive\tgreat\n2\tneutral\n".utf8), name: "standard input")
        } throws: { error in
            (error as? DataFileError)?.line == 2 && (error as? DataFileError)?.reason == "expected 3 tab-separated columns, found 2"
        }
        for notARow in ["x\tpositive\tgreat\n", "positive\n", "1\t2\t3\tpositive\tgreat\n", "\tpositive\tgreat\n", "great\tpositive\n"] {
            #expect(throws: DataFileError.self, "\(notARow.debugDescription)") {
                try LabeledExample.readTSV(data: Data(notARow.utf8), name: "standard input")
            }
        }
    }

    @Test("Reading a TSV whose header names the label, text or id column twice names the file, line and both columns, instead of reading the first",
          arguments: [("label\ttext\tText", "text", "2 and 3"), ("LABEL\tid\ttext\tlabel", "label", "1 and 4"), ("id\tlabel\tid\ttext", "id", "1 and 3")])
    func tsvHeaderNamingAColumnTwiceFails(header: String, name: String, columns: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("twice.tsv")
        try "\n\(header)\npositive\t1\tgreat\tnegative\n".write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try LabeledExample.readTSV(url.path)
        } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.line == 2 && !error.isMissing
                && error.description == "\(url.path):2: header names the \"\(name)\" column twice (columns \(columns)): which one to read is not clear"
        }
    }

    @Test("Reading a TSV with invalid UTF-8 names the line it is on")
    func tsvWithInvalidUTF8NamesTheLine() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("bad.tsv")
        try (Data("id\tlabel\ttext\n1\tpositive\tcafé\n2\tneutral\tna".utf8) + Data([0xFF]) + Data("ve\n".utf8)).write(to: url)
        #expect {
            try LabeledExample.readTSV(url.path)
        } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.line == 3 && error.reason == "not valid UTF-8" && !error.isMissing
        }
    }

    @Test("Reading a TSV keeps the tabs of a text in the last column, and splits other columns as before")
    func tsvTextKeepsItsTabs() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let last = folder.appendingPathComponent("last.tsv")
        try "id\tlabel\ttext\n1\tpositive\tgreat\tday\t\n2\tnegative\tbad\n".write(to: last, atomically: true, encoding: .utf8)
        let examples = try LabeledExample.readTSV(last.path)
        #expect(examples.map(\.text) == ["great\tday\t", "bad"])
        #expect(examples.map(\.label) == [.positive, .negative])

        let middle = folder.appendingPathComponent("middle.tsv")
        try "text\tlabel\tid\ngreat\tpositive\t7\n".write(to: middle, atomically: true, encoding: .utf8)
        let other = try LabeledExample.readTSV(middle.path)
        #expect(other.map(\.text) == ["great"] && other.first?.id == 7)
    }

    @Test("Reading a TSV whose text is not the last column refuses a line with more columns than the header, naming it, instead of cutting its text at the tab",
          arguments: ["\n", "\r\n"])
    func tsvTextBeforeAnotherColumnWithATabFails(lineEnd: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("middle.tsv")
        try ["label\ttext\tid", "positive\tgreat day\t1", "negative\tbad\tnews\t2", "neutral\tok\t3", ""]
            .joined(separator: lineEnd).write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try LabeledExample.readTSV(url.path)
        } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.line == 3 && !error.isMissing
                && error.reason == "expected 3 tab-separated columns, found 4 (a tab in a text is only kept when text is the last column)"
        }
    }

    @Test("Reading a TSV refuses a row with fewer columns than the header, naming it, instead of reading its missing id as none",
          arguments: [("label\ttext\tid\npositive\tgood\t5\nnegative\tbad\n", 3, "expected 3 tab-separated columns, found 2"),
                      ("id\tlabel\ttext\tsource\n5\tpositive\tgood\n", 2, "expected 4 tab-separated columns, found 3")])
    func tsvRowWithTooFewColumnsFails(contents: String, line: Int, reason: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("short.tsv")
        try contents.write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try LabeledExample.readTSV(url.path)
        } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.line == line && !error.isMissing && error.reason == reason
        }
    }

    @Test("Reading a TSV with Windows line ends, a byte order mark or capitalised column names gives the same examples as a plain one")
    func tsvWithCRLFAndByteOrderMark() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let plain = "label\ttext\tid\npositive\tgreat day\t1\nnegative\tbad\t\n\nneutral\tok\t3\n"
        var read: [[LabeledExample]] = []
        for (name, text) in [("plain", plain), ("crlf", plain.replacingOccurrences(of: "\n", with: "\r\n")),
                             ("bom", "\u{FEFF}" + plain), ("bom-crlf", "\u{FEFF}" + plain.replacingOccurrences(of: "\n", with: "\r\n")),
                             ("capitalised", plain.replacingOccurrences(of: "label\ttext\tid", with: "Label\tTEXT\tId"))] {
            let url = folder.appendingPathComponent("\(name).tsv")
            try text.write(to: url, atomically: true, encoding: .utf8)
            read.append(try LabeledExample.readTSV(url.path))
        }
        #expect(read[0].map(\.text) == ["great day", "bad", "ok"])
        #expect(read[0].map(\.id) == [1, nil, 3], "an empty id is none")
        for other in read.dropFirst() {
            #expect(other == read[0])
        }
    }

    @Test("A label with white space around it (\"positive \", as hand-edited or exported files have) is read as the label, as a column name with spaces around it is; the text keeps its own spaces")
    func labelsAreTrimmed() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("spaced.tsv")
        try " Label \ttext\npositive \t great day \n  Negative\tbad\n\u{00A0}neutral\u{3000}\tok\n".write(to: url, atomically: true, encoding: .utf8)
        let read = try LabeledExample.readTSV(url.path)
        #expect(read.map(\.label) == [.positive, .negative, .neutral])
        #expect(read.map(\.text) == [" great day ", "bad", "ok"])
        // Text before the label: the label is the last cell, its spaces ignored there too.
        let textFirst = try LabeledExample.readTSV(data: Data("text\tlabel\r\ngreat day\tpositive \r\n".utf8), name: "standard input")
        #expect(textFirst.map(\.label) == [.positive])
        // Only white space goes: a label that is still unknown is quoted as it was.
        #expect {
            try LabeledExample.readTSV(data: Data("label\ttext\npos itive \tgreat\n".utf8), name: "standard input")
        } throws: { error in
            (error as? DataFileError)?.reason == "unknown label \"pos itive \" (expected negative, neutral or positive)"
        }
    }

    @Test("An id with white space around it (\" 7\", \"7 \", as hand-edited or exported files have) is read as the id, as a label is, so its repeats are counted; an id cell of white space alone is a row without one, as an empty one is")
    func idsAreTrimmed() throws {
        let read = try LabeledExample.readTSV(data: Data("id\tlabel\ttext\n 7\tpositive\tgreat day\n7 \tnegative\tbad\n\u{00A0}8\u{3000}\tneutral\tok\n \tneutral\tno id\n9\tpositive\t 9 \n".utf8),
                                                name: "standard input")
        #expect(read.map(\.id) == [7, 7, 8, nil, 9])
        #expect(read.map(\.text) == ["great day", "bad", "ok", "no id", " 9 "], "the text keeps its spaces")
        #expect(read.repeatedIDCount == 1)
        // Only white space goes: an id that is still not a number is quoted as it was.
        #expect {
            try LabeledExample.readTSV(data: Data("id\tlabel\ttext\n 7 7 \tpositive\tgreat\n".utf8), name: "standard input")
        } throws: { error in
            (error as? DataFileError)?.reason.hasPrefix("id \" 7 7 \" is not a numeric tweet id") == true
        }
    }

    @Test("A text longer than maxTextBytes, counted in bytes of UTF-8, is refused naming its line, and one of that length is read; without a limit any length is read")
    func textLimit() throws {
        let data = Data("label\ttext\npositive\tgreat\n\nnegative\tcafé :(\n".utf8)  // "café :(" is 8 bytes
        #expect(try LabeledExample.readTSV(data: data, name: "standard input").map(\.text) == ["great", "café :("])
        #expect(try LabeledExample.readTSV(data: data, name: "standard input", maxTextBytes: 8).count == 2)
        #expect(throws: DataFileError(path: "standard input", line: 4, reason: "text of 8 bytes, over the limit of 7 bytes", isMissing: false)) {
            try LabeledExample.readTSV(data: data, name: "standard input", maxTextBytes: 7)
        }
        let long = Data(("label\ttext\npositive\t" + String(repeating: "a", count: (1 << 20) + 1) + "\n").utf8)
        #expect(throws: DataFileError(path: "standard input", line: 2, reason: "text of 1048577 bytes, over the limit of 1 MiB (1048576 bytes)",
                                      isMissing: false)) {
            try LabeledExample.readTSV(data: long, name: "standard input", maxTextBytes: 1 << 20)
        }
    }

    @Test("A TSV saved as UTF-16 with a byte order mark (Excel's Unicode Text), little- or big-endian, gives the examples its UTF-8 twin gives")
    func tsvInUTF16() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let plain = "label\ttext\tid\r\npositive\tgreat day 😍\t1\r\nnegative\tcafé was bad\t\r\n"
        let utf8 = folder.appendingPathComponent("utf8.tsv")
        try plain.write(to: utf8, atomically: true, encoding: .utf8)
        let expected = try LabeledExample.readTSV(utf8.path)
        #expect(expected.map(\.text) == ["great day 😍", "café was bad"])
        for (name, mark, bigEndian) in [("le", [UInt8]([0xFF, 0xFE]), false), ("be", [0xFE, 0xFF], true)] {
            let units = plain.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let url = folder.appendingPathComponent("\(name).tsv")
            try Data(mark + units).write(to: url)
            #expect(try LabeledExample.readTSV(url.path) == expected, "\(name)")
        }
    }

    @Test("A TSV saved as UTF-16 without a byte order mark, little- or big-endian, all ASCII or not, is refused saying so and how to convert it, not as a header of NULs or bad UTF-8",
          arguments: ["label\ttext\r\npositive\tgreat day\r\n", "label\ttext\r\npositive\tgreat day\r\nnegative\tcafé was bad 😢\r\n"])
    func tsvInUTF16WithoutMark(plain: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        for (name, bigEndian) in [("UTF-16LE", false), ("UTF-16BE", true)] {
            let units = plain.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let url = folder.appendingPathComponent("\(name).tsv")
            try Data(units).write(to: url)
            let order = bigEndian ? "big-endian" : "little-endian"
            for read in [{ try LabeledExample.readTSV(url.path) }, { try LabeledExample.readTSV(data: Data(units), name: "standard input") }] {
                #expect {
                    try read()
                } throws: { error in
                    guard let error = error as? DataFileError else { return false }
                    return error.line == nil && !error.isMissing
                        && error.reason == "looks like UTF-16 (\(order)) without a byte order mark, which is read only with one: "
                            + "convert it to UTF-8 first, as with `iconv -f \(name) -t UTF-8 in.tsv > out.tsv`"
                }
            }
        }
    }

    @Test("A UTF-16 TSV with half a surrogate pair is refused naming its line, as a UTF-8 one with a bad byte is")
    func tsvInUTF16WithLoneSurrogate() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("lone.tsv")
        let units = Array("label\ttext\npositive\tfine\nnegative\tcut ".utf16) + [0xD83D] + Array("\n".utf16)
        try Data([0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: url)
        #expect {
            try LabeledExample.readTSV(url.path)
        } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.line == 3 && error.reason == "not valid UTF-16 (half a surrogate pair)"
        }
    }

    @Test("A header without label and text shows a few of the columns it found, not the whole line")
    func tsvHeaderErrorIsShort() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("wide.tsv")
        try ((0..<100).map { "column\($0)" + String(repeating: "x", count: 100) }.joined(separator: "\t") + "\n")
            .write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try LabeledExample.readTSV(url.path)
        } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.line == 1 && error.reason.count < 600 && error.reason.hasSuffix("\"…\"]")
        }
    }

    @Test("Reading a TSV with an unknown label names the line")
    func tsvWithUnknownLabelFails() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("bad.tsv")
        try "id\tlabel\ttext\n1\tpositive\thi\n2\tmaybe\tho\n".write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try LabeledExample.readTSV(url.path)
        } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.line == 3 && error.reason.contains("maybe")
        }
    }

    @Test("Reading a TSV with an id that is not a numeric tweet id names the line, instead of reading the row as one without an id",
          arguments: ["abc", "12x", "-3", "+12", "7 7", " 7x ", "18446744073709551616"])
    func tsvWithNonNumericIDFails(id: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("ids.tsv")
        try "id\tlabel\ttext\n1\tpositive\thi\n\tneutral\tno id\n\(id)\tnegative\tho\n".write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try LabeledExample.readTSV(url.path)
        } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.line == 4 && !error.isMissing && error.reason.hasPrefix("id \"\(id)\" is not a numeric tweet id")
        }
    }

    @Test("Reading a TSV with an empty or blank text names the line, instead of scoring it as a text without words",
          arguments: ["", "   ", "\u{200B}"])
    func tsvWithBlankTextFails(text: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let url = folder.appendingPathComponent("blank.tsv")
        try "id\tlabel\ttext\n1\tpositive\thi\n2\tnegative\t\(text)\n".write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try LabeledExample.readTSV(url.path)
        } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.line == 3 && error.reason.contains("empty or blank text") && !error.isMissing
        }
    }

    @Test("Reading a TSV from a pipe (a FIFO, as process substitution gives) reads its examples; a device is refused, not read forever")
    func tsvFromAPipe() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let fifo = folder.appendingPathComponent("pipe.tsv").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            // Opening blocks until the reader opens the other end.
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data("id\tlabel\ttext\n1\tpositive\tgreat\n2\tnegative\tawful\n".utf8))
            try? handle.close()
        }
        writer.start()
        let examples = try LabeledExample.readTSV(fifo)
        #expect(examples.map(\.label) == [.positive, .negative])

        #expect {
            try LabeledExample.readTSV("/dev/zero")
        } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.isMissing && error.reason.contains("not a regular file or a pipe")
        }
    }
}
