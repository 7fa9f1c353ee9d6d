import GRDB

extension TweetStore {
    /// The one line saying why the database at `path` could not be opened
    /// with `error`, shared by `sentiment tweets`, `import`, `history` and
    /// `serve`: "cannot use the database PATH: it is read-only (the file PATH
    /// may not be written)" for ``TweetStoreError/readOnly(_:)`` (the file is
    /// there, and may be read, but not used as asked), "cannot open the
    /// database PATH: it is not a SQLite database (…)" for a file of another
    /// kind, and "cannot open the database PATH: " and the error's description otherwise.
    public static func openFailureMessage(path: String, error: any Error) -> String {
        if case TweetStoreError.readOnly = error {
            return "cannot use the database \(path): \(error)"
        }
        // Without the SQL that met it ("- while executing PRAGMA synchronous = NORMAL").
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_NOTADB {
            return "cannot open the database \(path): it is not a SQLite database (SQLite error 26: file is not a database)"
        }
        return "cannot open the database \(path): \(error)"
    }
}
