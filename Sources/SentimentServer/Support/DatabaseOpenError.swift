/// The tweet database could not be opened or created when the server started:
/// `sentiment serve` reports it as `tweets` and `history` do (exit 73).
public struct DatabaseOpenError: Error, CustomStringConvertible {
    /// The database path from the configuration.
    public var path: String
    /// What SQLite or the file system said.
    public var underlying: any Error

    public var description: String { "cannot open the database \(path): \(underlying)" }
}
