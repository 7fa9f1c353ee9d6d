import Foundation
import Sentiment
import Tweets

/// The tweet database could not be opened or created when the server started:
/// `sentiment serve` reports it as `tweets` and `history` do (exit 73), with
/// ``TweetStore/openFailureMessage(path:error:)``. Online, the server stores
/// what it fetches, so a file it may not write is refused: "cannot use the
/// database PATH: it is read-only (…); serve --offline reads it as it is".
/// Offline, it reads such a file (``Server/openStore(configuration:logger:)``),
/// and makes none: a missing one is ``isMissing`` (exit 66, as `tweets
/// --offline` says "no database at PATH").
public struct DatabaseOpenError: DescribedError {
    /// The database path from the configuration.
    public var path: String
    /// What SQLite or the file system said.
    public var underlying: any Error
    /// Whether the server was to run offline; an online one refusing a
    /// read-only file says that offline would read it.
    public var offline: Bool

    /// Whether there is no file at `path` and the server, offline, makes none.
    public var isMissing = false

    /// Creates the error for the database at `path`.
    public init(path: String, underlying: any Error, offline: Bool = false) {
        self.path = path
        self.underlying = underlying
        self.offline = offline
    }

    /// The error of an offline server that finds no database at `path`.
    static func missing(path: String) -> DatabaseOpenError {
        var error = DatabaseOpenError(path: path, underlying: CocoaError(.fileNoSuchFile), offline: true)
        error.isMissing = true
        return error
    }

    public var description: String {
        if isMissing {
            return "no database at \(path): serve --offline reads an existing database and makes none "
                + "(check --db, import tweets into it, or serve without --offline)"
        }
        let message = TweetStore.openFailureMessage(path: path, error: underlying)
        guard !offline, case TweetStoreError.readOnly = underlying else { return message }
        return message + "; serve --offline reads it as it is"
    }
}
