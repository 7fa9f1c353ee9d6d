#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTokenizer

/// The hot path's features and sparse scores in one pass over a tweet's
/// tokens, with each distinct token's share taken from a `TokenCache`.
///
/// It computes exactly what `FeatureExtractor.extract` followed by
/// `BLASScorer.gather` and the language test compute — the same features, the
/// same values, the same dense block — but sums the sparse weights per group
/// before scaling them, so scores can differ from that reference in the last
/// bits of a float (the tests hold the two within 1e-4). `extract` stays the
/// path of training and `explain`, which need the features one by one.
///
/// The sparse weights are 16-bit integers with one scale (`SparseWeights`):
/// every sum here, the token table's included, is of the integers as they
/// are, exact in a Float up to 2^24 (at least 512 weights of the largest
/// magnitude), and the scale is applied once per group with its 1/√n, so
/// the order of the sums changes nothing short of that.
struct FusedScorer: Sendable {
    let extractor: FeatureExtractor
    let scoring: ScoringWeights
    let languageDetector: LanguageDetector
    /// Who filled a `TokenTable`: its entries hold this scorer's weights, and
    /// are wrong for any other model's (`TokenTable.serve`).
    let identity = Identity()

    final class Identity: Sendable {}

    /// Scores the tokens in `buffer`: writes the bias plus the sparse part of
    /// the scores to `logits` (3 floats), the raw dense values to `dense`, and
    /// returns the text's language.
    @inline(__always)
    func score(_ buffer: TokenBuffer, cache: TokenCache,
               logits: UnsafeMutablePointer<Float>, dense: UnsafeMutablePointer<Float>) -> Language {
        scoring.sparse.values.withUnsafeBufferPointer { weights in
            // One slot per stopword language, and one more that counts the
            // other tokens (so the loop counts every token without a branch).
            withUnsafeTemporaryAllocation(of: Int.self, capacity: languageDetector.languageCount + 1) { hits in
                hits.initialize(repeating: 0)
                return score(buffer, cache: cache, weights: weights.baseAddress!, hits: hits, logits: logits, dense: dense)
            }
        }
    }

    @inline(__always)
    private func score(_ buffer: TokenBuffer, cache: TokenCache, weights: UnsafePointer<Int16>,
                       hits: UnsafeMutableBufferPointer<Int>, logits: UnsafeMutablePointer<Float>, dense: UnsafeMutablePointer<Float>) -> Language {
        let settings = extractor.settings
        let count = buffer.count
        let tokens = buffer.tokens

        var w0: Float = 0, w1: Float = 0, w2: Float = 0, wordFeatures = 0
        var c0: Float = 0, c1: Float = 0, c2: Float = 0, charFeatures = 0
        var counts = DenseCounts()
        var accented = 0
        let otherSlot = hits.count - 1

        // Pass 1: every token's key and cache slot and every bigram's row
        // (`ctk_token_keys`, eight tokens at a time where the processor can),
        // then each fetch started at once so the loads from memory overlap.
        cache.reserve(count)
        let table = cache.slots
        let keys = cache.keys, slotIndexes = cache.slotIndexes, bigramRows = cache.bigramRows
        let bigrams = settings.wordNgrams >= 2
        // The tokens from `contrastFrom` on are in a "but" scope (`contrastWords`).
        var contrastFrom = count
        if settings.contrastWords {
            for i in 0..<count where FeatureExtractor.opensContrast(tokens[i], text: buffer.textBytes(of: i)) {
                contrastFrom = i + 1
                break
            }
        }
        ctk_token_keys(tokens, count, contrastFrom, table.capacity, FeatureHash.Namespace.bigram.rawValue,
                       extractor.bucketMask, keys, slotIndexes, bigrams ? bigramRows : nil)
        for i in 0..<count {
            table.prefetchPair(of: slotIndexes[i])
            if bigrams, i >= 1 { Self.prefetchRow(weights + bigramRows[i]) }
        }

        // Pass 2: sum.
        for i in 0..<count {
            let token = tokens[i]
            let key = keys[i]
            var e = TokenTable.Entry()
            if !table.lookup(key, home: slotIndexes[i], into: &e) {
                e = entry(key: key, token: token, contrast: i >= contrastFrom, text: buffer.textBytes(of: i), weights: weights)
                table.insert(e)
            }

            // Word group: the token's own features, then the n-grams ending at it.
            w0 += e.word.0; w1 += e.word.1; w2 += e.word.2
            wordFeatures &+= Int(e.wordCount)
            if bigrams, i >= 1 {
                let b = bigramRows[i]
                w0 += Float(weights[b]); w1 += Float(weights[b + 1]); w2 += Float(weights[b + 2])
                wordFeatures &+= 1
                if settings.wordNgrams >= 3, i >= 2 {
                    let bigram = FeatureHash.combine(tokens[i - 1].hash, token.hash)
                    let t = 3 * Int(extractor.bucket(FeatureHash.feature(.trigram, FeatureHash.combine(tokens[i - 2].hash, bigram))))
                    w0 += Float(weights[t]); w1 += Float(weights[t + 1]); w2 += Float(weights[t + 2])
                    wordFeatures &+= 1
                }
            }

            // Character group (zero for tokens other than words).
            c0 += e.char.0; c1 += e.char.1; c2 += e.char.2
            charFeatures &+= Int(e.charCount)
            // Whether a token is a stopword varies from token to token: count
            // it without a branch, in the spare slot when it is not one.
            let stopword = e.language >= 0
            hits[stopword ? Int(e.language) : otherSlot] &+= 1
            accented &+= !stopword && e.traits.contains(.accented) ? 1 : 0
            counts.add(kind: token.kind, flags: token.flags, traits: e.traits,
                       positive: e.lexiconPositive, negative: e.lexiconNegative)
        }

        // Sparse scores: each group's sum scaled by its value and the weights' scale.
        var z0 = scoring.bias[0], z1 = scoring.bias[1], z2 = scoring.bias[2]
        let scale = scoring.sparse.scale
        if wordFeatures > 0 {
            let v = scale / Float(wordFeatures).squareRoot()
            z0 += v * w0; z1 += v * w1; z2 += v * w2
        }
        if charFeatures > 0 {
            let v = scale * Float(settings.charGroupWeight) / Float(charFeatures).squareRoot()
            z0 += v * c0; z1 += v * c1; z2 += v * c2
        }
        logits[0] = z0
        logits[1] = z1
        logits[2] = z2

        counts.write(to: dense)
        extractor.denseRange?.clamp(dense)

        if let language = LanguageDetector.byScript(buffer.stats) { return language }
        let verdict = languageDetector.decide(hits: UnsafeBufferPointer(rebasing: hits[..<otherSlot]), accented: accented)
        return languageDetector.lettersVerdict(verdict, englishStopwords: hits[0], buffer: buffer)
    }

