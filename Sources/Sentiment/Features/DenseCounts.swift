#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTokenizer

/// Facts about a token's text that the dense features read.
struct TokenTraits: OptionSet, Sendable {
    let rawValue: UInt8

    /// The contrast word "but".
    static let but = TokenTraits(rawValue: 1 << 0)
    /// Punctuation starting with "!".
    static let exclamation = TokenTraits(rawValue: 1 << 1)
    /// Punctuation containing "?".
    static let question = TokenTraits(rawValue: 1 << 2)
    /// A word with an accented Latin letter (set by `TokenCache` fills only).
    static let accented = TokenTraits(rawValue: 1 << 3)
    /// An emoticon that smiles, laughs or loves (`EmoticonPolarity`), or an
    /// emoji that approves (`EmojiPolarity`).
    static let happy = TokenTraits(rawValue: 1 << 4)
    /// An emoticon that frowns, cries, scowls or breaks a heart, or an emoji
    /// that disapproves.
    static let sad = TokenTraits(rawValue: 1 << 5)

    /// The traits of a token of `kind` with normalized text `text`.
    @inline(__always)
    static func of(kind: UInt16, text: UnsafeRawBufferPointer) -> TokenTraits {
        switch Int32(kind) {
        case Int32(CTK_WORD.rawValue):
            return FeatureExtractor.isBut(text) ? .but : []
        case Int32(CTK_PUNCT.rawValue):
            var traits: TokenTraits = []
            if text.first == UInt8(ascii: "!") { traits.insert(.exclamation) }
            if text.contains(UInt8(ascii: "?")) { traits.insert(.question) }
            return traits
        case Int32(CTK_EMOTICON.rawValue):
            return polarity(EmoticonPolarity.of(text))
        case Int32(CTK_EMOJI.rawValue):
            return polarity(EmojiPolarity.of(text))
        default:
            return []
        }
    }

    private static func polarity(_ sign: Int) -> TokenTraits {
        sign > 0 ? .happy : sign < 0 ? .sad : []
    }
}

/// The tallies behind the dense features of one text, token by token, and
/// their values (`write`). One definition for `FeatureExtractor` (training,
/// `explain`) and `FusedScorer` (the hot path), so the two cannot drift apart.
struct DenseCounts {
    private var tokens = 0, allCaps = 0, elongated = 0, exclamations = 0, questions = 0, emphasis = 0
    private var negators = 0, negated = 0, emoji = 0, emoticons = 0, urls = 0, mentions = 0, hashtags = 0
    /// The lexicon's sums: positive, negative, and (positive − negative) since the last "but".
    private var sums = SIMD4<Float>()
    private var maxima = SIMD2<Float>(), last = SIMD2<Float>()
    /// Tokens scoring above 1, positive and negative (32 bits: a text of
    /// 2^31 tokens would take 64 GiB of tokens alone).
    private var strong = SIMD2<Int32>()
    private var happySigns = 0, sadSigns = 0
    private var lastIsEmphatic = false

    /// Counts one token: its kind, flags, traits and lexicon scores (0, 0 for
    /// a word the lexicon does not score).
    @inline(__always)
    mutating func add(kind: UInt16, flags: UInt16, traits: TokenTraits, positive: Float, negative: Float) {
        tokens &+= 1
        allCaps &+= flags & UInt16(CTK_FLAG_ALLCAPS) != 0 ? 1 : 0
        elongated &+= flags & UInt16(CTK_FLAG_ELONGATED) != 0 ? 1 : 0
        negators &+= flags & UInt16(CTK_FLAG_NEGATOR) != 0 ? 1 : 0
        negated &+= flags & UInt16(CTK_FLAG_NEGATED) != 0 ? 1 : 0
        lastIsEmphatic = false
        // Words first: most tokens are words, and a test for them predicts
        // better than a jump on the kind.
        if Int32(kind) != Int32(CTK_WORD.rawValue) {
            switch Int32(kind) {
            case Int32(CTK_PUNCT.rawValue):
                if traits.contains(.exclamation) { exclamations &+= 1; lastIsEmphatic = true }
                if traits.contains(.question) { questions &+= 1 }
                if flags & UInt16(CTK_FLAG_EMPHASIS) != 0 { emphasis &+= 1 }
            case Int32(CTK_EMOJI.rawValue):
                emoji &+= 1
                lastIsEmphatic = true
                if traits.contains(.happy) { happySigns &+= 1 }
                if traits.contains(.sad) { sadSigns &+= 1 }
            case Int32(CTK_EMOTICON.rawValue):
                emoticons &+= 1
                lastIsEmphatic = true
                if traits.contains(.happy) { happySigns &+= 1 }
                if traits.contains(.sad) { sadSigns &+= 1 }
            case Int32(CTK_URL.rawValue): urls &+= 1
            case Int32(CTK_USER.rawValue): mentions &+= 1
            case Int32(CTK_HASHTAG.rawValue): hashtags &+= 1
            default: break
            }
        }
        // The lexicon's tallies side by side in vector lanes, each lane's sum
        // taken in token order, as one scalar sum each was; and no branch on
        // whether the lexicon scored the word, which varied from word to word.
        // A word it does not score has (0, 0), which changes no sum (x + 0 is
        // x, and no sum here is -0: the scores are never -0) and no maximum
        // (each starts at 0); only "last" needs the test. (The scores are
        // never NaN, so `.<` picks what `max` did.)
        let scores = SIMD2<Float>(positive, negative)
        let but = Int32(kind) == Int32(CTK_WORD.rawValue) && traits.contains(.but)
        if but { sums[2] = 0 }
        sums += SIMD4(positive, negative, positive - negative, 0)
        maxima = maxima.replacing(with: scores, where: maxima .< scores)
        let scored = positive != 0 || negative != 0
        last = scored ? scores : last
        strong &-= SIMD2<Int32>(truncatingIfNeeded: (scores .> 1)._storage)
    }

