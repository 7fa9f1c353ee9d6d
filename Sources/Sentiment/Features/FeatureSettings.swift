import CTokenizer

/// How texts become feature vectors. Stored in the model's manifest: a model is
/// scored with exactly the settings it was trained with.
public struct FeatureSettings: Sendable, Hashable, Codable {
    /// log2 of the number of hashed sparse-feature buckets (2^bucketBits rows of weights).
    public var bucketBits: Int
    /// Seed of every feature hash (token hashes and n-gram hashes).
    public var hashSeed: UInt64
    /// Longest word n-gram (1 = unigrams, 2 = uni+bigrams, 3 = up to trigrams).
    public var wordNgrams: Int
    /// Shortest and longest byte n-gram inside words ("<word>" with boundary marks);
    /// `charNgramMax == 0` turns them off.
    public var charNgramMin: Int
    /// See `charNgramMin`.
    public var charNgramMax: Int
    /// Weight of the character n-gram group relative to the word n-gram group.
    public var charGroupWeight: Double
    /// Whether the character n-grams of a word in a negation scope are features
    /// of their own (as negated words are), so that "not bad" does not fire the
    /// n-grams of "bad". Absent from older manifests, where it is false.
    public var negatedCharNgrams: Bool
    /// Whether the words after a "but" are also features of their own
    /// (`word_BUT`), so the clause that usually carries a tweet's verdict
    /// ("the food was great but the service was awful") can weigh more than
    /// the one before it. Absent from older manifests, where it is false.
    public var contrastWords: Bool
    /// `CTK_OPT_…` bits given to the tokenizer.
    public var tokenizerOptions: UInt32

    /// The settings of the shipped model.
    public static let standard = FeatureSettings(
        bucketBits: 20,
        hashSeed: 0x5EED_5E47_1ACE_2026,
        wordNgrams: 2,
        charNgramMin: 3,
        charNgramMax: 5,
        charGroupWeight: 1.0,
        negatedCharNgrams: true,
        contrastWords: false,
        tokenizerOptions: UInt32(CTK_OPT_NEGATION | CTK_OPT_ELONGATION | CTK_OPT_ENTITIES | CTK_OPT_EMOJI_FACES))

    /// Creates settings.
    public init(bucketBits: Int, hashSeed: UInt64, wordNgrams: Int, charNgramMin: Int, charNgramMax: Int,
                charGroupWeight: Double, negatedCharNgrams: Bool = false, contrastWords: Bool = false,
                tokenizerOptions: UInt32) {
        self.bucketBits = bucketBits
        self.hashSeed = hashSeed
        self.wordNgrams = wordNgrams
        self.charNgramMin = charNgramMin
        self.charNgramMax = charNgramMax
        self.charGroupWeight = charGroupWeight
        self.negatedCharNgrams = negatedCharNgrams
        self.contrastWords = contrastWords
        self.tokenizerOptions = tokenizerOptions
    }

    private enum CodingKeys: String, CodingKey {
        case bucketBits, hashSeed, wordNgrams, charNgramMin, charNgramMax, charGroupWeight, negatedCharNgrams, contrastWords, tokenizerOptions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            bucketBits: try container.decode(Int.self, forKey: .bucketBits),
            hashSeed: try container.decode(UInt64.self, forKey: .hashSeed),
            wordNgrams: try container.decode(Int.self, forKey: .wordNgrams),
            charNgramMin: try container.decode(Int.self, forKey: .charNgramMin),
            charNgramMax: try container.decode(Int.self, forKey: .charNgramMax),
            charGroupWeight: try container.decode(Double.self, forKey: .charGroupWeight),
            negatedCharNgrams: try container.decodeIfPresent(Bool.self, forKey: .negatedCharNgrams) ?? false,
            contrastWords: try container.decodeIfPresent(Bool.self, forKey: .contrastWords) ?? false,
            tokenizerOptions: try container.decode(UInt32.self, forKey: .tokenizerOptions))
    }

    /// Number of sparse buckets.
    public var buckets: Int { 1 << bucketBits }

    /// The largest ``charGroupWeight``: features are Floats, and a weight
    /// beyond a Float's range (1e39) made every probability NaN.
    public static let maxCharGroupWeight = 1_000_000.0

    /// Checks that the settings can be used, naming the first bad value.
    func validate() throws(ModelError) {
        guard (8...26).contains(bucketBits) else { throw .invalidSettings("bucketBits \(bucketBits) not in 8...26") }
        guard (1...3).contains(wordNgrams) else { throw .invalidSettings("wordNgrams \(wordNgrams) not in 1...3") }
        guard charNgramMax == 0 || (1...8).contains(charNgramMin) && charNgramMin <= charNgramMax && charNgramMax <= 8
        else { throw .invalidSettings("charNgram range \(charNgramMin)...\(charNgramMax) invalid") }
        guard (0...Self.maxCharGroupWeight).contains(charGroupWeight) else {
            throw .invalidSettings("charGroupWeight \(charGroupWeight) not in 0...\(Int(Self.maxCharGroupWeight))")
        }
    }
}
