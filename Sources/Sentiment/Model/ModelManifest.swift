/// The JSON manifest of a model directory (`manifest.json`): what the model is,
/// how to compute its features, how to decide, where its weights are, what it
/// was trained on and how it scored.
///
/// ```json
/// { "format": "swift-sentiment-model", "formatVersion": 2, "name": "default", "version": "1.0.0",
///   "labels": ["negative", "neutral", "positive"],
///   "features": { "bucketBits": 20, "hashSeed": 6795…, "wordNgrams": 2, … },
///   "dense": ["allCapsWords", …], "lexiconBits": 18,
///   "weights": { "file": "weights.bin", "bytes": 8389132, "sha256": "…" },
///   "decision": { "temperature": 1.0, "classOffsets": [0.9, 0.1, 0.4] },
///   "training": { … }, "metrics": { "dev": { … } } }
/// ```
public struct ModelManifest: Sendable, Hashable, Codable {
    /// Always `"swift-sentiment-model"`.
    public var format: String
    /// The manifest and weights format version (`ModelManifest.currentFormatVersion`).
    public var formatVersion: Int
    /// The model's name ("default").
    public var name: String
    /// The model's version; with the weights' checksum it keys cached classifications.
    public var version: String
    /// Class labels in score order; always negative, neutral, positive.
    public var labels: [String]
    /// Feature settings the weights were trained with.
    public var features: FeatureSettings
    /// Names of the dense features, in column order.
    public var dense: [String]
    /// The range of each dense feature over the training set, which scoring
    /// holds texts to (`DenseRange`); absent in models trained before it was
    /// recorded, whose dense values are used as they come.
    public var denseRange: DenseRange? = nil
    /// log2 of the learned lexicon's size.
    public var lexiconBits: Int
    /// The weights file.
    public var weights: WeightsReference
    /// The letter model of the language test (`letters.bin`); absent in
    /// models trained before it, whose language test reads stopwords and
    /// scripts only.
    public var letters: WeightsReference? = nil
    /// How probabilities and the label are made from the scores.
    public var decision: DecisionRule
    /// How the model was trained.
    public var training: TrainingRecord?
    /// How the model scored, by data set name ("dev", "cv").
    public var metrics: [String: MetricsRecord]

    /// The format version this build writes (2: 16-bit sparse weights; see
    /// `readableFormatVersions`).
    public static let currentFormatVersion = 2
    /// The format versions this build reads. A format 1 model's Float sparse
    /// weights are quantized to 16 bits as they load, as training quantizes
    /// them, so its predictions can differ from those of the builds that
    /// wrote format 1 in the fourth decimal, and its id differs from theirs.
    public static let readableFormatVersions = 1...2
    /// The value of `format`.
    public static let formatName = "swift-sentiment-model"

    /// Where a file of the model is and how to check it.
    public struct WeightsReference: Sendable, Hashable, Codable {
        /// File name inside the model directory: a plain name, which loading
        /// refuses when it is empty, "." or "..", or holds a "/".
        public var file: String
        /// Its length in bytes.
        public var bytes: Int
        /// Lower-case hex SHA-256 of the whole file.
        public var sha256: String
    }

    /// The decision rule: `p = softmax(z / temperature)` and
    /// `label = argmax_c (z_c / temperature + classOffsets[c])`.
    ///
    /// The offsets are `-α·log(prior_c)`: choosing the class with the largest
    /// p(c|x)/prior(c)^α maximises macro-averaged recall when α = 1 (it is the
    /// Bayes rule for balanced error) without bending the probabilities, which
    /// stay calibrated. α is chosen by cross-validation on the training data.
    public struct DecisionRule: Sendable, Hashable, Codable {
        /// Softmax temperature fitted for calibration (1 = none).
        public var temperature: Double
        /// Added to each class's tempered score before the argmax.
        public var classOffsets: [Double]

        /// Plain argmax of the probabilities.
        public static let argmax = DecisionRule(temperature: 1, classOffsets: [0, 0, 0])

        /// The temperatures a model file may hold (`train` fits one in ¼…4).
        public static let temperatureRange: ClosedRange<Double> = 0.001...1000

        /// Whether a model file may hold this rule: a temperature in
        /// `temperatureRange` and three offsets that are finite as Floats
        /// (scores are tempered and offset in Float: beyond its range every
        /// probability would be NaN).
        var isUsable: Bool {
            classOffsets.count == 3 && Self.temperatureRange.contains(temperature) && classOffsets.allSatisfy { Float($0).isFinite }
        }
    }

    /// What the model was trained on and how.
    public struct TrainingRecord: Sendable, Hashable, Codable {
        /// The training file as given.
        public var trainFile: String
        /// Its SHA-256.
        public var trainSHA256: String
        /// Tweets used per class (negative, neutral, positive).
        public var classCounts: [Int]
        /// L2 regularization strength.
        public var l2: Double
        /// Optimizer iterations run.
        public var iterations: Int
        /// Random seed (fold assignment).
        public var seed: UInt64
        /// The prior-correction exponent α of the decision rule.
        public var priorExponent: Double
        /// The command line that trained it.
        public var command: String
        /// When it was trained (ISO 8601).
        public var date: String
        /// The power of the naive Bayes scaling the sparse features were trained
        /// with (see `TrainingOptions.naiveBayesPower`); absent when unscaled.
        public var naiveBayesPower: Double?
    }

    /// Metrics of the model on one data set.
    public struct MetricsRecord: Sendable, Hashable, Codable {
        /// The data set as given.
        public var file: String
        /// Tweets scored.
        public var count: Int
        /// Mean of the three per-class recalls (the task's metric).
        public var macroRecall: Double
        /// Share of correct labels.
        public var accuracy: Double
        /// Mean of the per-class F1 scores.
        public var macroF1: Double
        /// Expected calibration error of the top probability (15 equal-width bins).
        public var expectedCalibrationError: Double
    }
}
