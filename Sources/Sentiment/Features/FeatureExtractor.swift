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
    /// The training set's dense range the values are held to; nil while
    /// training (and for models trained before ranges were recorded).
    var denseRange: DenseRange? = nil

    /// The bucket mask, buckets − 1 (`bucket(_:)`, and `ctk_token_keys`).
    var bucketMask: UInt64 { UInt64(settings.buckets - 1) }

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
    /// and the `DenseFeature.count` raw dense values to `dense` (held to
    /// `denseRange` when there is one).
    @inline(__always)
    func extract<Sink: FeatureSink>(_ buffer: TokenBuffer, into row: inout Sink, dense: UnsafeMutablePointer<Float>) {
        row.removeAll()
        append(buffer, to: &row, scale: 1, dense: dense)
    }

    /// Tokenizes `text` into `buffer` and writes its features to `row`
    /// (cleared first) and its raw dense values to `dense`: a text of more
    /// than `TextSegments.wholeLimit` bytes as the mean of its segments'
    /// features, each segment's values scaled by its weight (`TextSegments`).
    /// `buffer` is left holding the last segment's tokens. Returns the
    /// number of segments.
    @discardableResult
    func extract<Sink: FeatureSink>(text: UnsafeRawBufferPointer, buffer: TokenBuffer, into row: inout Sink,
                                    dense: UnsafeMutablePointer<Float>) -> Int {
        let segments = TextSegments.segments(of: text)
        row.removeAll()
        guard segments.count > 1 else {
            buffer.tokenize(text, options: settings.tokenizerOptions, seed: settings.hashSeed)
            append(buffer, to: &row, scale: 1, dense: dense)
            return 1
        }
        dense.update(repeating: 0, count: DenseFeature.count)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: DenseFeature.count) { part in
            for segment in segments {
                buffer.tokenize(UnsafeRawBufferPointer(rebasing: text[segment.range]),
                                options: settings.tokenizerOptions, seed: settings.hashSeed)
                append(buffer, to: &row, scale: segment.weight, dense: part.baseAddress!)
                for j in 0..<DenseFeature.count { dense[j] += segment.weight * part[j] }
            }
        }
        return segments.count
    }

    /// `extract(text:…)` of a `String`, its dense values into `dense`
    /// (`DenseFeature.count` of them).
    @discardableResult
    func extract<Sink: FeatureSink>(text: String, buffer: TokenBuffer, into row: inout Sink, dense: inout [Float]) -> Int {
        precondition(dense.count == DenseFeature.count)
        var text = text
        return text.withUTF8 { bytes in
            dense.withUnsafeMutableBufferPointer {
                extract(text: UnsafeRawBufferPointer(bytes), buffer: buffer, into: &row, dense: $0.baseAddress!)
            }
        }
    }

    /// Appends the features of the tokens in `buffer` to `row`, their values
    /// times `scale`, and writes the raw dense values to `dense`.
    @inline(__always)
    private func append<Sink: FeatureSink>(_ buffer: TokenBuffer, to row: inout Sink, scale: Float, dense: UnsafeMutablePointer<Float>) {
        let base = row.count
        let count = buffer.count
        let tokens = buffer.tokens

        // Word n-grams.
        var previous: UInt64 = 0, beforePrevious: UInt64 = 0
        var contrast = false
        @inline(__always) func text(_ i: Int) -> String { String(decoding: buffer.textBytes(of: i), as: UTF8.self) }
        /// A token's unigram name: "good", or "good_NEG" in a negation scope.
        @inline(__always) func word(_ i: Int, negated: Bool) -> String { negated ? text(i) + "_NEG" : text(i) }
        for i in 0..<count {
            let token = tokens[i]
            let negated = token.flags & UInt16(CTK_FLAG_NEGATED) != 0
            append(FeatureHash.feature(negated ? .negatedWord : .word, token.hash), to: &row,
                   name: word(i, negated: negated))
            if token.kind == UInt16(CTK_HASHTAG.rawValue) {
                append(FeatureHash.feature(.hashtag, token.hash), to: &row, name: "#" + text(i))
            }
            if settings.contrastWords {
                if contrast, let feature = Self.contrastFeature(token) {
                    append(feature, to: &row, name: word(i, negated: negated) + "_BUT")
                }
                if Self.opensContrast(token, text: buffer.textBytes(of: i)) { contrast = true }
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
        let wordFeatures = row.count - base
        if wordFeatures > 0 {
            row.setValues(scale / Float(wordFeatures).squareRoot(), base..<row.count)
        }

        // Character (byte) n-grams inside words.
        if settings.charNgramMax > 0 {
            for i in 0..<count where tokens[i].kind == UInt16(CTK_WORD.rawValue) {
                let negated = settings.negatedCharNgrams && tokens[i].flags & UInt16(CTK_FLAG_NEGATED) != 0
                appendCharNgrams(buffer.textBytes(of: i), negated: negated, to: &row)
            }
            let charFeatures = row.count - base - wordFeatures
            if charFeatures > 0 {
                row.setValues(scale * Float(settings.charGroupWeight) / Float(charFeatures).squareRoot(),
                              (base + wordFeatures)..<row.count)
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
        Int32(truncatingIfNeeded: feature & bucketMask)
    }

    /// Byte n-grams of "<word>" of every length in the settings' range.
    @inline(__always)
    private func appendCharNgrams<Sink: FeatureSink>(_ word: UnsafeRawBufferPointer, negated: Bool, to row: inout Sink) {
        forEachCharNgram(word, negated: negated) { bucket, byte, start, end in
            // "char:" sets it apart from a word: "the" inside "other" is not the word "the".
            row.append(bucket, name: "char:" + String(decoding: (start..<end).map(byte), as: UTF8.self) + (negated ? "_NEG" : ""))
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

    /// The raw dense values (before standardization), held to `denseRange`.
    private func fillDense(_ buffer: TokenBuffer, _ dense: UnsafeMutablePointer<Float>) {
        var counts = DenseCounts()
        for i in 0..<buffer.count {
            let token = buffer.tokens[i]
            let (positive, negative) = lexiconScores(token)
            counts.add(kind: token.kind, flags: token.flags, traits: .of(kind: token.kind, text: buffer.textBytes(of: i)),
                       positive: positive, negative: negative)
        }
        counts.write(to: dense)
        denseRange?.clamp(dense)
    }

    /// The lexicon's (positive, negative) scores of a token; (0, 0) for kinds it does not score.
    @inline(__always)
    func lexiconScores(_ token: ctk_token) -> (positive: Float, negative: Float) {
        guard let key = Self.lexiconKey(token) else { return (0, 0) }
        return lexicon.scores(of: key)
    }

    /// Starts fetching the lexicon slot `lexiconScores(token)` will read.
    @inline(__always)
    func prefetchLexiconScores(_ token: ctk_token) {
        guard let key = Self.lexiconKey(token) else { return }
        lexicon.prefetchScores(of: key)
    }

    /// The feature a token has in the scope of a "but" (`contrastWords`): the
    /// kinds the lexicon scores, negated ones apart; nil for other kinds.
    @inline(__always)
    static func contrastFeature(_ token: ctk_token) -> UInt64? {
        guard let key = lexiconKey(token) else { return nil }
        return FeatureHash.feature(.contrastWord, key)
    }

    /// Whether `token` is the word "but", after which the rest of the text is
    /// in a contrast scope.
    @inline(__always)
    static func opensContrast(_ token: ctk_token, text: UnsafeRawBufferPointer) -> Bool {
        token.kind == UInt16(CTK_WORD.rawValue) && isBut(text)
    }

    /// Whether a word's text is the contrast word "but".
    @inline(__always)
    static func isBut(_ text: UnsafeRawBufferPointer) -> Bool {
        text.count == 3 && text[0] == UInt8(ascii: "b") && text[1] == UInt8(ascii: "u") && text[2] == UInt8(ascii: "t")
    }
}
