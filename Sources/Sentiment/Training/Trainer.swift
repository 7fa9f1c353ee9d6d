import Dispatch
import Foundation

/// Fits a `SentimentModel` to labelled tweets.
///
/// 1. Folds: examples are split into `options.folds` folds, contiguous blocks
///    in tweet-id (time) order by default, or stratified by a seeded shuffle
///    (see `FoldOrder`); training is deterministic for a seed.
/// 2. Lexicon, cross-fitted: each fold's dense lexicon features come from a
///    lexicon learned on the other folds; the shipped lexicon is learned on all.
/// 3. Out-of-fold scores: one model per fold, trained on the other folds,
///    scores its fold. From those scores come the softmax temperature (least
///    log-loss) and the decision rule's prior exponent α (the one-standard-error
///    rule over the folds' macro-recall, see `Calibration.fitPriorExponent`).
///    With `CalibrationScores.forward` (the default) and chronological folds,
///    the temperature comes instead from forward chaining: fold k scored by a
///    model trained on the folds before it, as tweets newer than the training
///    data will be; with stratified folds it comes from the pooled scores, and
///    `train`'s log says so.
/// 4. The final model is trained on every example with L-BFGS.
///
/// No fit needs another's result, so all of them (the folds', forward
/// chaining's and the final model's) run side by side, as many at once as
/// `options.threads` (see `fitsAtOnce`); each is deterministic on its own.
public struct Trainer: Sendable {
    /// The options.
    public let options: TrainingOptions

    /// A trainer with `options`.
    public init(options: TrainingOptions = TrainingOptions()) {
        self.options = options
    }

    /// What `train` made.
    public struct Result: Sendable {
        /// The trained model (not yet saved).
        public var model: SentimentModel
        /// Out-of-fold evaluation on the training data (nil with fewer than 2 folds).
        public var crossValidation: Evaluation?
    }