    /// Starts fetching a weight row (three 16-bit weights, 6 bytes). One row
    /// in sixteen straddles two cache lines (rows start every 6 bytes, lines
    /// every 64), and its end is left to wait for memory when it is summed.
    /// With Float rows (12 bytes, one in eight straddling) fetching both ends
    /// paid; with 16-bit rows it costs more than it saves: one prefetch a row
    /// ran 1.4% faster than two (medians of seven interleaved one-core runs,
    /// all seven faster), and one more for the straddling rows only (a
    /// branch on the address) 3% slower.
    @inline(__always)
    static func prefetchRow(_ row: UnsafePointer<Int16>) {
        ctk_prefetch(row)
    }

    /// What `token` contributes: the table's entry for `key`.
    ///
    /// Every row and score it needs from memory is fetched first — the
    /// unigram row (and the hashtag's and contrast feature's), the lexicon
    /// slot, then each character n-gram's row — and summed after, so that a
    /// fill waits for all of them at once rather than for each in turn. The
    /// sums are taken in the same order as ever.
    @inline(never)
    private func entry(key: UInt64, token: ctk_token, contrast: Bool,
                       text: UnsafeRawBufferPointer, weights: UnsafePointer<Int16>) -> TokenTable.Entry {
        var e = TokenTable.Entry()
        e.key = key
        let negated = token.flags & UInt16(CTK_FLAG_NEGATED) != 0
        let kind = Int32(token.kind)

        let unigram = 3 * Int(extractor.bucket(FeatureHash.feature(negated ? .negatedWord : .word, token.hash)))
        Self.prefetchRow(weights + unigram)
        var tag = -1
        if kind == Int32(CTK_HASHTAG.rawValue) {
            tag = 3 * Int(extractor.bucket(FeatureHash.feature(.hashtag, token.hash)))
            Self.prefetchRow(weights + tag)
        }
        var contrastRow = -1
        if contrast, let feature = FeatureExtractor.contrastFeature(token) {
            contrastRow = 3 * Int(extractor.bucket(feature))
            Self.prefetchRow(weights + contrastRow)
        }
        extractor.prefetchLexiconScores(token)

        e.traits = .of(kind: token.kind, text: text)
        if kind == Int32(CTK_WORD.rawValue) {
            if extractor.settings.charNgramMax > 0 {
                // Every n-gram's row first, each fetch started at once; then the sum.
                let negatedChars = extractor.settings.negatedCharNgrams && negated
                let most = (text.count + 2) * (extractor.settings.charNgramMax - extractor.settings.charNgramMin + 1)
                withUnsafeTemporaryAllocation(of: Int.self, capacity: most) { rows in
                    var n = 0
                    extractor.forEachCharNgram(text, negated: negatedChars) { bucket, _, _, _ in
                        let row = 3 * Int(bucket)
                        Self.prefetchRow(weights + row)
                        rows[n] = row
                        n += 1
                    }
                    var c0: Float = 0, c1: Float = 0, c2: Float = 0
                    for k in 0..<n {
                        let b = rows[k]
                        c0 += Float(weights[b]); c1 += Float(weights[b + 1]); c2 += Float(weights[b + 2])
                    }
                    e.char = (c0, c1, c2)
                    e.charCount = UInt32(n)
                }
            }
            e.language = languageDetector.stopwordLanguage(token.hash)
            if e.language < 0, LanguageDetector.hasAccentedLatinLetter(text) { e.traits.insert(.accented) }
        }

        e.word = (Float(weights[unigram]), Float(weights[unigram + 1]), Float(weights[unigram + 2]))
        e.wordCount = 1
        if tag >= 0 {
            e.word.0 += Float(weights[tag]); e.word.1 += Float(weights[tag + 1]); e.word.2 += Float(weights[tag + 2])
            e.wordCount = 2
        }
        if contrastRow >= 0 {
            e.word.0 += Float(weights[contrastRow]); e.word.1 += Float(weights[contrastRow + 1])
            e.word.2 += Float(weights[contrastRow + 2])
            e.wordCount += 1
        }

        (e.lexiconPositive, e.lexiconNegative) = extractor.lexiconScores(token)
        return e
    }
}
