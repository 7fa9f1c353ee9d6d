import Foundation
import Sentiment
import Tweets

/// The tweet database could not be opened or created when the server started:
/// `sentiment serve` reports it as `tweets` and `history` do (exit 73), with
/// ``TweetStore/openFailureMessage(path:error:)``. The server always writes
/// (searches, labels), so a file it may not write is refused: "cannot use the
/// database PATH: it is read-only (…)".
public struct DatabaseOpenError: DescribedError {
    /// The database path from the configuration.
    public var path: String
    /// What SQLite or the file system said.
    public var underlying: any Error

    public var description: String { TweetStore.openFailureMessage(path: path, error: underlying) }
}