    /// Trains on `examples`. `name` and `version` make the model's id;
    /// `trainFile`, `trainSHA256` and `command` are recorded in the manifest
    /// as what it was trained on; `log` hears progress lines.
    ///
    /// - Throws: `ModelError.invalidSettings` for options a fit cannot use
    ///   (see `TrainingOptions.validate`);
    ///   `TrainingError.noExamples` for an empty set, `TrainingError.oneClass`
    ///   when every example has the same label (such a model would give that
    ///   label probability 1 whatever the text), `TrainingError.diverged` when
    ///   a fit's loss or weights are not finite numbers.
    public func train(_ examples: [LabeledExample], name: String = "default", version: String = "1.0.0",
                      trainFile: String = "", trainSHA256: String = "", command: String = "",
                      log: (String) -> Void = { _ in }) throws -> Result {
        // Checked here, not first by `save`'s reload (or a trap) after a whole training.
        try options.validate()
        guard let first = examples.first else { throw TrainingError.noExamples }
        guard examples.contains(where: { $0.label != first.label }) else { throw TrainingError.oneClass(first.label) }
        let threads = options.threads > 0 ? options.threads : AvailableCores.count
        let settings = options.features
        let classCounts = SentimentLabel.allCases.map { label in examples.count { $0.label == label } }
        let absent = SentimentLabel.allCases.filter { classCounts[$0.index] == 0 }.map(\.rawValue)
        if !absent.isEmpty {
            log("warning: no example is labelled \(absent.joined(separator: " or ")): the model learns "
                + "never to predict \(absent.count == 1 ? "it" : "them"), and its metrics count \(absent.count == 1 ? "that class" : "those classes") as missed")
        }
        let repeated = examples.repeatedIDCount
        if repeated > 0 {
            log("\(repeated) example\(repeated == 1 ? " repeats" : "s repeat") an earlier one's tweet id, each trained on all the same")
        }
        // Three examples a fold at least (divided, not multiplied: any `folds` is valid).
        let possible = options.folds >= 2 && examples.count / 3 >= options.folds ? options.folds : 1
        let fold = Self.assignFolds(examples, folds: possible, order: options.foldOrder, seed: options.seed)
        // Fewer when a tweet's copies, kept in one chronological fold, fill where another would be.
        let folds = (fold.max() ?? 0) + 1
        if folds < possible {
            var copies: [UInt64: Int] = [:]
            for case let id? in examples.lazy.map(\.id) { copies[id, default: 0] += 1 }
            let most = copies.max { ($0.value, $1.key) < ($1.value, $0.key) }!
            log("\(folds < 2 ? "no cross-validation" : "\(folds) chronological folds, not \(possible)"): tweet id \(most.key) is on "
                + "\(most.value) of the \(examples.count) examples, and a tweet's copies share a fold, so \(possible - folds) of "
                + "\(possible) folds would hold no example")
        }

        // Lexicons: one per fold (from the other folds) and one from everything.
        let counter = LexiconCounter(bits: options.lexiconBits, folds: folds, settings: settings)
        let counts = counter.count(examples, fold: fold)
        let empty = Lexicon.empty(bits: options.lexiconBits)
        let fullLexicon = options.learnsLexicon ? counts.lexicon(excluding: nil) : empty
        // Without folds (or without a lexicon) the training features see the lexicon
        // the model ships with, so training and scoring agree.
        let foldLexicons = folds >= 2 && options.learnsLexicon ? (0..<folds).map { counts.lexicon(excluding: $0) } : [Lexicon](repeating: fullLexicon, count: folds)
        let extractors = foldLexicons.map { FeatureExtractor(settings: settings, lexicon: $0) }
        // Say so when the folds cannot be what the options asked for.
        if options.folds >= 2, possible == 1 {
            let needed = options.folds.multipliedReportingOverflow(by: 3)
            let least = needed.overflow ? "three times as many" : "at least \(needed.partialValue)"
            log("no cross-validation: \(options.folds) folds need \(least) examples, the data has \(examples.count)")
        }
        let chronological = folds >= 2 && Self.isChronological(examples, order: options.foldOrder)
        if folds >= 2, options.foldOrder == .chronological, !chronological {
            let missing = examples.count { $0.id == nil }
            log("stratified folds: \(missing) example\(missing == 1 ? " has" : "s have") no numeric tweet id, so the folds cannot follow time"
                + (options.calibration == .forward ? " and the temperature is fitted to pooled scores" : ""))
        }
        if folds >= 2, options.foldOrder == .stratified, options.calibration == .forward {
            log("stratified folds: forward calibration needs chronological ones, so the temperature is fitted to pooled scores")
        }
        let foldKind = folds < 2 ? "1 fold" : "\(folds) \(chronological ? "chronological" : "stratified") folds"
        log("featurizing \(examples.count) examples (\(foldKind), \(threads) threads)")
        var set = TrainingSet.build(examples, threads: threads, extractor: { extractors[fold[$0]] })
        let (mean, scale) = set.denseMoments()
        set.standardize(mean: mean, scale: scale)
        log("\(set.indices.count) sparse features, \(String(format: "%.1f", Double(set.indices.count) / Double(set.count))) per example")

        let classWeights = options.balancedClassWeights
            ? classCounts.map { $0 == 0 ? 0 : Double(examples.count) / (3 * Double($0)) }
            : [1, 1, 1]
        // The decision rule weighs a class by 1/prior^α. A class no example has is
        // counted as prior 1, the least weight: a floor of one example gave it the
        // most, so that a fit which had not yet driven it to 0 predicted it for most texts.
        let priors = classCounts.map { $0 == 0 ? 1 : Double($0) / Double(examples.count) }

        // Every fit, side by side as far as the cores and memory allow: one a fold
        // (its out-of-fold scores), one a later fold under forward chaining, and
        // the final model on everything. No fit depends on another's result.
        let forward = folds >= 2 && options.calibration == .forward && chronological
        var fits: [Fit] = []
        if folds >= 2 {
            for k in 0..<folds {
                fits.append(Fit(kind: .fold(k), trainRows: fold.indices.filter { fold[$0] != k },
                                testRows: fold.indices.filter { fold[$0] == k }))
            }
        }
        if forward {
            for k in 1..<folds {
                fits.append(Fit(kind: .forward(k), trainRows: fold.indices.filter { fold[$0] < k },
                                testRows: fold.indices.filter { fold[$0] == k }))
            }
        }
        fits.append(Fit(kind: .final, trainRows: Array(examples.indices), testRows: []))
        let width = Self.fitsAtOnce(threads: threads, fits: fits.count,
                                    parameters: LogisticObjective.parameterCount(buckets: options.features.buckets),
                                    nonzeros: set.indices.count, memory: AvailableMemory.bytes)
        log("\(fits.count) fit\(fits.count == 1 ? "" : "s"), \(width) at a time")
        let outcomes = try runFits(fits, set: set, classWeights: classWeights, width: width) { fit, outcome in
            switch fit.kind {
            case .fold(let k):
                log("fold \(k + 1)/\(folds): \(outcome.report.iterations) iterations, objective \(String(format: "%.5f", outcome.report.objective))")
            case .forward(let k):
                log("forward \(k)/\(folds - 1): folds 1–\(k) → fold \(k + 1), \(outcome.report.iterations) iterations")
            case .final:
                break  // said after the cross-validation
            }
        }

        // Out-of-fold scores → temperature and prior exponent.
        var temperature = 1.0
        var priorExponent = options.priorExponent ?? 1.0
        var crossValidation: Evaluation?
        if folds >= 2 {
            var outOfFold = [Double](repeating: 0, count: 3 * examples.count)
            var forwardLogits: [Double] = []
            var forwardRows: [Int] = []
            for (fit, outcome) in zip(fits, outcomes) {
                switch fit.kind {
                case .fold:
                    for (j, i) in fit.testRows.enumerated() {
                        outOfFold[(3 * i)..<(3 * i + 3)] = outcome.logits[(3 * j)..<(3 * j + 3)]
                    }
                case .forward:
                    forwardLogits += outcome.logits
                    forwardRows += fit.testRows
                case .final:
                    break
                }
            }
            let gold = examples.map(\.label)
            temperature = Calibration.fitTemperature(logits: outOfFold, gold: gold)
            var fitted = (logits: outOfFold, gold: gold)  // the scores the temperature is fitted to
            if forward {
                let forwardGold = forwardRows.map { gold[$0] }
                let pooledTemperature = temperature
                temperature = Calibration.fitTemperature(logits: forwardLogits, gold: forwardGold)
                fitted = (forwardLogits, forwardGold)
                let alpha = options.priorExponent ?? 1
                let before = Calibration.evaluate(logits: forwardLogits, gold: forwardGold,
                                                  rule: Calibration.rule(temperature: pooledTemperature, priorExponent: alpha, priors: priors))
                let after = Calibration.evaluate(logits: forwardLogits, gold: forwardGold,
                                                 rule: Calibration.rule(temperature: temperature, priorExponent: alpha, priors: priors))
                log(String(format: "forward chaining: temperature %.3f (pooled folds: %.3f); ECE on later folds %.4f with it, %.4f with the pooled one",
                           temperature, pooledTemperature, after.expectedCalibrationError, before.expectedCalibrationError))
            }
            if let warning = Calibration.temperatureBoundWarning(temperature, logits: fitted.logits, gold: fitted.gold) { log(warning) }
            if options.priorExponent == nil {
                priorExponent = Calibration.fitPriorExponent(logits: outOfFold, gold: gold, fold: fold, folds: folds,
                                                              temperature: temperature, priors: priors)
            }
            let rule = Calibration.rule(temperature: temperature, priorExponent: priorExponent, priors: priors)
            crossValidation = Calibration.evaluate(logits: outOfFold, gold: gold, rule: rule)
            log(String(format: "cross-validation: macro-recall %.4f, accuracy %.4f, macro-F1 %.4f, ECE %.4f (temperature %.3f, α %.2f)",
                       crossValidation!.macroRecall, crossValidation!.accuracy, crossValidation!.macroF1,
                       crossValidation!.expectedCalibrationError, temperature, priorExponent))
            let byFold = Calibration.foldMacroRecalls(logits: outOfFold, gold: gold,
                                                      members: Calibration.foldMembers(fold: fold, folds: folds), rule: rule)
            log("cross-validation by fold: macro-recall " + byFold.map { String(format: "%.4f", $0) }.joined(separator: ", ")
                + String(format: " (standard error %.4f)", Calibration.standardError(byFold)))
        }

        // The final model on everything.
        let final = outcomes[outcomes.count - 1]
        guard let (theta, objective) = final.weights else { preconditionFailure("the final fit keeps its weights") }
        let report = final.report
        log("final model: \(report.iterations) iterations, \(report.evaluations) evaluations in \(String(format: "%.1f", report.seconds)) s, objective \(String(format: "%.5f", report.objective))")

        let denseRange = TrainingSet.denseRange(examples, extractor: FeatureExtractor(settings: settings, lexicon: fullLexicon))
        var letters: LetterModel?
        if examples.count >= LetterModel.minimumTrainingTexts {
            letters = LetterModel.learn(from: examples.lazy.map(\.text), settings: settings)
            if folds >= 2 {
                let flagged = LetterModel.heldOutFlags(examples, fold: fold, folds: folds, settings: settings)
                log("language test: a letter model learned from the other folds puts \(flagged) of \(examples.count) training texts in another language that the stopwords did not")
            }
        } else {
            log("language test: no letter model (it needs \(LetterModel.minimumTrainingTexts) training texts, the data has \(examples.count)); stopwords and scripts only")
        }
        var weights = ModelWeights.zeros(bucketBits: settings.bucketBits, lexicon: fullLexicon)
        // The sparse weights are the fitted ones times the naive Bayes scale,
        // in Float, then quantized to 16 bits (`SparseWeights`).
        let sparse = objective.sparseWeights(theta)
        guard sparse.allSatisfy(\.isFinite) else { throw TrainingError.diverged(fit: "final model", objective: report.objective) }
        weights.sparse = SparseWeights(quantizing: sparse)
        for k in 0..<(3 * DenseFeature.count) { weights.dense[k] = Float(theta[objective.denseOffset + k]) }
        for c in 0..<3 { weights.bias[c] = Float(theta[objective.biasOffset + c]) }
        weights.denseMean = mean
        weights.denseScale = scale

        var metrics: [String: ModelManifest.MetricsRecord] = [:]
        if let cv = crossValidation {
            metrics["cv"] = .init(file: trainFile, count: cv.count, macroRecall: cv.macroRecall, accuracy: cv.accuracy,
                                  macroF1: cv.macroF1, expectedCalibrationError: cv.expectedCalibrationError)
        }
        let manifest = ModelManifest(
            format: ModelManifest.formatName, formatVersion: ModelManifest.currentFormatVersion,
            name: name, version: version,
            labels: SentimentLabel.allCases.map(\.rawValue),
            features: settings, dense: DenseFeature.allCases.map(\.name), denseRange: denseRange, lexiconBits: options.lexiconBits,
            weights: .init(file: ModelDirectory.weightsName, bytes: 0, sha256: Self.weightsDigest(weights)),
            letters: letters.map { .init(file: LetterModel.fileName, bytes: $0.fileBytes.count,
                                         sha256: ModelDirectory.sha256(Data($0.fileBytes))) },
            decision: Calibration.rule(temperature: temperature, priorExponent: priorExponent, priors: priors),
            training: .init(trainFile: trainFile, trainSHA256: trainSHA256, classCounts: classCounts, l2: options.l2,
                            iterations: report.iterations, seed: options.seed, priorExponent: priorExponent,
                            command: command, date: ISO8601DateFormatter().string(from: Date()),
                            naiveBayesPower: options.naiveBayesPower),
            metrics: metrics)
        return Result(model: SentimentModel(manifest: manifest, weights: weights, letters: letters, directory: nil),
                      crossValidation: crossValidation)
    }

