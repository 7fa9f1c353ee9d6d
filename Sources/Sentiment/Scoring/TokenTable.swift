import CTokenizer

/// A memo of what each distinct token contributes to a tweet's scores under
/// one model, so the hot path does the work of a word once, not once a tweet.
///
/// The model is linear and its sparse features are summed per group (word
/// n-grams, character n-grams), each group scaled by 1/√(its size). Everything
/// a single token adds — its unigram (and hashtag) weights, the summed weights
/// of its character n-grams and how many there are, its lexicon scores, its
/// stopword language — depends only on the token's hash, kind and negation
/// flag. Tweets repeat words (Zipf), so a table of those sums turns some 190
/// gathers from the 6 MiB weight table per tweet into a dozen lookups,
/// prefetched.
///
/// Each entry (48 bytes) has a 64-byte cache line of its own, its slot. A
/// table "of `bits`" takes the memory that 2^bits entries of 48 bytes would
/// and holds three quarters as many, 3·2^bits/4. A key's home slot is its
/// low 32 bits scaled to that count (a multiplication and a shift), and the
/// key may be there or in the home's partner, the other slot of the same
/// 128-byte pair (`partner(of:)`): the table is two-way set-associative,
/// each set two adjacent lines, and a tweet's tokens are fetched with two
/// prefetches each.
///
/// A new key goes home, unless home holds a key whose home it is (then to the
/// partner, unless the partner holds its own key: then home again, in place
/// of the key there). So a key lives at home whenever it can and at its
/// partner only when two keys share a home. On the 1M-tweet dump (83,000
/// distinct keys in 196,608 slots) this took the fills from 444,000 to
/// 170,000 and ran one core 5–7% faster and both cores 5–6% faster than the
/// direct-mapped table of the same memory it replaced; on a dump with a
/// third of its words drawn from 400,000 random ones, where no table of this
/// size holds the vocabulary, the two ran alike (−2% and +1.6% in two sets,
/// *Docs/performance.md*). Fetching only the home line paid the same on the
/// first dump and lost 16% on the second: a key not at home waited for its
/// partner's line. (An earlier two-way table, sets of two 48-byte entries in
/// 96 bytes that straddled lines, had run 2–3% slower than direct-mapped.)
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
/// command line each have the effect of a 12 MiB cache in 12 MiB, not 24.
///
/// Each slot is a sequence lock (ctk.h): its first two bytes count its
/// writes. A writer claims a slot by making the count odd (compare-and-swap),
/// writes the entry, and makes the count even again, 2 more than before; a
/// reader copies an entry and keeps the copy only if the count was the same,
/// and even, before and after, and the copy holds the key it wanted. Entries
/// are read and written word by word with atomic accesses and fences, never
/// as a plain struct copy, whose loads and stores the compiler may emit in any
/// order and width (it did: see `publish`). A writer that loses the race for a
/// slot leaves it alone: its entry is used for the token at hand and not kept.
///
/// The key was the lock word once, with a reserved `busy` value. That let a
/// reader keep a torn copy when its key came back to the slot during the
/// read (a key, another, the key again: ABA), which a preempted reader met in
/// a test of a four-entry table; a count of writes changes at every write.
public final class TokenTable: @unchecked Sendable {
    /// What one token contributes. 48 bytes, six words: the first holds the
    /// slot's sequence and the small fields, the second the key.
    struct Entry {
        /// The slot's count of writes, odd while one is under way (the low 16
        /// bits of word 0, `CTK_SEQLOCK_SEQUENCE`). Set by the table only.
        private var sequence: UInt16 = 0
        /// `TokenTraits` in the low 6 bits, the word-group count above.
        private var packed: UInt8 = 0
        /// Index in `LanguageDetector.stopwords`, or -1 (words only).
        var language: Int8 = -1
        /// Number of character n-grams (words only).
        var charCount: UInt32 = 0
        /// The token's key; 0 for an empty slot.
        var key: UInt64 = 0
        /// Summed word-group weights: the unigram, plus the hashtag feature of a
        /// hashtag, plus the contrast feature of a token in a "but" scope. In
        /// steps of the weights' scale (sums of `SparseWeights.values`).
        var word: (Float, Float, Float) = (0, 0, 0)
        /// Summed weights of the token's character n-grams (words only), in
        /// steps of the weights' scale.
        var char: (Float, Float, Float) = (0, 0, 0)
        /// Lexicon scores (0 for kinds the lexicon does not score).
        var lexiconPositive: Float = 0
        var lexiconNegative: Float = 0

        /// Number of word-group features (1, 2 or 3).
        var wordCount: UInt8 {
            @inline(__always) get { packed >> 6 }
            @inline(__always) set {
                assert(newValue < 4)
                packed = packed & 0x3F | newValue << 6
            }
        }

        /// What the dense features read from the token's text.
        var traits: TokenTraits {
            @inline(__always) get { TokenTraits(rawValue: packed & 0x3F) }
            @inline(__always) set {
                assert(newValue.rawValue < 0x40)
                packed = packed & 0xC0 | newValue.rawValue
            }
        }
    }

