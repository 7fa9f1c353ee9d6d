import CTokenizer

/// A memo of what each distinct token contributes to a tweet's scores under
/// one model, so the hot path does the work of a word once, not once a tweet.
///
/// The model is linear and its sparse features are summed per group (word
/// n-grams, character n-grams), each group scaled by 1/√(its size). Everything
/// a single token adds — its unigram (and hashtag) weights, the summed weights
/// of its character n-grams and how many there are, its lexicon scores, its
/// stopword language — depends only on the token's hash, kind and negation
/// flag. Tweets repeat words (Zipf), so a two-way set-associative table of
/// those sums turns some 190 gathers from the 12 MiB weight table per tweet
/// into a dozen lookups, prefetched.
///
/// Entries are keyed by a 64-bit mix of (hash, kind, negated, in a "but"
/// scope). The model itself sees words only through their 64-bit hashes, so
/// two texts with the same key are already one word to it; the character
/// n-grams and the language lists, the only parts read from the text, are
/// recomputed from the text of whichever token filled the slot.
///
/// ## Sharing
///
/// Every `Workspace` has a table of its own unless it is made with
/// `SentimentModel.makeWorkspace(sharing:)`: then the workspaces of several
/// threads read and fill one table, without locks, and each of them sees
/// every word any of them has met. That is what lets two workers of the
/// command line each have the effect of a 6 MiB cache in 6 MiB, not 12.
///
/// Each slot is a sequence lock whose sequence word is the key. A writer
/// claims a slot by swapping its key for `busy` (compare-and-swap), writes the
/// entry, and publishes the key last; a reader copies an entry and keeps the
/// copy only if the slot held the key it wanted both before and after. The
/// entries are read and written word by word with atomic accesses and fences
/// (`ctk_seqlock_read`, `ctk_seqlock_publish`), never as a plain struct copy,
/// whose loads and stores the compiler may emit in any order and width (it
/// did: see `publish`). A writer that loses the race for a slot leaves it alone: its entry is used
/// for the token at hand and not kept. An entry is a function of its key
/// (two texts share a key only if their 64-bit hashes collide), so two
/// writers of the same key write the same bytes, and a reader that meets a
/// rewrite of its key mid-copy still copies that entry.
public final class TokenTable: @unchecked Sendable {
    /// What one token contributes. 48 bytes; `key` first (the slot's lock word).
    struct Entry {
        /// The slot's key; 0 for an empty slot, `busy` while being written.
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
        /// Unused: makes the entry's size its stride, 48 bytes, six whole
        /// words. The sequence lock copies entries word by word, and a copy
        /// into a 47-byte `Entry` would write past its end (undefined: the
        /// optimizer dropped the last word).
        private var spare: UInt8 = 0
    }

    /// The key of a slot being written. Never a token's key.
    static let busy = UInt64.max

    /// The number of entries.
    public let capacity: Int
    /// The entries, and the operations on them.
    let slots: Slots
    var entries: UnsafeMutablePointer<Entry> { slots.entries }
    /// True for a table made to be shared (`SentimentModel.makeTokenTable`):
    /// it serves the model that made it and no other.
    let isShared: Bool
    /// The identity of the model whose weights the entries hold; nil until a
    /// private table is first used. Held, so its address is not reused.
    private(set) var owner: AnyObject?

    /// A table of `1 << bits` entries (48 bytes each) in sets of two, for
    /// `owner`'s workspaces to share, or private (`owner` nil) and bound to
    /// the first model that uses it.
    init(bits: Int, sharedBy owner: AnyObject? = nil) {
        precondition((1...24).contains(bits), "a token table has 2^1 to 2^24 entries")
        assert(MemoryLayout<Entry>.offset(of: \Entry.key) == 0)
        assert(MemoryLayout<Entry>.size == MemoryLayout<Entry>.stride && MemoryLayout<Entry>.size % MemoryLayout<UInt64>.stride == 0)
        capacity = 1 << bits
        isShared = owner != nil
        self.owner = owner
        let entries = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        HugePages.advise(UnsafeMutableRawBufferPointer(start: entries, count: capacity * MemoryLayout<Entry>.stride))
        entries.initialize(repeating: Entry(), count: capacity)
        slots = Slots(entries: entries, mask: capacity - 1)
    }

    deinit {
        entries.deallocate()
    }

    /// Makes the table hold entries of the model identified by `model`: a
    /// private table used by another model is emptied first.
    func serve(_ model: AnyObject) {
        guard owner !== model else { return }
        precondition(!isShared, "a shared TokenTable serves only the model that made it")
        entries.update(repeating: Entry(), count: capacity)
        owner = model
    }

    /// The table's memory and what the hot path does with it. A plain value,
    /// so threads sharing the table never touch the table object (and its
    /// reference count) per tweet.
    struct Slots {
        let entries: UnsafeMutablePointer<Entry>
        let mask: Int

        /// The set of two slots a key may occupy: the newer entry first.
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