    /// One fit of a training: the rows it is trained on and the rows it scores.
    struct Fit: Sendable {
        enum Kind: Sendable {
            /// Fold k's out-of-fold scores: trained on the other folds.
            case fold(Int)
            /// Forward chaining: fold k scored by a model of folds 0..<k.
            case forward(Int)
            /// The model shipped: trained on every example, scoring none.
            case final
        }

        var kind: Kind
        var trainRows: [Int]
        var testRows: [Int]

        /// The name its error gives ("fold 2 fit").
        var name: String {
            switch kind {
            case .fold(let k): "fold \(k + 1) fit"
            case .forward(let k): "forward \(k) fit"
            case .final: "final model"
            }
        }
    }

    /// What a fit gave: three logits a test row, in order, and for the final
    /// model its weights and objective.
    struct FitOutcome {
        var logits: [Double]
        var report: LBFGS.Report
        var weights: (theta: [Double], objective: LogisticObjective)?
    }

    /// Runs `fits`, `width` at a time, the largest first; `finished` hears each
    /// outcome as its fit ends (so in the order they end), and the outcomes
    /// come back in the order of `fits`. Throws the error of the first fit (in
    /// that order) that failed.
    private func runFits(_ fits: [Fit], set: TrainingSet, classWeights: [Double], width: Int,
                         finished: (Fit, FitOutcome) -> Void) throws(TrainingError) -> [FitOutcome] {
        let schedule = fits.indices.sorted { (-fits[$0].trainRows.count, $0) < (-fits[$1].trainRows.count, $1) }
        let results = FitQueue<FitOutcome, TrainingError>.run(count: fits.count, width: width, schedule: schedule,
            body: { index in
                let fit = fits[index]
                let objective = makeObjective(set: set, rows: fit.trainRows, classWeights: classWeights)
                do throws(TrainingError) {
                    let (theta, report) = try self.fit(objective, name: fit.name)
                    var logits = [Double]()
                    logits.reserveCapacity(3 * fit.testRows.count)
                    theta.withUnsafeBufferPointer { theta in
                        for i in fit.testRows {
                            let z = objective.logits(row: i, theta: theta.baseAddress!)
                            logits += [z.0, z.1, z.2]
                        }
                    }
                    let keeps = if case .final = fit.kind { true } else { false }
                    return .success(FitOutcome(logits: logits, report: report, weights: keeps ? (theta, objective) : nil))
                } catch {
                    return .failure(error)
                }
            },
            finished: { index, outcome in finished(fits[index], outcome) })
        var outcomes: [FitOutcome] = []
        for result in results {
            switch result {
            case .success(let outcome)?: outcomes.append(outcome)
            case .failure(let error)?: throw error
            case nil: continue  // not started after a failure, which a later result holds
            }
        }
        return outcomes
    }