    /// log(1 + n) of the counts most texts have, computed once by `logf`.
    private static let smallLogs: [Float] = (0..<64).map { logf(1 + Float($0)) }

    @inline(__always)
    private static func log1p(_ n: Int) -> Float { n < smallLogs.count ? smallLogs[n] : logf(1 + Float(n)) }

    /// Writes the `DenseFeature.count` raw dense values (before standardization).
    @inline(__always)
    func write(to dense: UnsafeMutablePointer<Float>) {
        let (positiveSum, negativeSum, afterContrast) = (sums[0], sums[1], sums[2])
        let (positiveMax, negativeMax, positiveLast, negativeLast) = (maxima[0], maxima[1], last[0], last[1])
        let (positiveCount, negativeCount) = (Int(strong[0]), Int(strong[1]))
        dense.update(repeating: 0, count: DenseFeature.count)
        dense[DenseFeature.allCapsWords.rawValue] = Self.log1p(allCaps)
        dense[DenseFeature.elongatedWords.rawValue] = Self.log1p(elongated)
        dense[DenseFeature.exclamations.rawValue] = Self.log1p(exclamations)
        dense[DenseFeature.questions.rawValue] = Self.log1p(questions)
        dense[DenseFeature.emphasis.rawValue] = Self.log1p(emphasis)
        dense[DenseFeature.negators.rawValue] = Self.log1p(negators)
        dense[DenseFeature.negatedShare.rawValue] = tokens > 0 ? Float(negated) / Float(tokens) : 0
        dense[DenseFeature.emoji.rawValue] = Self.log1p(emoji)
        dense[DenseFeature.emoticons.rawValue] = Self.log1p(emoticons)
        dense[DenseFeature.hasURL.rawValue] = urls > 0 ? 1 : 0
        dense[DenseFeature.mentions.rawValue] = Self.log1p(mentions)
        dense[DenseFeature.hashtags.rawValue] = Self.log1p(hashtags)
        dense[DenseFeature.length.rawValue] = Self.log1p(tokens)
        dense[DenseFeature.endsEmphatic.rawValue] = lastIsEmphatic ? 1 : 0
        dense[DenseFeature.lexiconPositiveSum.rawValue] = positiveSum
        dense[DenseFeature.lexiconNegativeSum.rawValue] = negativeSum
        dense[DenseFeature.lexiconPositiveMax.rawValue] = positiveMax
        dense[DenseFeature.lexiconNegativeMax.rawValue] = negativeMax
        dense[DenseFeature.lexiconPositiveLast.rawValue] = positiveLast
        dense[DenseFeature.lexiconNegativeLast.rawValue] = negativeLast
        dense[DenseFeature.lexiconPositiveCount.rawValue] = Self.log1p(positiveCount)
        dense[DenseFeature.lexiconNegativeCount.rawValue] = Self.log1p(negativeCount)
        dense[DenseFeature.lexiconAfterContrast.rawValue] = afterContrast
        dense[DenseFeature.emoticonPolarity.rawValue] = Self.log1p(happySigns) - Self.log1p(sadSigns)
    }
}
