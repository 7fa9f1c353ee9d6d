import GRDB

extension TweetStore {
    /// The one line saying why the database at `path` could not be opened
    /// with `error`, shared by `sentiment tweets`, `import`, `history` and
    /// `serve`: "cannot use the database PATH: it is read-only (the file PATH
    /// may not be written)" for ``TweetStoreError/readOnly(_:)`` (the file is
    /// there, and may be read, but not used as asked), "cannot open the
    /// database PATH: it is not a SQLite database (…)" for a file of another
    /// kind, and "cannot open the database PATH: " and ``failureReason(_:)`` otherwise.
    public static func openFailureMessage(path: String, error: any Error) -> String {
        if case TweetStoreError.readOnly = error {
            return "cannot use the database \(path): \(error)"
        }
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_NOTADB {
            return "cannot open the database \(path): it is not a SQLite database (SQLite error 26: file is not a database)"
        }
        return "cannot open the database \(path): \(failureReason(error))"
    }

    /// Why the database failed, in one line for its user: SQLite's error
    /// without the SQL that met it ("- while executing `BEGIN IMMEDIATE
    /// TRANSACTION`"), and a lock held too long said as such ("another
    /// process has held its write lock past the busy timeout (SQLite error 5:
    /// database is locked)"); any other error's description.
    public static func failureReason(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        let sqlite = "SQLite error \(error.resultCode.rawValue): \(error.message ?? "\(error.resultCode)")"
        return error.resultCode == .SQLITE_BUSY ? "another process has held its write lock past the busy timeout (\(sqlite))" : sqlite
    }
}