    /// How many fits to run at once: one a thread (each fit's gradient is summed
    /// in `LogisticObjective.gradientBlocks` blocks, and L-BFGS's vector steps
    /// between its gradients run on one core, so two fits on two cores finish
    /// sooner than one after the other), no more than there are fits, and no more
    /// than half the memory holds (a fit holds L-BFGS's 2·10 correction vectors
    /// and about twelve more of the parameters' size, counting the objective's
    /// `GradientBuffers`, and its scaled copy of the sparse values: at most,
    /// since L-BFGS's vectors hold only the parameters the fit's rows reach,
    /// `PackedParameters`).
    static func fitsAtOnce(threads: Int, fits: Int, parameters: Int, nonzeros: Int, memory: UInt64) -> Int {
        let bytesPerFit = UInt64(parameters) * UInt64(8 * (2 * LBFGS().memory + 12) + 12) + UInt64(nonzeros) * 4
        let byMemory = Int(min(memory / 2 / max(bytesPerFit, 1), UInt64(Int.max)))
        return max(1, min(threads, fits, byMemory))
    }

    /// Whether `assignFolds` cuts these examples in time order.
    static func isChronological(_ examples: [LabeledExample], order: FoldOrder) -> Bool {
        order == .chronological && examples.allSatisfy { $0.id != nil }
    }