    /// The number of entries: 3·2^bits/4 for a table of `bits`.
    public let capacity: Int
    /// The entries, and the operations on them.
    let slots: Slots
    /// True for a table made to be shared (`SentimentModel.makeTokenTable`):
    /// it serves the model that made it and no other.
    let isShared: Bool
    /// The identity of the model whose weights the entries hold; nil until a
    /// private table is first used. Held, so its address is not reused.
    private(set) var owner: AnyObject?

    /// A table in the memory of 2^bits 48-byte entries (3·2^bits/4 entries of
    /// a cache line each), for `owner`'s workspaces to share, or private
    /// (`owner` nil) and bound to the first model that uses it.
    init(bits: Int, sharedBy owner: AnyObject? = nil) {
        precondition((1...24).contains(bits), "a token table has 2^1 to 2^24 entries' memory")
        // The sequence is the low 16 bits of word 0 on a little-endian machine;
        // the key is word 1; the entry is six whole words (a copy into an
        // entry that ended short of its last word would write past its end).
        assert(1.littleEndian == 1)
        assert(MemoryLayout<Entry>.offset(of: \Entry.key) == Slots.keyWord * MemoryLayout<UInt64>.stride)
        assert(MemoryLayout<Entry>.size == Slots.words * MemoryLayout<UInt64>.stride)
        assert(MemoryLayout<Entry>.size == MemoryLayout<Entry>.stride)
        assert(MemoryLayout<Entry>.size <= Slots.slotBytes)
        capacity = max(1, (3 << bits) / 4)
        isShared = owner != nil
        self.owner = owner
        // Fresh memory reads as zeros: every slot empty (key 0, sequence 0),
        // with nothing written and no page touched until a token lands there.
        let memory = HugePages.allocateZeroed(byteCount: capacity * Slots.slotBytes)
        for index in 0..<capacity {
            (memory + index * Slots.slotBytes).bindMemory(to: Entry.self, capacity: 1)
        }
        slots = Slots(memory: memory, capacity: capacity)
    }

    deinit {
        HugePages.deallocateZeroed(slots.memory, byteCount: capacity * Slots.slotBytes)
    }

    /// The entry in slot `index` (0 to `capacity` − 1), read without its lock:
    /// for tests, with no writer at work.
    func entry(at index: Int) -> Entry {
        slots.slot(index).pointee
    }

    /// Makes the table hold entries of the model identified by `model`: a
    /// private table used by another model is emptied first.
    func serve(_ model: AnyObject) {
        guard owner !== model else { return }
        precondition(!isShared, "a shared TokenTable serves only the model that made it")
        for index in 0..<capacity { slots.slot(index).pointee = Entry() }
        owner = model
    }

    /// The table's memory and what the hot path does with it. A plain value,
    /// so threads sharing the table never touch the table object (and its
    /// reference count) per tweet.
    struct Slots {
        /// `capacity` slots of `slotBytes`, each holding an `Entry` at its start.
        let memory: UnsafeMutableRawPointer
        let capacity: Int

        /// The bytes of a slot: one cache line, so no entry straddles two.
        static let slotBytes = 64

        /// Slot `index`.
        @inline(__always)
        func slot(_ index: Int) -> UnsafeMutablePointer<Entry> {
            (memory + index &* Self.slotBytes).assumingMemoryBound(to: Entry.self)
        }

        /// A key's home slot: its low 32 bits scaled to the capacity. (The key
        /// is a strong hash, its low bits as well spread as any.)
        @inline(__always)
        func slotIndex(for key: UInt64) -> Int {
            ctk_slot_index(key, capacity)
        }

        /// Starts fetching the two slots a key whose home is `index` may be in.
        @inline(__always)
        func prefetchPair(of index: Int) {
            ctk_prefetch(slot(index))
            ctk_prefetch(slot(partner(of: index)))
        }

        /// The other slot of the pair `index` is in (`index` itself when the
        /// capacity is odd and it is the last).
        @inline(__always)
        func partner(of index: Int) -> Int {
            let other = index ^ 1
            return other < capacity ? other : index
        }

        /// Copies the entry of `key` into `entry`; false if the table has none.
        @inline(__always)
        func lookup(_ key: UInt64, into entry: inout Entry) -> Bool {
            lookup(key, home: slotIndex(for: key), into: &entry)
        }

        /// Copies the entry of `key`, whose home slot is `home`
        /// (`slotIndex(for: key)`, which `ctk_token_keys` computes for a
        /// tweet's tokens in its first pass), into `entry`; false if the
        /// table has none.
        @inline(__always)
        func lookup(_ key: UInt64, home: Int, into entry: inout Entry) -> Bool {
            if read(slot(home), key: key, into: &entry) { return true }
            return read(slot(partner(of: home)), key: key, into: &entry)
        }

        /// Keeps `entry` in its home slot, or in the home's partner.
        @inline(never)
        func insert(_ entry: Entry) {
            let slot = slot(placement(of: entry.key))
            var claimed: UInt64 = 0
            if claim(slot, &claimed) { publish(entry, in: slot, claimed: claimed) }
        }

