/// What the scorer's first pass finds for one tweet's tokens, for the second
/// pass to sum: each token's key and home slot in the token table, the
/// weight-row offset of the bigram ending at each token (`ctk_token_keys`),
/// and where a "but" scope starts. Grown by `reserve`; not thread-safe.
///
/// A workspace has two, so that one tweet's first pass (and the fetches it
/// starts) can run before the previous tweet's second pass.
final class FirstPass {
    private(set) var keys: UnsafeMutablePointer<UInt64>
    private(set) var slotIndexes: UnsafeMutablePointer<Int>
    private(set) var bigramRows: UnsafeMutablePointer<Int>
    private(set) var capacity: Int
    /// The tokens from this one on are in a "but" scope (`contrastWords`);
    /// the token count when none is.
    var contrastFrom = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
        keys = .allocate(capacity: capacity)
        slotIndexes = .allocate(capacity: capacity)
        bigramRows = .allocate(capacity: capacity)
    }

    deinit {
        keys.deallocate()
        slotIndexes.deallocate()
        bigramRows.deallocate()
    }

    /// Makes room for `tokens` tokens (the contents are not kept).
    @inline(__always)
    func reserve(_ tokens: Int) {
        guard tokens > capacity else { return }
        keys.deallocate()
        slotIndexes.deallocate()
        bigramRows.deallocate()
        capacity = max(tokens, 2 * capacity)
        keys = .allocate(capacity: capacity)
        slotIndexes = .allocate(capacity: capacity)
        bigramRows = .allocate(capacity: capacity)
    }
}