    /// The objective over `rows`, with the sparse features scaled by the
    /// naive Bayes ratios of those rows when `options.naiveBayesPower` is set.
    private func makeObjective(set: TrainingSet, rows: [Int], classWeights: [Double]) -> LogisticObjective {
        let buckets = options.features.buckets
        let scale = options.naiveBayesPower.map { NaiveBayesScale.scales(set: set, rows: rows, buckets: buckets, power: $0) }
        return LogisticObjective(set: set, rows: rows, classWeights: classWeights, l2: options.l2,
                                 buckets: buckets, scale: scale)
    }

    /// Fits `objective` from zero weights; `name` ("fold 2 fit") is for the error.
    ///
    /// - Throws: `TrainingError.diverged` when the loss or a weight ends up NaN
    ///   or infinite; when no step lowered the loss, or every weight stays
    ///   within ``untrainedWeight`` of zero, `TrainingError.nothingToLearn`
    ///   if zero weights are already the lowest loss (`isFlatAtZero`), else
    ///   `TrainingError.stalled`.
    private func fit(_ objective: LogisticObjective, name: String) throws(TrainingError) -> ([Double], LBFGS.Report) {
        // L-BFGS moves only the parameters the rows reach (`PackedParameters`);
        // the objective reads and writes the full vectors.
        let packing = PackedParameters(count: objective.parameterCount, keeps: objective.movableParameters())
        var packed = [Double](repeating: 0, count: packing.packedCount)
        var theta = [Double](repeating: 0, count: objective.parameterCount)
        var fullGradient = [Double](repeating: 0, count: objective.parameterCount)
        let buffers = objective.makeBuffers()
        let optimizer = LBFGS(maxIterations: options.maxIterations, tolerance: options.tolerance)
        var evaluations = 0
        let started = DispatchTime.now().uptimeNanoseconds
        var report = optimizer.minimize(&packed) { x, gradient in
            evaluations += 1
            packing.unpack(x, into: &theta)
            let loss = objective.evaluate(theta, gradient: &fullGradient, buffers: buffers)
            packing.pack(fullGradient, into: &gradient)
            return loss
        }
        packing.unpack(packed, into: &theta)
        report.evaluations = evaluations
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard report.objective.isFinite, theta.allSatisfy(\.isFinite) else {
            throw .diverged(fit: name, objective: report.objective)
        }
        // Steps of rounding's size (a gradient of 10⁻⁸ where it is 0) leave the weights untrained as surely as none.
        guard report.steps > 0, theta.contains(where: { abs($0) > Self.untrainedWeight }) else {
            throw objective.isFlatAtZero() ? .nothingToLearn(fit: name, objective: report.objective)
                                           : .stalled(fit: name, objective: report.objective)
        }
        return (theta, report)
    }