        /// Where a new key goes: home, unless home holds a key whose home it
        /// is; then the partner, unless the partner holds its own; then home.
        /// The keys are read without the lock (`ctk_seqlock_peek`): a key
        /// changing meanwhile only places this one less well, and the slot
        /// is claimed as ever. Two threads filling the same key may put it in
        /// both slots of its pair; the two entries are the same.
        @inline(__always)
        func placement(of key: UInt64) -> Int {
            let home = slotIndex(for: key)
            let other = partner(of: home)
            let resident = ctk_seqlock_peek(UnsafeRawPointer(slot(home)), Self.keyWord)
            if resident == 0 || slotIndex(for: resident) != home { return home }
            let neighbour = ctk_seqlock_peek(UnsafeRawPointer(slot(other)), Self.keyWord)
            if neighbour == 0 || slotIndex(for: neighbour) != other { return other }
            return home
        }

        // MARK: The sequence lock of a slot

        /// An entry's size in 64-bit words, the unit of the sequence lock.
        @inline(__always)
        static var words: Int { MemoryLayout<Entry>.size / MemoryLayout<UInt64>.stride }
        /// The word of an entry that holds its key.
        @inline(__always)
        static var keyWord: Int { 1 }

        /// Copies `slot` into `entry` if it holds `key`, and no write of the
        /// slot overlapped the copy.
        ///
        /// Word by word, with atomic loads (`ctk_seqlock_read_key`): never
        /// `entry = slot.pointee`, whose plain loads the compiler may move,
        /// split or merge across the checks of the sequence.
        @inline(__always)
        private func read(_ slot: UnsafeMutablePointer<Entry>, key: UInt64, into entry: inout Entry) -> Bool {
            withUnsafeMutablePointer(to: &entry) { copy in
                ctk_seqlock_read_key(UnsafeRawPointer(slot), Self.keyWord, key, UnsafeMutableRawPointer(copy), Self.words)
            }
        }

        /// Takes `slot` for writing, unless another thread is writing it;
        /// `claimed` is then its first word, for `publish`.
        @inline(__always)
        private func claim(_ slot: UnsafeMutablePointer<Entry>, _ claimed: inout UInt64) -> Bool {
            ctk_seqlock_claim(UnsafeMutableRawPointer(slot), &claimed)
        }

        /// Writes `entry` into a claimed slot, and releases it.
        ///
        /// Word by word, with atomic stores (`ctk_seqlock_publish`): never
        /// `slot.pointee = …`, a plain struct store the compiler may lower in
        /// any order and width. Compiled so, when the key was the lock word
        /// and the stored copy's key was `busy`, the release build wrote the
        /// entry's first 16 bytes — its real key among them — before the
        /// rest, then `busy`, then the key: a reader in between saw its key
        /// before and after its copy and kept the new key and first two
        /// weights over the old entry's others.
        @inline(__always)
        private func publish(_ entry: Entry, in slot: UnsafeMutablePointer<Entry>, claimed: UInt64) {
            withUnsafePointer(to: entry) { body in
                ctk_seqlock_publish(UnsafeMutableRawPointer(slot), claimed, UnsafeRawPointer(body), Self.words)
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
    /// Scratch for one tweet (`ctk_token_keys`): each token's key and slot
    /// in the table, and the weight-row offset of the bigram ending at it.
    /// Grown by `reserve`.
    private(set) var keys: UnsafeMutablePointer<UInt64>
    private(set) var slotIndexes: UnsafeMutablePointer<Int>
    private(set) var bigramRows: UnsafeMutablePointer<Int>
    private(set) var scratchCapacity: Int

    init(table: TokenTable) {
        self.table = table
        slots = table.slots
        scratchCapacity = 256
        keys = .allocate(capacity: scratchCapacity)
        bigramRows = .allocate(capacity: scratchCapacity)
        slotIndexes = .allocate(capacity: scratchCapacity)
    }

    deinit {
        keys.deallocate()
        bigramRows.deallocate()
        slotIndexes.deallocate()
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
        slotIndexes.deallocate()
        scratchCapacity = max(tokens, 2 * scratchCapacity)
        keys = .allocate(capacity: scratchCapacity)
        bigramRows = .allocate(capacity: scratchCapacity)
        slotIndexes = .allocate(capacity: scratchCapacity)
    }

    /// The key of a token, in a contrast scope or not: never 0 (empty).
    ///
    /// The token's hash is already a strong 64-bit hash (`ctk_hash64` ends in
    /// a folded 128-bit multiplication), so its kind, negation and scope are
    /// xor-ed in as constants without a second mix: the key is as unique as
    /// the hash, and its low bits, which pick the set, as well spread. (A
    /// splitmix round here cost 1–5% of `sentiment classify`.)
    @inline(__always)
    static func key(_ token: ctk_token, contrast: Bool) -> UInt64 {
        ctk_token_key(token.hash, token.kind, token.flags, contrast)
    }
}
