extension TweetStore {
    /// The one line saying why the database at `path` could not be opened
    /// with `error`, shared by `sentiment tweets`, `import`, `history` and
    /// `serve`: "cannot use the database PATH: it is read-only (the file PATH
    /// may not be written)" for ``TweetStoreError/readOnly(_:)`` (the file is
    /// there, and may be read, but not used as asked), "cannot open the
    /// database PATH: " and the error's description otherwise.
    public static func openFailureMessage(path: String, error: any Error) -> String {
        if case TweetStoreError.readOnly = error {
            return "cannot use the database \(path): \(error)"
        }
        return "cannot open the database \(path): \(error)"
    }
}