    /// The largest weight of a fit that is taken as untrained: every class's
    /// probability within about 10⁻⁶ of 1/3 for any tweet.
    static let untrainedWeight = 1e-6

    /// The fold of each example (see `FoldOrder`). Chronological folds keep the
    /// copies of a tweet (examples with one id) together, in the fold of the
    /// first, so no fold is tested on a tweet its model was trained on; with
    /// unique ids they are equal blocks in id order. A run of copies that
    /// reaches past where the next fold would end leaves that fold out, and
    /// the later folds are numbered on, so every fold from 0 to the largest
    /// holds an example (fewer than `folds` of them, maybe one).
    static func assignFolds(_ examples: [LabeledExample], folds: Int, order: FoldOrder = .stratified, seed: UInt64) -> [Int] {
        var fold = [Int](repeating: 0, count: examples.count)
        guard folds >= 2 else { return fold }
        if isChronological(examples, order: order) {
            let byTime = examples.indices.sorted { (examples[$0].id!, $0) < (examples[$1].id!, $1) }
            var block = 0  // the equal block (position × folds / count) that the last fold began in
            for (position, i) in byTime.enumerated() where position > 0 {
                let previous = fold[byTime[position - 1]]
                // Copies sort side by side: a boundary inside their run moves to its end.
                if examples[i].id == examples[byTime[position - 1]].id {
                    fold[i] = previous
                } else {
                    let k = position * folds / examples.count
                    fold[i] = k == block ? previous : previous + 1
                    block = k
                }
            }
            return fold
        }
        var generator = SplitMix64(seed: seed)
        for label in SentimentLabel.allCases {
            var members = examples.indices.filter { examples[$0].label == label }
            members.shuffle(using: &generator)
            for (position, i) in members.enumerated() { fold[i] = position % folds }
        }
        return fold
    }

