/// The one order of a user's tweets, shared by the store, archives and sources:
/// newest first by time, then by id **as a number** (X ids are decimal
/// numbers of different lengths, so `"9"` comes before `"11"` in time).
///
/// Ids compare by length, then byte by byte: for decimal ids without leading
/// zeros this is their numeric order, and any other ids still get a total
/// order. The store's SQL says the same thing as `(length(id), id)` (SQLite's
/// `length` counts code points, its `BINARY` collation compares UTF-8 bytes),
/// so a page read from an archive and a page read from the database agree.
enum TweetOrder {
    /// Whether tweet id `a` comes before `b`: a shorter id first, then by bytes.
    static func idPrecedes(_ a: String, _ b: String) -> Bool {
        let lengthA = a.unicodeScalars.count, lengthB = b.unicodeScalars.count
        if lengthA != lengthB { return lengthA < lengthB }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The SQL sort key of `table`'s tweets in ascending order, for `ORDER BY`
    /// and row-value comparisons: `(created_at, length(id), id)`.
    static func sqlKey(_ table: String) -> String {
        "\(table).created_at, length(\(table).id), \(table).id"
    }
}

extension Tweet {
    /// Newest first; equal times by descending numeric id (the store's order, ``TweetOrder``).
    static func newestFirst(_ a: Tweet, _ b: Tweet) -> Bool {
        if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
        return TweetOrder.idPrecedes(b.id, a.id)
    }
}
