/// Why the model labelled a text as it did: the tokens it saw and the
/// features that pushed each class most, towards it and away from it.
public struct Explanation: Sendable {
    /// One feature's push on the three classes.
    public struct Contribution: Sendable, Hashable {
        /// The feature as text: a word ("good", "good_NEG" in a negation
        /// scope), a hashtag ("#fail"), a bigram ("not bad"), a character
        /// n-gram inside a word ("char:<lov", "char:the", apart from the word
        /// "the"), or a dense feature ("dense:exclamations").
        public var feature: String
        /// Its push on each class's score, relative to the mean of the three
        /// (so they sum to zero): positive means "towards this class".
        public var push: ClassScores
        /// For a dense feature, its value in the text (held to the range it
        /// took in training; for a text read in segments, their weighted
        /// mean); nil for a sparse feature. A dense feature pushes by how far
        /// it is from `trainingMean`, so one the text lacks pushes too: a
        /// text with no URL, by `hasURL` 0 being below its mean.
        public var value: Double?
        /// For a dense feature, its mean over the training tweets; nil for a sparse one.
        public var trainingMean: Double?
    }

    /// The tokens, as the tokenizer produced them.
    public var tokens: [Token]
    /// The prediction.
    public var prediction: Prediction
    /// For each class, the features that pushed towards it most, strongest first.
    public var strongest: [SentimentLabel: [Contribution]]
    /// For each class, the features that pushed away from it most (a push on
    /// it below zero), strongest first: what spoke against it, as "awful"
    /// against positive in "the food was great but the service was awful".
    /// A push away from one class is a push towards the others (the three
    /// sum to zero), so a feature here is under `strongest` of another class:
    /// there, the word "great" pushes positive up and neutral down about as
    /// much, and is against neutral, not negative.
    public var against: [SentimentLabel: [Contribution]]
    /// The model's bias, relative to the mean of the three: its lean before
    /// any feature (the shipped model's is towards neutral).
    public var bias: ClassScores
    /// The scores the probabilities come from, relative to the mean of the
    /// three: the bias plus every feature's push (not only those listed in
    /// `strongest`). The probabilities are their softmax at the model's
    /// temperature (`ModelManifest.DecisionRule.temperature`).
    public var scores: ClassScores
    /// How many pieces the text was read in: 1, or for a text of more than
    /// `TextSegments.wholeLimit` bytes its tweet-sized segments, whose
    /// features were averaged (each weighted by its length), so each push
    /// above is that mean.
    public var segments: Int
}

extension SentimentModel {
    /// Explains the model's decision on `text`: its tokens and, for each class,
    /// the `limit` features that pushed the score towards that class most
    /// (`strongest`) and the `limit` that pushed it away from that class most
    /// (`against`); none when `limit` is 0 or less.
    public func explain(_ text: String, limit: Int = 8) -> Explanation {
        let buffer = TokenBuffer()
        var named = NamedRow()
        var dense = [Float](repeating: 0, count: DenseFeature.count)
        let segments = extractor.extract(text: text, buffer: buffer, into: &named, dense: &dense)

        // Each feature's summed pushes, in the order the features first came.
        var order: [String] = []
        var pushes: [ClassScores] = []
        var place: [String: Int] = [:]
        var values: [Int: (value: Double, trainingMean: Double)] = [:]
        @discardableResult
        func add(_ name: String, _ z: [Double]) -> Int {
            let mean = z.reduce(0, +) / 3
            let i = place[name] ?? {
                order.append(name)
                pushes.append(ClassScores(negative: 0, neutral: 0, positive: 0))
                place[name] = order.count - 1
                return order.count - 1
            }()
            pushes[i].negative += z[0] - mean
            pushes[i].neutral += z[1] - mean
            pushes[i].positive += z[2] - mean
            return i
        }
        for (k, name) in named.names.enumerated() {
            let index = Int(named.row.indices[k]), value = Double(named.row.values[k])
            add(name, (0..<3).map { value * Double(weights.sparse[3 * index + $0]) })
        }
        for feature in DenseFeature.allCases {
            let j = feature.rawValue
            let standardized = (Double(dense[j]) - Double(weights.denseMean[j])) * Double(weights.denseScale[j])
            guard standardized != 0 else { continue }
            let i = add("dense:" + feature.name, (0..<3).map { standardized * Double(weights.dense[3 * j + $0]) })
            values[i] = (Double(dense[j]), Double(weights.denseMean[j]))
        }
        var strongest: [SentimentLabel: [Explanation.Contribution]] = [:]
        var against: [SentimentLabel: [Explanation.Contribution]] = [:]
        for label in SentimentLabel.allCases {
            // By index into arrays: a text of 1 MiB has some 100,000 features.
            let push = pushes.map { $0[label] }
            func contributions(_ listed: some Sequence<Int>) -> [Explanation.Contribution] {
                listed.prefix(max(0, limit))
                    .map { Explanation.Contribution(feature: order[$0], push: pushes[$0], value: values[$0]?.value, trainingMean: values[$0]?.trainingMean) }
            }
            strongest[label] = contributions(order.indices.filter { push[$0] > 0 }.sorted { push[$0] > push[$1] })
            against[label] = contributions(order.indices.filter { push[$0] < 0 }.sorted { push[$0] < push[$1] })
        }
        let b = weights.bias.map(Double.init), biasMean = b.reduce(0, +) / 3
        let bias = ClassScores(negative: b[0] - biasMean, neutral: b[1] - biasMean, positive: b[2] - biasMean)
        var scores = bias
        for push in pushes {
            scores.negative += push.negative
            scores.neutral += push.neutral
            scores.positive += push.positive
        }
        // The tokens of the whole text (a long one was read in segments).
        var whole = text
        whole.withUTF8 { buffer.tokenize(UnsafeRawBufferPointer($0), options: manifest.features.tokenizerOptions, seed: manifest.features.hashSeed) }
        let tokens = (0..<buffer.count).map(buffer.token(at:))
        return Explanation(tokens: tokens, prediction: classify(text), strongest: strongest, against: against, bias: bias, scores: scores, segments: segments)
    }
}
