#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTokenizer

/// Where feature extraction writes: the hot path's `SparseRow`, or the named
/// features `explain` shows. Generic and specialized, so the hot path never
/// builds a name.
protocol FeatureSink {
    /// Features written so far.
    var count: Int { get }
    /// Adds a feature (value 0 until `setValues`).
    mutating func append(_ index: Int32, name: @autoclosure () -> String)
    /// Sets the values of features `range`.
    mutating func setValues(_ value: Float, _ range: Range<Int>)
    /// Clears the sink.
    mutating func removeAll()
}

/// The sparse features of one text: hashed n-grams with their values.
struct SparseRow: FeatureSink {
    /// Bucket numbers (may repeat: a repeated n-gram counts twice).
    var indices: [Int32] = []
    /// Values, one per index.
    var values: [Float] = []

    init(capacity: Int = 512) {
        indices.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    var count: Int { indices.count }

    @inline(__always)
    mutating func append(_ index: Int32, name: @autoclosure () -> String) {
        indices.append(index)
        values.append(0)
    }

    @inline(__always)
    mutating func setValues(_ value: Float, _ range: Range<Int>) {
        for j in range { values[j] = value }
    }

    mutating func removeAll() {
        indices.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }
}

/// Sparse features with their names, for `explain`.
struct NamedRow: FeatureSink {
    var row = SparseRow()
    var names: [String] = []

    var count: Int { row.count }

    mutating func append(_ index: Int32, name: @autoclosure () -> String) {
        row.append(index, name: "")
        names.append(name())
    }

    mutating func setValues(_ value: Float, _ range: Range<Int>) { row.setValues(value, range) }

    mutating func removeAll() {
        row.removeAll()
        names.removeAll()
    }
}

/// Turns the tokens of one text into features. Immutable and `Sendable`: one
/// extractor serves every thread; the scratch space lives in the caller's
/// `TokenBuffer`, `SparseRow` and dense row.
struct FeatureExtractor: Sendable {
    let settings: FeatureSettings
    let lexicon: Lexicon

    private var mask: UInt64 { UInt64(settings.buckets - 1) }

    /// The hash-space key of a token as a lexicon entry, or nil for tokens the
    /// lexicon does not score (numbers, URLs, mentions, punctuation, symbols).
    @inline(__always)
    static func lexiconKey(_ token: ctk_token) -> UInt64? {
        switch Int32(token.kind) {
        case Int32(CTK_WORD.rawValue), Int32(CTK_HASHTAG.rawValue),
             Int32(CTK_EMOJI.rawValue), Int32(CTK_EMOTICON.rawValue):
            let negated = token.flags & UInt16(CTK_FLAG_NEGATED) != 0
            return FeatureHash.feature(negated ? .negatedWord : .word, token.hash)
        default:
            return nil
        }
    }

    /// Writes the features of the tokens in `buffer` to `row` (cleared first)
    /// and the `DenseFeature.count` raw dense values to `dense`.
    @inline(__always)
    func extract<Sink: FeatureSink>(_ buffer: TokenBuffer, into row: inout Sink, dense: UnsafeMutablePointer<Float>) {
        row.removeAll()
        dense.update(repeating: 0, count: DenseFeature.count)
        let count = buffer.count
        let tokens = buffer.tokens

        // Word n-grams.
        var previous: UInt64 = 0, beforePrevious: UInt64 = 0
        @inline(__always) func text(_ i: Int) -> String { String(decoding: buffer.textBytes(of: i), as: UTF8.self) }
        for i in 0..<count {
            let token = tokens[i]
            let negated = token.flags & UInt16(CTK_FLAG_NEGATED) != 0
            append(FeatureHash.feature(negated ? .negatedWord : .word, token.hash), to: &row,
                   name: negated ? text(i) + "_NEG" : text(i))
            if token.kind == UInt16(CTK_HASHTAG.rawValue) {
                append(FeatureHash.feature(.hashtag, token.hash), to: &row, name: "#" + text(i))
            }
            if settings.wordNgrams >= 2, i >= 1 {
                let bigram = FeatureHash.combine(previous, token.hash)
                append(FeatureHash.feature(.bigram, bigram), to: &row, name: text(i - 1) + " " + text(i))
                if settings.wordNgrams >= 3, i >= 2 {
                    append(FeatureHash.feature(.trigram, FeatureHash.combine(beforePrevious, bigram)), to: &row,
                           name: text(i - 2) + " " + text(i - 1) + " " + text(i))
                }
            }
            beforePrevious = previous
            previous = token.hash
        }
        let wordFeatures = row.count
        if wordFeatures > 0 {
            row.setValues(1 / Float(wordFeatures).squareRoot(), 0..<wordFeatures)
        }

        // Character (byte) n-grams inside words.
        if settings.charNgramMax > 0 {
            for i in 0..<count where tokens[i].kind == UInt16(CTK_WORD.rawValue) {
                let negated = settings.negatedCharNgrams && tokens[i].flags & UInt16(CTK_FLAG_NEGATED) != 0
                appendCharNgrams(buffer.textBytes(of: i), negated: negated, to: &row)
            }
            let charFeatures = row.count - wordFeatures
            if charFeatures > 0 {
                row.setValues(Float(settings.charGroupWeight) / Float(charFeatures).squareRoot(), wordFeatures..<row.count)
            }
        }

        fillDense(buffer, dense)
    }

