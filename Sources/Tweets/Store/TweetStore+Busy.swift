import GRDB

extension TweetStore {
    /// Whether `error` is SQLite's `SQLITE_BUSY`, as the store's writes throw
    /// it when another connection (another process) holds the database's
    /// write lock past the busy timeout (10 s): a failure that passes once
    /// that connection's transaction ends, unlike a full disk or a corrupt file.
    public static func isBusy(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
    }
}
