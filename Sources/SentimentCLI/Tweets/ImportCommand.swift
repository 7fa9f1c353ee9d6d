import ArgumentParser
import Foundation
import Sentiment
import Tweets

/// `sentiment import PATH…`: archives and dumps into the tweet database, classified.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load archives or dumps into the tweet database and classify them.",
        discussion: """
            A PATH is an unpacked X account archive folder (the user comes from \
            data/account.js), a single tweets.js / tweet.js file, a JSON Lines file \
            of X API v1.1 or v2 tweets or v2 pages, or a JSON array or v2 page; \
            '-' reads a file of those kinds from standard input. \
            Files that do not say whose tweets they are need --user. Malformed \
            entries, and users whose username is not one (1 to 50 letters, digits \
            or _) with their tweets, are reported with their position on standard \
            error and skipped. Each PATH is imported on its own: one that cannot \
            be read, or needs --user, is reported and the others are imported \
            all the same; the exit status is then the first such PATH's.

            Exit status: 0 success; 65 some entries were skipped (the rest is \
            imported; a file cut short, its array's ']' missing, too), or the tweets name several authors by id alone, so whose \
            they are cannot be told (with or without --user), or a folder holds no \
            tweet files, or the model is malformed (nothing is imported); 64 usage \
            error (e.g. --user needed); 66 a PATH or the model is missing, or a PATH \
            cannot be read; 73 the database cannot be opened or written (locked \
            by another process past 10 s, a full disk).

            Examples:
              sentiment import Examples/archive/sunnydays
              sentiment import tweets.js --user jack
              sentiment import Examples/archive/rainyday_ops.jsonl
              gunzip -c dump.jsonl.gz | sentiment import - --user jack
            """
    )

    @Argument(help: ArgumentHelp("Archive folders or files ('-': standard input).", valueName: "path"), completion: .file())
    var paths: [String]

    @Option(help: ArgumentHelp("The user the tweets belong to, when the input does not say.", valueName: "name"))
    var user: String?

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var modelOptions: ModelOptions

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one archive folder or file") }
        guard paths.count(where: { $0 == "-" }) <= 1 else { throw ValidationError("standard input ('-') can be read once") }
        if let user, !User.isValidUsername(user) { throw ValidationError("not a username: \(TerminalText.oneLine(user))") }
    }

    func run() async throws {
        let logger = makeTweetsLogger()
        for path in paths where path != "-" && !FileManager.default.fileExists(atPath: path) {
            printError("no such file or directory: \(path)")
            throw ExitCode.noInput
        }
        let model = try modelOptions.loadModel()
        let store = try database.openStore(logger: logger)
        let service = TweetService(store: store, source: nil, classifier: model, logger: logger)
        let showsProgress = isatty(STDERR_FILENO) == 1
        var skipped = 0
        // The first PATH that could not be imported: the others are imported all the same.
        var failure: ExitCode?

        for argument in paths {
            let path = ArchiveInput.name(of: argument)
            let contents: ArchiveContents
            do {
                contents = try ArchiveInput.load(argument)
            } catch let code as ExitCode {
                failure = failure ?? code
                continue
            }
            let summary: TweetService.ImportSummary
            do {
                summary = try await database.reportingFailures {
                    try await service.importArchive(contents, owner: user) { progress in
                        guard showsProgress else { return }
                        writeToStandardError("\r\u{1B}[K\(TerminalText.oneLine(path)): \(progress.phase.rawValue) \(progress.completed)/\(progress.total)")
                    }
                }
            } catch TweetServiceError.ownerRequired {
                if showsProgress { writeToStandardError("\r\u{1B}[K") }
                // What the input holds that could not be read says why (an account.js that names no account).
                printSkipped(contents.issues)
                let authors = contents.unnamedAuthorIDs.count
                // --user cannot help: it names one user, and which of these authors it is cannot be told.
                if authors > 1 {
                    let whose = user.map { "which tweets are @\(User.key(for: $0))'s" } ?? "whose tweets are whose"
                    printError("\(path) names \(authors) authors by id alone, with no user objects: \(whose) cannot be told; "
                        + "import one author's tweets at a time, with --user NAME")
                    failure = failure ?? .dataError
                } else {
                    printError("\(path) does not say whose tweets these are: add --user NAME")
                    failure = failure ?? .usage
                }
                continue
            }
            if showsProgress { writeToStandardError("\r\u{1B}[K") }
            if let unused = summary.unusedOwner {
                switch summary.unusedOwnerReason {
                case .noTweets?:
                    let why = ArchiveInput.noTweetsReason(issues: summary.issues)
                    printError("--user \(unused) not used for \(path): \(why), so no user is stored for it")
                case .tweetsStoredUnderOthers?:
                    printError("--user \(unused) not used for \(path): its tweets are stored under other accounts, which keep them, so no user is stored for it")
                case .authorsNamed?, nil:
                    let authors = summary.users.map { "@" + $0.username } + summary.storedAuthors.map(ArchiveInput.storedAuthor)
                    printError("--user \(unused) not used for \(path): every tweet in it names its author (\(authors.joined(separator: ", ")))")
                }
            }
            if let user, summary.unusedOwnerReason != .authorsNamed, !summary.storedAuthors.isEmpty {
                let authors = summary.storedAuthors.map(ArchiveInput.storedAuthor).joined(separator: "; ")
                printError("--user \(user) not used for the tweets in \(path) by \(authors)")
            }
            printSkipped(summary.issues)
            skipped += summary.issues.count
            if !summary.keptTweetIDs.isEmpty {
                printError("\(TerminalText.oneLine(path)): \(keptTweets(summary.keptTweetIDs))")
            }
            let users = TerminalText.oneLine(summary.users.map { "@" + $0.username }.joined(separator: ", "))
            writeToStandardError("""
                \(TerminalText.oneLine(path)): \(count(summary.tweetsRead, "tweet")) read, \
                \(some(summary.tweetsRepeated, "repeated"))\(summary.tweetsAdded) new, \
                \(some(summary.tweetsUpdated, "updated"))\
                \(some(summary.tweetsReassigned, "moved from an earlier --user"))\
                \(some(summary.tweetsKept, "kept under their stored author"))\
                \(summary.tweetsClassified) classified, \(summary.issues.count) skipped\(users.isEmpty ? "" : " (\(users))")\n
                """)
        }
        if let failure { throw failure }
        if skipped > 0 { throw ExitCode.dataError }
    }

    /// Which stored tweets stay under their account though the input gives
    /// them another author: "2 tweets kept under their stored authors, though
    /// the input gives them another: 602, 611", the first five ids, escaped
    /// to stay on one line, and how many more.
    private func keptTweets(_ ids: [String]) -> String {
        let shown = ids.prefix(5).map(\.escapingControlCharacters).joined(separator: ", ")
        let list = ids.count > 5 ? "\(shown) and \(ids.count - 5) more" : shown
        return ids.count == 1
            ? "1 tweet kept under its stored author, though the input gives it another: \(list)"
            : "\(ids.count) tweets kept under their stored authors, though the input gives them another: \(list)"
    }

    /// "2 updated, ", or nothing when `n` is 0.
    private func some(_ n: Int, _ what: String) -> String {
        n > 0 ? "\(n) \(what), " : ""
    }

    /// "1 tweet", "2 tweets".
    private func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
