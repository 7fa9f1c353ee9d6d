import ArgumentParser
import Foundation
import Sentiment
import Tweets

/// `sentiment tweets USERNAME`: a user's tweets, newest first, each with its mood.
struct TweetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweets",
        abstract: "Show a user's tweets, newest first, each with its mood.",
        discussion: """
            Tweets come from the X API v2 (token from $X_BEARER_TOKEN or the \
            file $XDG_CONFIG_HOME/swift-sentiment/x-bearer-token, ~/.config \
            without XDG_CONFIG_HOME), or from an archive with \
            --archive, and are kept in the tweet database: each tweet is \
            classified once per model version. When the X API fails, the stored \
            tweets are shown (the rest of --limit too, without asking X again) \
            and a note goes to standard error (exit 0); a \
            connection error, timeout or 5xx is first retried --retries times \
            (after 4 s, then 8 s). With --offline the database alone answers.

            Pretty output shows 😃 happy, 😐 neutral, 😔 sad, or 🌐 for a language \
            the model does not support, a date, and the text in the theme's colour \
            (24-bit colour on a terminal; plain when piped, with TERM=dumb or with NO_COLOR set and \
            not empty; FORCE_COLOR set, not empty and not 0 colours it when piped or with TERM=dumb too, \
            NO_COLOR still winning). \
            jsonl prints one object per tweet: id, author_id, text, created_at, \
            lang, label, probabilities, score, language, mood, theme (name, emoji, \
            color as #RRGGBB, or null) and model_id; label and theme are null \
            for a language the model does not support (mood unsupported_language).

            Exit status: 0 success (stale included); 64 usage error; 65 an \
            --archive with no tweets files or with skipped entries (the rest is \
            shown), or a malformed model; 66 offline \
            and nothing stored, or a missing or unreadable archive, or a missing \
            model; 67 unknown user (an --archive with none of their tweets, and \
            nothing stored for them); \
            69 the source failed and nothing is stored; 73 the database cannot be \
            opened or written (locked by another process past 10 s, a full disk); \
            74 standard output is closed or cannot be written (a full disk).

            Examples:
              sentiment tweets sunnydays --archive Examples/archive/sunnydays
              sentiment tweets XDevelopers --limit 50 --format jsonl
              sentiment tweets sunnydays --offline
            """
    )

    @Argument(help: ArgumentHelp("The username, with or without @.", valueName: "username"))
    var username: String

    @Option(help: ArgumentHelp("Read tweets from an archive folder or file ('-': standard input) instead of the X API.", valueName: "path"),
            completion: .file())
    var archive: String?

    @Option(help: ArgumentHelp("How many tweets to show.", valueName: "n"))
    var limit: Int = 20

    @Option(help: "Output format: pretty or jsonl.")
    var format: TimelinePrinter.Format = .pretty

    @Option(name: .customLong("api-url"),
            help: ArgumentHelp("The X API base URL. Defaults to $X_API_URL, then https://api.x.com.", valueName: "url"))
    var apiURL: String?

    @Flag(help: "Answer from the database alone, without touching the network.")
    var offline = false

    @Option(help: ArgumentHelp("Retries of a failed X API request, after 4 s, 8 s, 16 s, … (0: answer from the database at once).",
                               valueName: "n"))
    var retries: Int = 2

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var modelOptions: ModelOptions

    func validate() throws {
        guard User.isValidUsername(username) else { throw ValidationError("not a username: \(TerminalText.oneLine(username))") }
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
        guard (0...10).contains(retries) else { throw ValidationError("--retries must be between 0 and 10") }
        if offline, archive != nil { throw ValidationError("--offline and --archive cannot be combined") }
    }

    func run() async throws {
        try StandardStreams.requireOutput()
        let logger = makeTweetsLogger()
        let model = try modelOptions.loadModel()
        guard let store = try offline ? database.openExistingStore(logger: logger) : database.openStore(logger: logger) else {
            // An offline read of a database that does not exist: say so, as the service would, and make none.
            let error = TweetServiceError.nothingStored(username: User.key(for: username), failure: nil)
            printError("\(error): no database at \(database.resolvedPath)")
            throw ExitCode.noInput
        }

        if offline {
            try await show(TweetService(store: store, source: nil, classifier: model, logger: logger))
        } else if let archive {
            let contents = try ArchiveInput.load(archive)
            // As `import --user` does: a stored account of that name owns the
            // tweets the archive would give a made-up one.
            let source = try await database.reportingFailures {
                try await ArchiveSource(contents: contents, owner: username, store: store)
            }
            printSkipped(source.contents.issues)
            if (try? await source.user(username: username)) == nil {
                var note = "\(ArchiveInput.name(of: archive)) has no tweets of @\(User.key(for: username))"
                if contents.tweets.isEmpty {
                    note += ": " + ArchiveInput.noTweetsReason(issues: contents.issues)
                } else if !source.storedAuthors.isEmpty {
                    note += " (" + source.storedAuthors.map(ArchiveInput.storedAuthor).joined(separator: "; ") + ")"
                }
                printError(note)
            }
            do {
                try await show(TweetService(store: store, source: source, classifier: model, logger: logger))
            } catch let status as ExitCode where status == .noUser && contents.tweets.isEmpty && !contents.issues.isEmpty {
                // As `import` exits for the same file: every entry was skipped.
                throw ExitCode.dataError
            }
            // As `import`: the rest is shown, but the archive was not all usable.
            if !source.contents.issues.isEmpty { throw ExitCode.dataError }
        } else {
            guard let baseURL = XAPIConfiguration.baseURL(flag: apiURL) else {
                printError("not an http(s) URL: \(apiURL ?? ProcessInfo.processInfo.environment["X_API_URL"] ?? "")")
                throw ExitCode.usage
            }
            guard let token = BearerToken.resolve() else {
                let source = UnavailableSource(reason: "no X API token: set X_BEARER_TOKEN")
                try await show(TweetService(store: store, source: source, classifier: model, logger: logger))
                return
            }
            let configuration = XAPIConfiguration(baseURL: baseURL, bearerToken: token, retryPolicy: .backoff(retries: retries))
            try await XAPIClient.withClient(configuration: configuration, logger: logger) { client in
                try await show(TweetService(store: store, source: client, classifier: model, logger: logger))
            }
        }
    }

    /// Pages through the timeline until `limit` tweets are printed.
    private func show(_ service: TweetService) async throws {
        let printer = TimelinePrinter(format: format, color: format == .pretty && standardOutputWantsColor())
        var cursor: String?
        var printed = 0
        var failure: TweetSourceFailure?
        repeat {
            let timeline: Timeline
            do {
                timeline = try await database.reportingFailures { [cursor, printed] in
                    try await service.timeline(username: username, cursor: cursor, limit: min(100, limit - printed))
                }
            } catch let error as TweetServiceError {
                printError(error.description)
                switch error {
                case .unknownUser: throw ExitCode.noUser
                case .nothingStored(_, nil): throw ExitCode.noInput
                case .nothingStored: throw ExitCode.unavailable
                default: throw ExitCode.usage
                }
            }
            if printed == 0 { try StandardStreams.write(printer.header(timeline.user)) }
            var text = ""
            for tweet in timeline.tweets { text += try printer.line(tweet) }
            try StandardStreams.write(text)
            printed += timeline.tweets.count
            failure = failure ?? timeline.failure
            cursor = timeline.nextCursor
        } while cursor != nil && printed < limit
        if let failure {
            printError("showing stored tweets, which may be out of date: \(failure.message)")
        }
        if printed == 0, format == .pretty { try StandardStreams.write("No tweets.\n") }
    }
}

extension TimelinePrinter.Format: ExpressibleByArgument {}
