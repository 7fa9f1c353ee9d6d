import CTokenizer

/// A per-workspace memo of what one distinct token contributes to a tweet's
/// scores, so the hot path does the work of a word once, not once a tweet.
///
/// The model is linear and its sparse features are summed per group (word
/// n-grams, character n-grams), each group scaled by 1/√(its size). Everything
/// a single token adds — its unigram (and hashtag) weights, the summed weights
/// of its character n-grams and how many there are, its lexicon scores, its
/// stopword language — depends only on the token's hash, kind and negation
/// flag. Tweets repeat words (Zipf), so a small two-way set-associative table
/// of those sums (3 MiB in a `Workspace`) turns some 190 gathers from the
/// 12 MiB weight table per tweet into a dozen lookups, prefetched.
///
/// Entries are keyed by a 64-bit mix of (hash, kind, negated, in a "but"
/// scope). The model itself sees words only through their 64-bit hashes, so
/// two texts with the same key are already one word to it; the character n-grams and the language lists,
/// the only parts read from the text, are recomputed from the text of whichever
/// token filled the slot first.
///
/// Not thread-safe: one per `Workspace`.
final class TokenCache {
    /// What one token contributes. 48 bytes.
    struct Entry {
        /// The slot's key; 0 for an empty slot.
        var key: UInt64 = 0
        /// Summed word-group weights: the unigram, plus the hashtag feature of a
        /// hashtag, plus the contrast feature of a token in a "but" scope.
        var word: (Float, Float, Float) = (0, 0, 0)
        /// Summed weights of the token's character n-grams (words only).
        var char: (Float, Float, Float) = (0, 0, 0)
        /// Lexicon scores (0 for kinds the lexicon does not score).
        var lexiconPositive: Float = 0
        var lexiconNegative: Float = 0
        /// Number of character n-grams (words only).
        var charCount: UInt32 = 0
        /// Number of word-group features (1, 2 or 3).
        var wordCount: UInt8 = 0
        /// What the dense features read from the token's text.
        var traits: TokenTraits = []
        /// Index in `LanguageDetector.stopwords`, or -1 (words only).
        var language: Int8 = -1
    }

    let entries: UnsafeMutablePointer<Entry>
    let mask: Int
    /// Scratch for one tweet: each token's key, and the weight-row offset of the
    /// bigram ending at it. Grown by `reserve`.
    private(set) var keys: UnsafeMutablePointer<UInt64>
    private(set) var bigramRows: UnsafeMutablePointer<Int>
    private(set) var scratchCapacity: Int

    /// A cache of `1 << bits` entries in sets of two (two-way set associative:
    /// words whose keys share a set do not evict each other at every turn).
    init(bits: Int = 14) {
        precondition((1...24).contains(bits))
        mask = (1 << bits) - 1
        entries = .allocate(capacity: 1 << bits)
        HugePages.advise(UnsafeMutableRawBufferPointer(start: entries, count: (1 << bits) * MemoryLayout<Entry>.stride))
        entries.initialize(repeating: Entry(), count: 1 << bits)
        scratchCapacity = 256
        keys = .allocate(capacity: scratchCapacity)
        bigramRows = .allocate(capacity: scratchCapacity)
    }

    deinit {
        entries.deallocate()
        keys.deallocate()
        bigramRows.deallocate()
    }

    /// Makes the scratch hold `tokens` tokens.
    @inline(__always)
    func reserve(_ tokens: Int) {
        guard tokens > scratchCapacity else { return }
        keys.deallocate()
        bigramRows.deallocate()
        scratchCapacity = max(tokens, 2 * scratchCapacity)
        keys = .allocate(capacity: scratchCapacity)
        bigramRows = .allocate(capacity: scratchCapacity)
    }

    /// The key of a token, in a contrast scope or not: never 0.
    @inline(__always)
    static func key(_ token: ctk_token, contrast: Bool) -> UInt64 {
        let negated = UInt64(token.flags & UInt16(CTK_FLAG_NEGATED))
        let scope: UInt64 = contrast ? 0x8EBC_6AF0_9C88_C6E3 : 0
        let key = FeatureHash.mix(token.hash ^ (UInt64(token.kind) &* 0xA076_1D64_78BD_642F) ^ (negated &* 0xE703_7ED1_A0B4_28DB) ^ scope)
        return key == 0 ? 1 : key
    }

    /// The set of two slots a key may occupy.
    @inline(__always)
    func set(_ key: UInt64) -> UnsafeMutablePointer<Entry> {
        entries + (Int(truncatingIfNeeded: key) & mask & ~1)
    }

    /// Starts fetching the set of `key`.
    @inline(__always)
    func prefetch(_ key: UInt64) {
        let set = self.set(key)
        ctk_prefetch(set)
        ctk_prefetch(UnsafeRawPointer(set) + 2 * MemoryLayout<Entry>.stride - 1)
    }

    /// The entry of `key`, or nil; on a miss the caller fills `slotForInsert(key)`.
    @inline(__always)
    func lookup(_ key: UInt64) -> UnsafeMutablePointer<Entry>? {
        let set = self.set(key)
        if set.pointee.key == key { return set }
        if set[1].key == key { return set + 1 }
        return nil
    }

    /// Makes room for `key` in its set: the set's newer entry moves to the
    /// older slot (dropping the older one), and the newer slot is returned.
    @inline(__always)
    func slotForInsert(_ key: UInt64) -> UnsafeMutablePointer<Entry> {
        let set = self.set(key)
        set[1] = set[0]
        return set
    }
}
