import ArgumentParser
import Foundation
import Logging
import Tweets

/// `--db PATH`: the tweet database, shared by `tweets`, `import` and `history`.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The tweet database. Defaults to $SENTIMENT_DB, then $XDG_DATA_HOME/swift-sentiment/tweets.sqlite.",
            valueName: "path"),
        completion: .file())
    var path: String?

    /// The database's path: `--db`, then `$SENTIMENT_DB`, then the default.
    var resolvedPath: String { DatabaseLocation.resolve(flag: path) }

    /// An empty `--db` (`--db "$DB"` with `DB` unset) is refused: read as
    /// none, it put the command on the default database, unsaid.
    func validate() throws {
        if path == "" { throw ValidationError("--db needs a path, not an empty one") }
        // The variables the default path is made of (`DatabaseLocation.resolve`).
        if path == nil {
            let named = !(ProcessInfo.processInfo.environment[DatabaseLocation.environmentVariable] ?? "").isEmpty
            try RawArguments.checkEnvironment(named ? [DatabaseLocation.environmentVariable] : ["XDG_DATA_HOME", "HOME"], instead: "--db PATH")
        }
    }

    /// Opens the database if its file exists, for a command that only reads:
    /// nil otherwise, and nothing is made on disk (a mistyped `--db` stays
    /// visible as such). A file this user may not write, or whose folder they
    /// may not write (a shared or archived snapshot), is opened read-only and
    /// read all the same, unless the command is `forWriting` (`history
    /// --clear`): then it is refused as ``openStore(logger:)`` refuses it,
    /// saying it is read-only and why.
    ///
    /// - Throws: `ExitCode.cannotCreate` (73) after a one-line error.
    func openExistingStore(logger: Logger, forWriting: Bool = false) throws -> TweetStore? {
        let resolved = resolvedPath
        guard FileManager.default.fileExists(atPath: resolved) else { return nil }
        if forWriting || TweetStore.canWrite(existingFileAt: resolved) { return try openStore(logger: logger) }
        do {
            return try TweetStore(readingPath: resolved, logger: logger)
        } catch {
            printError(TweetStore.openFailureMessage(path: resolved, error: error))
            throw ExitCode.cannotCreate
        }
    }

    /// Opens (creating on first use) the database, for writing.
    ///
    /// - Throws: `ExitCode.cannotCreate` (73) after a one-line error: "cannot
    ///   use the database PATH: it is read-only (…)" for a file this user may
    ///   not write, or in a folder they may not write, and "cannot open the
    ///   database PATH: …" with SQLite's or the system's reason otherwise.
    func openStore(logger: Logger) throws -> TweetStore {
        let resolved = resolvedPath
        do {
            return try TweetStore(path: resolved, logger: logger)
        } catch {
            printError(TweetStore.openFailureMessage(path: resolved, error: error))
            throw ExitCode.cannotCreate
        }
    }
}

extension DatabaseOptions {
    /// Runs a command's work on the opened database. A failure of the
    /// database itself on the way (another process holding its write lock past
    /// the 10 s busy timeout, a full disk, a corrupt page) is said in one line
    /// and exits 73, as one when opening it does, not 1.
    func reportingFailures<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch where TweetStore.isDatabaseFailure(error) {
            printError("cannot use the database \(resolvedPath): \(TweetStore.failureReason(error))")
            throw ExitCode.cannotCreate
        }
    }
}

/// A logger to standard error, at `$SENTIMENT_LOG_LEVEL` (default `error`).
func makeTweetsLogger() -> Logger {
    var logger = Logger(label: "sentiment.tweets", factory: { StreamLogHandler.standardError(label: $0) })
    logger.logLevel = ProcessInfo.processInfo.environment["SENTIMENT_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
        ?? .error
    return logger
}

/// A source that always fails the same way: used when the X API cannot be
/// called at all (no token), so the store still answers, marked stale.
struct UnavailableSource: TweetSource {
    let reason: String

    func user(username: String) async throws -> User { throw TweetSourceFailure.unavailable(reason) }

    func tweets(of user: User, maxResults: Int, cursor: String?) async throws -> Page<Tweet> {
        throw TweetSourceFailure.unavailable(reason)
    }
}

/// Whether standard output should get colours: never with `NO_COLOR` set and
/// not empty (no-color.org); always with `FORCE_COLOR` set, not empty and not
/// `0` (force-color.org: into a pipe, for a pager or a CI log that shows them);
/// else on a terminal that is not `TERM=dumb` (Emacs's shell buffer, which
/// prints escapes as they are).
func standardOutputWantsColor() -> Bool {
    let environment = ProcessInfo.processInfo.environment
    if !(environment["NO_COLOR"] ?? "").isEmpty { return false }
    if let force = environment["FORCE_COLOR"], !force.isEmpty, force != "0" { return true }
    return isatty(STDOUT_FILENO) == 1 && environment["TERM"] != "dumb"
}