    static func weightsDigest(_ weights: ModelWeights) -> String {
        ModelDirectory.sha256(Data(WeightsFile.encode(weights)))
    }
}

/// Why training could not start.
public enum TrainingError: Sendable, DescribedError {
    /// The training set is empty.
    case noExamples
    /// Every example has this label: a model needs at least two classes to tell apart.
    case oneClass(SentimentLabel)
    /// A fit's loss (or a weight) became NaN or infinite, so the weights mean
    /// nothing: options that scale the features or the loss beyond floating
    /// point (a huge character weight or naive Bayes power) do this.
    case diverged(fit: String, objective: Double)
    /// A fit took no step: from zero weights, no step along the descent
    /// direction lowered the loss in floating point (or only steps that left
    /// every weight within `Trainer.untrainedWeight` of zero), so the weights
    /// would be untrained (every class 1/3). Options that scale the features so far that
    /// the loss cannot move (a huge character weight) do this.
    case stalled(fit: String, objective: Double)
    /// A fit took no step because there was none to take: at zero weights the
    /// gradient is 0 but for rounding, so the start (every class 1/3) is
    /// already the lowest loss. The data does this, not the options: no row's
    /// features tell the classes apart (every row the same text, its classes
    /// equally split).
    case nothingToLearn(fit: String, objective: Double)

    public var description: String {
        switch self {
        case .noExamples: "no training examples"
        case .oneClass(let label): "every training example is \(label.rawValue): training needs at least two classes"
        case .diverged(let fit, let objective):
            "training diverged: the \(fit)'s loss (\(objective)) or a weight is not a finite number; options too large for floating point, such as the naive Bayes power, do this"
        case .stalled(let fit, let objective):
            "training made no progress: no step lowered the \(fit)'s loss from its start (\(objective)), so its weights would be untrained; options too large for floating point, such as the L2 strength or the naive Bayes power, do this"
        case .nothingToLearn(let fit, let objective):
            "training made no progress: the \(fit)'s loss is at its lowest where it starts (\(objective), every class 1/3), so its weights would be untrained; the data does this, not the options: no row's features tell the classes apart (as when every row holds the same text and the classes are equally split)"
        }
    }
}

/// A small, fast, seedable generator (splitmix64) so shuffles are the same on every platform.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return FeatureHash.mix(state &- 0x9E37_79B9_7F4A_7C15)
    }
}