    @inline(__always)
    private func append<Sink: FeatureSink>(_ feature: UInt64, to row: inout Sink, name: @autoclosure () -> String) {
        row.append(bucket(feature), name: name())
    }

    /// The bucket of a hashed feature.
    @inline(__always)
    func bucket(_ feature: UInt64) -> Int32 {
        Int32(truncatingIfNeeded: feature & mask)
    }

    /// Byte n-grams of "<word>" of every length in the settings' range.
    @inline(__always)
    private func appendCharNgrams<Sink: FeatureSink>(_ word: UnsafeRawBufferPointer, negated: Bool, to row: inout Sink) {
        forEachCharNgram(word, negated: negated) { bucket, byte, start, end in
            row.append(bucket, name: String(decoding: (start..<end).map(byte), as: UTF8.self) + (negated ? "_NEG" : ""))
        }
    }

    /// Calls `body` with the bucket of each byte n-gram of "<word>" of every
    /// length in the settings' range, in order, and a way to read the n-gram's
    /// bytes (for names).
    @inline(__always)
    func forEachCharNgram(_ word: UnsafeRawBufferPointer, negated: Bool,
                          _ body: (Int32, _ byte: (Int) -> UInt8, _ start: Int, _ end: Int) -> Void) {
        let namespace: FeatureHash.Namespace = negated ? .negatedChar : .char
        let lo = settings.charNgramMin, hi = settings.charNgramMax
        let length = word.count + 2
        guard length >= lo else { return }
        @inline(__always) func byte(_ k: Int) -> UInt8 {
            k == 0 ? 0x3C : (k == length - 1 ? 0x3E : word[k - 1])   // '<' word '>'
        }
        for start in 0..<length {
            var hash = FeatureHash.fnvOffset ^ settings.hashSeed
            var end = start
            while end < length && end - start < hi {
                hash = (hash ^ UInt64(byte(end))) &* FeatureHash.fnvPrime
                end += 1
                if end - start >= lo {
                    body(bucket(FeatureHash.feature(namespace, hash)), byte, start, end)
                }
            }
        }
    }

