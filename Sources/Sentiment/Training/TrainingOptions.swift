/// How `Trainer` fits a model.
public struct TrainingOptions: Sendable, Hashable {
    /// Feature settings of the model.
    public var features: FeatureSettings = .standard
    /// L2 regularization strength on the mean loss (biases are not regularized).
    public var l2: Double = 2e-5
    /// Most L-BFGS iterations per fit.
    public var maxIterations: Int = 300
    /// Stop when the objective improves by less than this, relatively, over 5 iterations.
    public var tolerance: Double = 1e-5
    /// Folds for the cross-fitted lexicon and the out-of-fold predictions that
    /// choose the temperature and the decision rule's prior exponent.
    public var folds: Int = 5
    /// How examples are dealt into folds.
    public var foldOrder: FoldOrder = .chronological
    /// Which out-of-fold scores the temperature is fitted to.
    public var calibration: CalibrationScores = .forward
    /// Seed of the fold assignment; training is deterministic for a seed.
    public var seed: UInt64 = 1
    /// Weight each class's examples by total/(3·class count) in the loss.
    public var balancedClassWeights: Bool = false
    /// Scale the sparse features by their naive Bayes log-count ratio raised
    /// to this power while training (NBSVM-style; see `NaiveBayesScale`); nil
    /// trains on the unscaled features. Scoring is the same either way.
    /// Power 1 was chosen by cross-validation (README, the model section).
    public var naiveBayesPower: Double? = 1
    /// The prior exponent α of the decision rule; nil chooses it by cross-validation.
    public var priorExponent: Double? = nil
    /// The largest `priorExponent` a fit takes: far beyond it the decision
    /// rule's class offsets (−α·log prior) leave a Float's range, and a model
    /// holding them is refused on loading.
    public static let maxPriorExponent = 1_000_000.0
    /// Learn the word-polarity lexicon behind the dense lexicon features
    /// (when false its table stays zero and those features are constant).
    public var learnsLexicon: Bool = true
    /// log2 of the lexicon table's size: 8 to 24.
    public var lexiconBits: Int = 18
    /// Threads (0: `AvailableCores.count`): featurizing uses this many, and
    /// this many fits run at once (`Trainer.fitsAtOnce`: no more than there are
    /// fits, or than half the memory holds). Each fit sums its gradient in a
    /// fixed number of blocks (`LogisticObjective.gradientBlocks`), so the
    /// weights are the same whatever this is.
    public var threads: Int = 0

    /// Default options.
    public init() {}

    /// Checks that a fit can use these options, naming the first bad value:
    /// the feature settings and a `lexiconBits` a model file can hold, at
    /// least one iteration, and a finite L2 strength, tolerance, prior
    /// exponent and naive Bayes power of 0 or more (a negative L2 makes the
    /// loss unbounded below, a NaN one fits NaN weights), the prior exponent
    /// no more than `maxPriorExponent`.
    public func validate() throws(ModelError) {
        try features.validate()
        guard Lexicon.bitsRange.contains(lexiconBits) else {
            throw .invalidSettings("lexiconBits \(lexiconBits) not in \(Lexicon.bitsRange)")
        }
        guard maxIterations >= 1 else { throw .invalidSettings("maxIterations \(maxIterations) is below 1") }
        func requireNonNegative(_ name: String, _ value: Double?) throws(ModelError) {
            guard let value, !(value.isFinite && value >= 0) else { return }
            throw .invalidSettings("\(name) \(value) is not a finite number of 0 or more")
        }
        try requireNonNegative("l2", l2)
        try requireNonNegative("tolerance", tolerance)
        try requireNonNegative("priorExponent", priorExponent)
        try requireNonNegative("naiveBayesPower", naiveBayesPower)
        if let priorExponent, priorExponent > Self.maxPriorExponent {
            throw .invalidSettings("priorExponent \(priorExponent) is above \(Int(Self.maxPriorExponent))")
        }
        guard threads >= 0 else { throw .invalidSettings("threads \(threads) is below 0 (0 means every core)") }
    }
}

/// How `Trainer` deals examples into cross-validation folds.
public enum FoldOrder: String, Sendable, Hashable, CaseIterable {
    /// Each class shuffled by the seed and dealt round-robin.
    case stratified
    /// Contiguous blocks in tweet-id (time) order, so each fold is scored by a
    /// model that did not see its period: the out-of-fold scores then show the
    /// drift that new tweets bring, and the temperature and decision rule chosen
    /// from them hold up better on later data. Copies of a tweet (examples with
    /// one id) stay in one fold, so no fold is scored on a tweet it trained on;
    /// a tweet with so many copies that a fold would hold none leaves fewer
    /// folds (or none), which `Trainer.train` logs.
    /// Examples without an id fall back to `stratified`.
    case chronological
}

/// Which out-of-fold scores `Trainer` fits the softmax temperature to.
public enum CalibrationScores: String, Sendable, Hashable, CaseIterable {
    /// The usual cross-validation scores: each fold scored by a model trained
    /// on all the other folds, earlier and later.
    case pooled
    /// Forward chaining over chronological folds: fold k scored by a model
    /// trained on folds 0..<k only, as the shipped model will score tweets
    /// written after its training data. Models that predict the future are
    /// less sure than they think, and the temperature fitted here says how much.
    /// With stratified folds (no time order) this is the same as `pooled`,
    /// and `Trainer.train` logs that it is.
    case forward
}
