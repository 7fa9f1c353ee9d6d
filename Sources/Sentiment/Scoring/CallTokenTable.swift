import Foundation

/// The token table that a model's own calls share — `classify(_:)` and the
/// iterators of `predictions(for:)` — made at the first of them, so that
/// every call, on any thread, finds the words earlier calls met instead of
/// starting from an empty cache. Copies of a model share it.
final class CallTokenTable: @unchecked Sendable {
    private let lock = NSLock()
    private var table: TokenTable?

    /// The table, made by `make` at the first call.
    func get(_ make: () -> TokenTable) -> TokenTable {
        lock.lock()
        defer { lock.unlock() }
        if let table { return table }
        let made = make()
        table = made
        return made
    }

    /// Whether a call has made the table yet.
    var isMade: Bool {
        lock.lock()
        defer { lock.unlock() }
        return table != nil
    }
}