    /// The raw dense values (before standardization).
    private func fillDense(_ buffer: TokenBuffer, _ dense: UnsafeMutablePointer<Float>) {
        let count = buffer.count
        let tokens = buffer.tokens
        var allCaps = 0, elongated = 0, exclamations = 0, questions = 0, emphasis = 0
        var negators = 0, negated = 0, emoji = 0, emoticons = 0, urls = 0, mentions = 0, hashtags = 0
        var positiveSum: Float = 0, negativeSum: Float = 0, positiveMax: Float = 0, negativeMax: Float = 0
        var positiveLast: Float = 0, negativeLast: Float = 0, positiveCount = 0, negativeCount = 0
        var afterContrast: Float = 0
        let scores = lexicon.scores
        let lexiconBits = lexicon.bits
        for i in 0..<count {
            let token = tokens[i]
            let flags = token.flags
            if flags & UInt16(CTK_FLAG_ALLCAPS) != 0 { allCaps += 1 }
            if flags & UInt16(CTK_FLAG_ELONGATED) != 0 { elongated += 1 }
            if flags & UInt16(CTK_FLAG_NEGATOR) != 0 { negators += 1 }
            if flags & UInt16(CTK_FLAG_NEGATED) != 0 { negated += 1 }
            switch Int32(token.kind) {
            case Int32(CTK_PUNCT.rawValue):
                let text = buffer.textBytes(of: i)
                if text.first == UInt8(ascii: "!") { exclamations += 1 }
                if text.contains(UInt8(ascii: "?")) { questions += 1 }
                if flags & UInt16(CTK_FLAG_EMPHASIS) != 0 { emphasis += 1 }
            case Int32(CTK_EMOJI.rawValue): emoji += 1
            case Int32(CTK_EMOTICON.rawValue): emoticons += 1
            case Int32(CTK_URL.rawValue): urls += 1
            case Int32(CTK_USER.rawValue): mentions += 1
            case Int32(CTK_HASHTAG.rawValue): hashtags += 1
            case Int32(CTK_WORD.rawValue) where isBut(buffer, i):
                afterContrast = 0
            default: break
            }
            if let key = Self.lexiconKey(token) {
                let slot = Lexicon.slot(key, bits: lexiconBits)
                let positive = scores[2 * slot], negative = scores[2 * slot + 1]
                if positive != 0 || negative != 0 {
                    positiveSum += positive
                    negativeSum += negative
                    positiveMax = max(positiveMax, positive)
                    negativeMax = max(negativeMax, negative)
                    positiveLast = positive
                    negativeLast = negative
                    if positive > 1 { positiveCount += 1 }
                    if negative > 1 { negativeCount += 1 }
                    afterContrast += positive - negative
                }
            }
        }
        @inline(__always) func log1p(_ n: Int) -> Float { logf(1 + Float(n)) }
        dense[DenseFeature.allCapsWords.rawValue] = log1p(allCaps)
        dense[DenseFeature.elongatedWords.rawValue] = log1p(elongated)
        dense[DenseFeature.exclamations.rawValue] = log1p(exclamations)
        dense[DenseFeature.questions.rawValue] = log1p(questions)
        dense[DenseFeature.emphasis.rawValue] = log1p(emphasis)
        dense[DenseFeature.negators.rawValue] = log1p(negators)
        dense[DenseFeature.negatedShare.rawValue] = count > 0 ? Float(negated) / Float(count) : 0
        dense[DenseFeature.emoji.rawValue] = log1p(emoji)
        dense[DenseFeature.emoticons.rawValue] = log1p(emoticons)
        dense[DenseFeature.hasURL.rawValue] = urls > 0 ? 1 : 0
        dense[DenseFeature.mentions.rawValue] = log1p(mentions)
        dense[DenseFeature.hashtags.rawValue] = log1p(hashtags)
        dense[DenseFeature.length.rawValue] = log1p(count)
        if count > 0 {
            let last = tokens[count - 1]
            let kind = Int32(last.kind)
            let emphatic = kind == Int32(CTK_EMOJI.rawValue) || kind == Int32(CTK_EMOTICON.rawValue)
                || (kind == Int32(CTK_PUNCT.rawValue) && buffer.textBytes(of: count - 1).first == UInt8(ascii: "!"))
            dense[DenseFeature.endsEmphatic.rawValue] = emphatic ? 1 : 0
        }
        dense[DenseFeature.lexiconPositiveSum.rawValue] = positiveSum
        dense[DenseFeature.lexiconNegativeSum.rawValue] = negativeSum
        dense[DenseFeature.lexiconPositiveMax.rawValue] = positiveMax
        dense[DenseFeature.lexiconNegativeMax.rawValue] = negativeMax
        dense[DenseFeature.lexiconPositiveLast.rawValue] = positiveLast
        dense[DenseFeature.lexiconNegativeLast.rawValue] = negativeLast
        dense[DenseFeature.lexiconPositiveCount.rawValue] = log1p(positiveCount)
        dense[DenseFeature.lexiconNegativeCount.rawValue] = log1p(negativeCount)
        dense[DenseFeature.lexiconAfterContrast.rawValue] = afterContrast
    }

    /// Whether token `i` is the contrast word "but".
    @inline(__always)
    private func isBut(_ buffer: TokenBuffer, _ i: Int) -> Bool {
        Self.isBut(buffer.textBytes(of: i))
    }

    /// Whether a word's text is the contrast word "but".
    @inline(__always)
    static func isBut(_ text: UnsafeRawBufferPointer) -> Bool {
        text.count == 3 && text[0] == UInt8(ascii: "b") && text[1] == UInt8(ascii: "u") && text[2] == UInt8(ascii: "t")
    }
}