        /// Copies the entry of `key` into `entry`; false if the table has none.
        @inline(__always)
        func lookup(_ key: UInt64, into entry: inout Entry) -> Bool {
            let set = self.set(key)
            return read(set, key: key, into: &entry) || read(set + 1, key: key, into: &entry)
        }

        /// Keeps `entry` as the newer entry of its set; the set's newer entry
        /// becomes the older one (the older one is dropped).
        @inline(never)
        func insert(_ entry: Entry) {
            let set = self.set(entry.key)
            var newer = Entry()
            let newerKey = ctk_load_acquire(Self.lockWord(set))
            if newerKey == 0 || newerKey == TokenTable.busy || !read(set, key: newerKey, into: &newer) {
                newer = Entry()
            }
            if claim(set + 1) { publish(newer, in: set + 1) }
            if claim(set) { publish(entry, in: set) }
        }

        // MARK: The sequence lock of a slot

        @inline(__always)
        private static func lockWord(_ slot: UnsafeMutablePointer<Entry>) -> UnsafeMutablePointer<UInt64> {
            UnsafeMutableRawPointer(slot).assumingMemoryBound(to: UInt64.self)
        }

        /// An entry's size in 64-bit words, the unit of the sequence lock.
        @inline(__always)
        private static var words: Int { MemoryLayout<Entry>.size / MemoryLayout<UInt64>.stride }

        /// Copies `slot` into `entry` if it holds `key`, and held it throughout.
        ///
        /// Word by word, with atomic loads (`ctk_seqlock_read`): never
        /// `entry = slot.pointee`, whose plain loads the compiler may move,
        /// split or merge across the checks of the key.
        @inline(__always)
        private func read(_ slot: UnsafeMutablePointer<Entry>, key: UInt64, into entry: inout Entry) -> Bool {
            withUnsafeMutablePointer(to: &entry) { copy in
                ctk_seqlock_read(UnsafeRawPointer(slot), key, UnsafeMutableRawPointer(copy), Self.words)
            }
        }

        /// Marks `slot` busy, unless another thread is writing it.
        @inline(__always)
        private func claim(_ slot: UnsafeMutablePointer<Entry>) -> Bool {
            let word = Self.lockWord(slot)
            let current = ctk_load_acquire(word)
            return current != TokenTable.busy && ctk_compare_exchange(word, current, TokenTable.busy)
        }

        /// Writes `entry` into a claimed slot, its key last.
        ///
        /// Word by word, with atomic stores (`ctk_seqlock_publish`): never
        /// `slot.pointee = …`, a plain struct store the compiler may lower in
        /// any order and width. Compiled so, with the key set to `busy` in the
        /// stored copy, the release build wrote the entry's first 16 bytes —
        /// its real key among them — before the rest, then `busy`, then the
        /// key: a reader in between saw its key before and after its copy and
        /// kept the new key and first two weights over the old entry's others.
        @inline(__always)
        private func publish(_ entry: Entry, in slot: UnsafeMutablePointer<Entry>) {
            withUnsafePointer(to: entry) { body in
                ctk_seqlock_publish(UnsafeMutableRawPointer(slot), UnsafeRawPointer(body), Self.words)
            }
        }
    }
}

/// A workspace's side of the token table: the table (its own or shared) and
/// the scratch of the tweet being scored. Not thread-safe: one per `Workspace`.
final class TokenCache {
    /// The table, kept alive; the hot path uses `slots`.
    let table: TokenTable
    let slots: TokenTable.Slots
    /// The model this workspace last checked the table against.
    private var served: ObjectIdentifier?
    /// Scratch for one tweet: each token's key, and the weight-row offset of the
    /// bigram ending at it. Grown by `reserve`.
    private(set) var keys: UnsafeMutablePointer<UInt64>
    private(set) var bigramRows: UnsafeMutablePointer<Int>
    private(set) var scratchCapacity: Int

    init(table: TokenTable) {
        self.table = table
        slots = table.slots
        scratchCapacity = 256
        keys = .allocate(capacity: scratchCapacity)
        bigramRows = .allocate(capacity: scratchCapacity)
    }

    deinit {
        keys.deallocate()
        bigramRows.deallocate()
    }

    /// Makes the table hold entries of `model` (see `TokenTable.serve`); the
    /// table is consulted only when the model changes.
    @inline(__always)
    func serve(_ model: AnyObject) {
        if served != ObjectIdentifier(model) {
            table.serve(model)
            served = ObjectIdentifier(model)
        }
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

    /// The key of a token, in a contrast scope or not: never 0 (empty) or
    /// `TokenTable.busy`.
    @inline(__always)
    static func key(_ token: ctk_token, contrast: Bool) -> UInt64 {
        let negated = UInt64(token.flags & UInt16(CTK_FLAG_NEGATED))
        let scope: UInt64 = contrast ? 0x8EBC_6AF0_9C88_C6E3 : 0
        let key = FeatureHash.mix(token.hash ^ (UInt64(token.kind) &* 0xA076_1D64_78BD_642F) ^ (negated &* 0xE703_7ED1_A0B4_28DB) ^ scope)
        return key == 0 || key == TokenTable.busy ? 1 : key
    }
}
