import Foundation
import Testing

/// `sentiment import`, `tweets` and `history`, run as subprocesses on a fresh
/// SQLite file per test: the sample archive goes in, timelines come out with
/// their themes, and every way of failing has its exit status.
@Suite("sentiment tweets, import and history", .serialized)
final class TweetsCommandTests {
    typealias Run = SentimentExecutable.Run

    /// The folders this test made; removed when it ends (a new instance runs each test).
    private var folders: [URL] = []

    deinit {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }

    /// A fresh database path in its own temporary folder.
    private func freshDatabase() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sentiment-tweets-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        folders.append(folder)
        return folder.appendingPathComponent("tweets.sqlite").path
    }

    /// Writes `text` as `dump.jsonl` beside the database `db`; returns its path.
    private func writeDump(_ text: String, besides db: String) throws -> String {
        let dump = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("dump.jsonl")
        try text.write(to: dump, atomically: false, encoding: .utf8)
        return dump.path
    }

    /// Runs with no X token and no database from the environment, so only the flags count.
    private func sentiment(_ arguments: [String], input: Data? = nil, environment: [String: String?] = [:],
                           timeLimit: Duration? = nil) async throws -> Run {
        var environment = environment
        if environment["X_BEARER_TOKEN"] == nil { environment["X_BEARER_TOKEN"] = .some(nil) }
        environment["SENTIMENT_DB"] = .some(nil)
        environment["X_API_URL"] = .some(nil)
        // The test run's own FORCE_COLOR or NO_COLOR (`swift test` may set it) would decide the colours.
        for name in ["FORCE_COLOR", "NO_COLOR"] where environment[name] == nil { environment[name] = .some(nil) }
        environment["HOME"] = FileManager.default.temporaryDirectory.path
        return try await SentimentExecutable.run(arguments, input: input, environment: environment, timeLimit: timeLimit)
    }

    /// Runs `cat file | sentiment arguments…` in a shell, so standard input is a pipe.
    private func sentiment(_ arguments: [String], pipedFrom file: String) async throws -> Run {
        let executable = try #require(SentimentExecutable.url)
        return try await SentimentExecutable.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"file="$1"; shift; cat "$file" | "$@""#, "sh", file, executable.path] + arguments,
            environment: ["X_BEARER_TOKEN": nil, "SENTIMENT_DB": nil, "X_API_URL": nil,
                          "HOME": FileManager.default.temporaryDirectory.path])
    }

    private let archive = SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/sunnydays").path

    // MARK: - Import and timeline

    @Test("Importing the sample archive stores and classifies its twelve tweets")
    func importArchive() async throws {
        let db = try freshDatabase()
        let run = try await sentiment(["import", archive, "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("12 tweets read, 12 new, 12 classified, 0 skipped (@sunnydays)"))
        #expect(FileManager.default.fileExists(atPath: db))
    }

    @Test("Importing a JSON Lines dump takes its user from the page, and importing it again adds nothing")
    func importJSONLinesTwice() async throws {
        let db = try freshDatabase()
        let dump = SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/rainyday_ops.jsonl").path
        let first = try await sentiment(["import", dump, "--db", db])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("5 tweets read, 5 new, 5 classified, 0 skipped (@rainyday_ops)"), "\(first.stderr)")
        let again = try await sentiment(["import", dump, "--db", db])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("5 tweets read, 0 new, 0 classified, 0 skipped (@rainyday_ops)"), "\(again.stderr)")
        let timeline = try await sentiment(["tweets", "rainyday_ops", "--offline", "--format", "jsonl", "--db", db])
        #expect(try timeline.records().count == 5)
    }

    @Test("Importing a file with no tweets under --user stores no user and says so, so the user stays unknown, exit 66")
    func importingNothingStoresNoUser() async throws {
        let db = try freshDatabase()
        let empty = try writeDump("", besides: db)
        let run = try await sentiment(["import", empty, "--user", "ghost", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("--user ghost not used for \(empty): it holds no tweets, so no user is stored for it"),
                "\(run.stderr)")
        #expect(run.stderr.contains("0 tweets read, 0 new, 0 classified, 0 skipped\n"), "\(run.stderr)")
        let timeline = try await sentiment(["tweets", "ghost", "--offline", "--db", db])
        #expect(timeline.status == 66, "\(timeline.output)\(timeline.stderr)")
        #expect(timeline.stderr.contains("nothing stored for @ghost"), "\(timeline.stderr)")

        let broken = try writeDump("{not json\n", besides: db)
        let malformed = try await sentiment(["import", broken, "--user", "ghost", "--db", db])
        #expect(malformed.status == 65, "\(malformed.stderr)")
        #expect(malformed.stderr.contains("none of its tweets could be read, so no user is stored for it"), "\(malformed.stderr)")
        #expect(try await sentiment(["tweets", "ghost", "--offline", "--db", db]).status == 66)
    }

    @Test("A timeline from an archive with no tweets stores no user and says the archive has none of the user's: exit 67, or 65 when every entry was skipped, as import exits")
    func archiveWithNoTweetsStoresNoUser() async throws {
        let db = try freshDatabase()
        let empty = try writeDump("", besides: db)
        let run = try await sentiment(["tweets", "q", "--archive", empty, "--db", db])
        #expect(run.status == 67, "\(run.output)\(run.stderr)")
        #expect(run.output.isEmpty, "\(run.output)")
        #expect(run.stderr.contains("\(empty) has no tweets of @q: it holds no tweets\n"), "\(run.stderr)")
        let offline = try await sentiment(["tweets", "q", "--offline", "--db", db])
        #expect(offline.status == 66, "\(offline.output)\(offline.stderr)")
        #expect(offline.stderr.contains("nothing stored for @q"), "\(offline.stderr)")

        let broken = try writeDump("{not json\n", besides: db)
        let malformed = try await sentiment(["tweets", "q", "--archive", broken, "--db", db])
        #expect(malformed.status == 65, "\(malformed.output)\(malformed.stderr)")
        #expect(malformed.stderr.contains("\(broken) has no tweets of @q: none of its tweets could be read\n"), "\(malformed.stderr)")
        #expect(try await sentiment(["import", broken, "--user", "q", "--db", db]).status == 65)
        #expect(try await sentiment(["tweets", "q", "--offline", "--db", db]).status == 66)
    }

    @Test("An archive file cut short between entries, or before the first, is malformed: import and tweets --archive exit 65 saying where it ends, not 0, or 67 as if the user were unknown")
    func archiveCutShort() async throws {
        let db = try freshDatabase()
        let folder = URL(fileURLWithPath: db).deletingLastPathComponent()
        let whole = try String(contentsOfFile: archive + "/data/tweets.js", encoding: .utf8)
        // Cut after the second entry's closing brace and its comma, and just after the '['.
        let secondEnd = try #require(whole.ranges(of: "\n  },\n").dropFirst().first)
        let cuts = [("between.js", String(whole[..<secondEnd.upperBound])), ("start.js", "window.YTD.tweets.part0 = [\n  ")]
        for (name, text) in cuts {
            let file = folder.appendingPathComponent(name).path
            try text.write(toFile: file, atomically: false, encoding: .utf8)
            let imported = try await sentiment(["import", file, "--user", "sunny", "--db", db])
            #expect(imported.status == 65, "\(name): \(imported.stderr)")
            #expect(imported.stderr.contains("sentiment: skipped \(name), entry "), "\(imported.stderr)")
            #expect(imported.stderr.contains("before the array's closing ']'"), "\(imported.stderr)")
            let shown = try await sentiment(["tweets", "sunny", "--archive", file, "--db", freshDatabase()])
            #expect(shown.status == 65, "\(name): \(shown.stderr)")
            #expect(shown.stderr.contains("before the array's closing ']'"), "\(shown.stderr)")
        }
        let between = try await sentiment(["tweets", "sunny", "--offline", "--format", "jsonl", "--db", db])
        #expect(try between.records().count == 2, "the whole entries before the cut are imported")
    }

    @Test("A dump that does not say whose tweets it holds needs --user; malformed lines are skipped with their place, exit 65")
    func importNeedsUserAndSkipsMalformedLines() async throws {
        let db = try freshDatabase()
        let dump = try writeDump(#"""
            {"id":"1","text":"What a lovely walk in the park","created_at":"2024-01-01T00:00:00.000Z"}
            {"id":"2","text":
            {"id":"3","text":"Train cancelled again, so annoying","created_at":"2024-01-02T00:00:00.000Z"}

            """#, besides: db)
        let withoutUser = try await sentiment(["import", dump, "--db", db])
        #expect(withoutUser.status == 64, "\(withoutUser.stderr)")
        #expect(withoutUser.stderr.contains("--user"), "\(withoutUser.stderr)")

        let withUser = try await sentiment(["import", dump, "--user", "walker", "--db", db])
        #expect(withUser.status == 65, "\(withUser.stderr)")
        #expect(withUser.stderr.contains("line 2"), "\(withUser.stderr)")
        #expect(withUser.stderr.contains("2 tweets read, 2 new, 2 classified, 1 skipped (@walker)"), "\(withUser.stderr)")
        let timeline = try await sentiment(["tweets", "walker", "--offline", "--format", "jsonl", "--db", db])
        #expect(try timeline.records().compactMap { $0["id"] as? String } == ["3", "1"])
    }

    @Test("A dump's tweets are their authors' own: a name the dump gives shows only that user's tweets, and other names none")
    func dumpTweetsStayWithTheirAuthors() async throws {
        let db = try freshDatabase()
        let dump = SentimentExecutable.packageRoot.appendingPathComponent("Examples/dumps/twitter-v1.jsonl").path
        let gus = try await sentiment(["tweets", "grumpy_gus", "--archive", dump, "--format", "jsonl", "--db", db])
        #expect(gus.status == 0, "\(gus.stderr)")
        #expect(try gus.records().compactMap { $0["id"] as? String } == ["1050118621198921729"])
        let nobody = try await sentiment(["tweets", "nobody", "--archive", dump, "--db", db])
        #expect(nobody.status == 67, "\(nobody.stderr)")
        #expect(nobody.output.isEmpty)

        let imported = try await sentiment(["import", dump, "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("7 tweets read"), "\(imported.stderr)")
        let hanna = try await sentiment(["tweets", "happy_hanna", "--offline", "--format", "jsonl", "--db", db])
        #expect(try hanna.records().compactMap { $0["id"] as? String } == ["1050118621198921728"])
    }

    @Test("An archive whose account.js names no account is refused for want of --user saying why: the account.js entry it skipped")
    func brokenAccountFileIsNamedWhenUserIsNeeded() async throws {
        let db = try freshDatabase()
        let archive = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("archive")
        try FileManager.default.createDirectory(at: archive.appendingPathComponent("data"), withIntermediateDirectories: true)
        let sunny = SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/sunnydays/data")
        try FileManager.default.copyItem(at: sunny.appendingPathComponent("tweets.js"), to: archive.appendingPathComponent("data/tweets.js"))
        try #"window.YTD.account.part0 = [ { "account": { "email": "x@example.com" } } ]"#
            .write(to: archive.appendingPathComponent("data/account.js"), atomically: false, encoding: .utf8)
        let run = try await sentiment(["import", archive.path, "--db", db])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("skipped data/account.js, entry 1: no account with an accountId and a username"), "\(run.stderr)")
        #expect(run.stderr.contains("archive does not say whose tweets these are: add --user NAME"), "\(run.stderr)")
    }

    @Test("A PATH that needs --user, or holds no tweet files, is reported and the PATHs after it are imported all the same, exit that of the first")
    func onePathFailingDoesNotStopTheOthers() async throws {
        let db = try freshDatabase()
        let orphan = try writeDump(#"{"id":"5","text":"a happy day","created_at":"2024-01-01T00:00:00.000Z"}"# + "\n", besides: db)
        let empty = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("empty-folder")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let archive = SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/sunnydays").path
        let run = try await sentiment(["import", orphan, empty.path, archive, "--db", db])
        #expect(run.status == 64, "the first failure's status: \(run.stderr)")
        #expect(run.stderr.contains("dump.jsonl does not say whose tweets these are: add --user NAME"), "\(run.stderr)")
        #expect(run.stderr.contains("empty-folder"), "\(run.stderr)")
        #expect(run.stderr.contains("sunnydays: "), "the archive after them was imported: \(run.stderr)")
        let sunny = try await sentiment(["tweets", "sunnydays", "--offline", "--format", "jsonl", "--db", db])
        #expect(sunny.status == 0, "\(sunny.stderr)")
        #expect(try !sunny.records().isEmpty)

        let folderFirst = try await sentiment(["import", empty.path, archive, "--db", db])
        #expect(folderFirst.status == 65, "\(folderFirst.stderr)")
    }

    @Test("A dump naming several authors by id alone is not imported under one --user, exit 65, and without --user is not advised to add one")
    func severalUnnamedAuthorsAreNotOneUsers() async throws {
        let db = try freshDatabase()
        let dump = SentimentExecutable.packageRoot.appendingPathComponent("Examples/dumps/twitter-v2.jsonl").path
        let bare = try await sentiment(["import", dump, "--db", db])
        #expect(bare.status == 65, "\(bare.stderr)")
        #expect(bare.stderr.contains("names 2 authors by id alone, with no user objects: whose tweets are whose cannot be told; "
                                     + "import one author's tweets at a time, with --user NAME"), "\(bare.stderr)")
        #expect(!bare.stderr.contains("add --user"), "\(bare.stderr)")
        let run = try await sentiment(["import", dump, "--user", "zed", "--db", db])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("names 2 authors by id alone"), "\(run.stderr)")
        let zed = try await sentiment(["tweets", "zed", "--offline", "--db", db])
        #expect(zed.status == 66, "nothing was stored for zed: \(zed.stderr)")
    }

    @Test("Users whose usernames are not ones are skipped with their tweets, each named by line, exit 65, even with --user; the rest is imported")
    func importSkipsInvalidUsernames() async throws {
        let db = try freshDatabase()
        let page = { (tweet: String, author: String, username: String) in
            #"{"data":[{"id":"\#(tweet)","text":"a happy day for all","created_at":"2024-01-01T00:00:00.000Z","author_id":"\#(author)"}],"#
                + #""includes":{"users":[{"id":"\#(author)","username":"\#(username)","name":"N"}]}}"#
        }
        let dump = try writeDump([page("31", "44", "dash-name"), page("32", "45", String(repeating: "x", count: 57)),
                                  page("33", "46", ""), page("34", "47", "fine_name")].joined(separator: "\n") + "\n",
                                 besides: db)
        for arguments in [["import", dump], ["import", dump, "--user", "walker"]] {
            let run = try await sentiment(arguments + ["--db", db])
            #expect(run.status == 65, "\(run.stderr)")
            #expect(run.stderr.contains(#"skipped dump.jsonl, line 1 includes.users[0]: user 44: "dash-name" is not a username"#),
                    "\(run.stderr)")
            #expect(run.stderr.contains("skipped dump.jsonl, line 1 data[0]: tweet 31: its author, user 44, is skipped"), "\(run.stderr)")
            #expect(run.stderr.contains("skipped dump.jsonl, line 3 includes.users[0]: user 46: \"\" is not a username"), "\(run.stderr)")
            #expect(run.stderr.contains("1 tweet read, "), "\(run.stderr)")
            #expect(run.stderr.contains(", 6 skipped (@fine_name"), "\(run.stderr)")
        }
        let fine = try await sentiment(["tweets", "fine_name", "--offline", "--format", "jsonl", "--db", db])
        #expect(try fine.records().compactMap { $0["id"] as? String } == ["34"])
        let walker = try await sentiment(["tweets", "walker", "--offline", "--format", "jsonl", "--db", db])
        #expect(try walker.records().isEmpty, "no skipped tweet went to the --user: \(walker.output)")
    }

    @Test("The import summary counts one tweet in the singular and names no users when none was read")
    func importSummaryWording() async throws {
        let db = try freshDatabase()
        let one = try writeDump(#"""
            {"id":"1","text":"What a lovely walk in the park","created_at":"2024-01-01T00:00:00.000Z"}

            """#, besides: db)
        let single = try await sentiment(["import", one, "--user", "walker", "--db", db])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(single.stderr.contains("1 tweet read, 1 new, 1 classified, 0 skipped (@walker)"), "\(single.stderr)")

        let broken = try writeDump("{\"id\":\"2\",\"text\":\n", besides: db)
        let none = try await sentiment(["import", broken, "--db", db])
        #expect(none.status == 65, "\(none.stderr)")
        #expect(none.stderr.contains("0 tweets read, 0 new, 0 classified, 1 skipped\n"), "\(none.stderr)")
    }

    @Test("Both import and tweets --archive list the first twenty skipped entries and count the rest")
    func skippedEntriesAreCappedAlike() async throws {
        let db = try freshDatabase()
        let good = #"{"id":"1","text":"What a lovely walk in the park","created_at":"2024-01-01T00:00:00.000Z"}"#
        let dump = try writeDump(([good] + Array(repeating: #"{"id":"#, count: 25)).joined(separator: "\n") + "\n", besides: db)
        for arguments in [["import", dump, "--user", "walker"], ["tweets", "walker", "--archive", dump, "--format", "jsonl"]] {
            let run = try await sentiment(arguments + ["--db", db])
            #expect(run.status == 65, "\(arguments[0]): \(run.stderr)")
            let listed = run.stderr.split(separator: "\n").filter { $0.hasPrefix("sentiment: skipped ") }
            #expect(listed.count == 20, "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr.contains("sentiment: … and 5 more skipped"), "\(arguments[0]): \(run.stderr)")
        }
    }

    @Test("Import reads a dump from standard input as '-', from a file or a pipe, and from a pipe's path, as it reads the file")
    func importFromStandardInput() async throws {
        let dump = SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/rainyday_ops.jsonl").path
        let runs = [
            ("'-' from a file", try await sentiment(["import", "-", "--db", try freshDatabase()],
                                                   input: try Data(contentsOf: URL(fileURLWithPath: dump)))),
            ("'-' from a pipe", try await sentiment(["import", "-", "--db", try freshDatabase()], pipedFrom: dump)),
            ("/dev/stdin as a pipe", try await sentiment(["import", "/dev/stdin", "--db", try freshDatabase()], pipedFrom: dump)),
        ]
        for (how, run) in runs {
            #expect(run.status == 0, "\(how): \(run.stderr)")
            #expect(run.stderr.contains("5 tweets read, 5 new, 5 classified, 0 skipped (@rainyday_ops)"), "\(how): \(run.stderr)")
        }
        #expect(runs[0].1.stderr.contains("standard input: 5 tweets read"), "\(runs[0].1.stderr)")

        let db = try freshDatabase()
        let broken = try await sentiment(["import", "-", "--user", "walker", "--db", db], input: Data("{\"id\":\"2\",\"text\":\n".utf8))
        #expect(broken.status == 65, "\(broken.stderr)")
        #expect(broken.stderr.contains("skipped standard input, line 1"), "\(broken.stderr)")
        let twice = try await sentiment(["import", "-", "-", "--db", db], input: Data())
        #expect(twice.status == 64, "\(twice.stderr)")
        #expect(twice.stderr.contains("standard input ('-') can be read once"), "\(twice.stderr)")
    }

    @Test("import - and tweets --archive - with a folder on standard input exit 66 saying why, as explain does")
    func folderOnStandardInput() async throws {
        let executable = try #require(SentimentExecutable.url)
        let db = try freshDatabase()
        for command in [#"exec "$0" import - --db "$1" < /"#, #"exec "$0" tweets walker --archive - --db "$1" < /"#] {
            let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
                ["-c", command, executable.path, db],
                environment: ["X_BEARER_TOKEN": nil, "SENTIMENT_DB": nil, "X_API_URL": nil,
                              "HOME": FileManager.default.temporaryDirectory.path])
            #expect(run.status == 66, "\(command): \(run.stderr)")
            #expect(run.output.isEmpty, "\(command)")
            #expect(run.stderr.contains("cannot read standard input: Is a directory"), "\(command): \(run.stderr)")
        }
    }

    @Test("An archive whose tweets.js is a folder, or may not be read, exits 66 naming the file and the system's reason")
    func unreadableArchiveFile() async throws {
        let db = try freshDatabase()
        let archive = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("odd-archive")
        let tweets = archive.appendingPathComponent("data/tweets.js")
        try FileManager.default.createDirectory(at: tweets, withIntermediateDirectories: true)
        let run = try await sentiment(["import", archive.path, "--user", "walker", "--db", db])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.contains("cannot read \(tweets.path): Is a directory"), "\(run.stderr)")
    }

    @Test("A timeline reads an archive piped to standard input with --archive -")
    func timelineFromStandardInput() async throws {
        let dump = SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/rainyday_ops.jsonl").path
        let run = try await sentiment(["tweets", "rainyday_ops", "--archive", "-", "--format", "jsonl", "--db", try freshDatabase()],
                                      pipedFrom: dump)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.records().count == 5, "\(run.output)")
    }

    @Test("A folder without tweet files is a data error (65) and a missing one no input (66), for import and tweets --archive alike")
    func archiveFolderErrorsAreAlike() async throws {
        let db = try freshDatabase()
        let empty = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("empty-archive")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let missing = empty.appendingPathComponent("missing").path
        for arguments in [["import", empty.path], ["tweets", "walker", "--archive", empty.path]] {
            let run = try await sentiment(arguments + ["--db", db])
            #expect(run.status == 65, "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr.contains("no tweets.js, tweet.js or tweets-partN.js in"), "\(arguments[0]): \(run.stderr)")
        }
        for arguments in [["import", missing], ["tweets", "walker", "--archive", missing]] {
            let run = try await sentiment(arguments + ["--db", db])
            #expect(run.status == 66, "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr.contains("no such file or directory"), "\(arguments[0]): \(run.stderr)")
        }
    }

    @Test("An id repeated in a dump is stored once and counted; a repeat with another text is reported, exit 65")
    func importRepeatedIDs() async throws {
        let db = try freshDatabase()
        let dump = try writeDump(#"""
            {"id":"1","text":"What a lovely walk in the park","created_at":"2024-01-01T00:00:00.000Z"}
            {"id":"1","text":"What a lovely walk in the park","created_at":"2024-01-01T00:00:00.000Z"}
            {"id":"2","text":"Train cancelled again, so annoying","created_at":"2024-01-02T00:00:00.000Z"}
            {"id":"2","text":"Train on time for once","created_at":"2024-01-02T00:00:00.000Z"}

            """#, besides: db)
        let run = try await sentiment(["import", dump, "--user", "walker", "--db", db])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains(
            "skipped \(URL(fileURLWithPath: dump).lastPathComponent), line 4: tweet 2 repeats line 3 with another text, author or date; the first is kept"),
                "\(run.stderr)")
        #expect(run.stderr.contains("4 tweets read, 2 repeated, 2 new, 2 classified, 1 skipped (@walker)"), "\(run.stderr)")
        let timeline = try await sentiment(["tweets", "walker", "--offline", "--format", "jsonl", "--db", db])
        #expect(try timeline.records().compactMap { $0["text"] as? String }
            == ["Train cancelled again, so annoying", "What a lovely walk in the park"])
    }

    @Test("Reading a database that does not exist (tweets --offline, history) says so and makes no file")
    func readsDoNotCreateTheDatabase() async throws {
        let missing = URL(fileURLWithPath: try freshDatabase()).deletingLastPathComponent()
            .appendingPathComponent("typo/tweets.sqlite").path
        let offline = try await sentiment(["tweets", "@bob", "--offline", "--db", missing])
        #expect(offline.status == 66, "\(offline.stderr)")
        #expect(offline.stderr == "sentiment: nothing stored for @bob: no database at \(missing)\n", "\(offline.stderr)")
        for arguments in [["history"], ["history", "--clear"]] {
            let history = try await sentiment(arguments + ["--db", missing])
            #expect(history.status == 0, "\(history.stderr)")
            #expect(history.output.isEmpty && history.stderr.isEmpty, "\(history.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: missing).deletingLastPathComponent().path))
    }

    /// Runs `sentiment arguments…` as a user who may not write what its
    /// permissions forbid: this user, or root without the capabilities that
    /// let it write anything (through `setpriv`), since tests may run as root.
    /// Each run is killed after 5 minutes: `serve` that started instead of
    /// refusing would otherwise hang the suite.
    private func sentimentWithoutOverride(_ arguments: [String]) async throws -> Run {
        let environment: [String: String?] = ["X_BEARER_TOKEN": nil, "SENTIMENT_DB": nil, "X_API_URL": nil,
                                              "HOME": FileManager.default.temporaryDirectory.path]
        let command = try #require(BoundPermissions.command(arguments), "the sentiment executable was not built beside the tests")
        return try await SentimentExecutable.run(executable: command.executable, command.arguments,
                                                 environment: environment, timeLimit: .seconds(300))
    }

    /// Whether permissions can be made to bind the `sentiment` process.
    private static let permissionsBind = BoundPermissions.available

    @Test("A database its user may not write, in a folder they may not write, is read by history and tweets --offline; history --clear, import, tweets and an online serve exit 73 saying in one line that it is read-only and why",
          .enabled(if: permissionsBind, "root without setpriv writes whatever the permissions say"))
    func readOnlyDatabase() async throws {
        let db = try freshDatabase()
        _ = try await sentiment(["import", archive, "--db", db])
        _ = try await sentiment(["tweets", "sunnydays", "--offline", "--limit", "1", "--db", db])
        let folder = URL(fileURLWithPath: db).deletingLastPathComponent().path
        for (file, folderMode) in [(0o644, 0o555), (0o444, 0o755)] {
            try FileManager.default.setAttributes([.posixPermissions: file], ofItemAtPath: db)
            try FileManager.default.setAttributes([.posixPermissions: folderMode], ofItemAtPath: folder)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
            let mode = "file \(String(file, radix: 8)), folder \(String(folderMode, radix: 8))"
            let refusal = file == 0o444
                ? "sentiment: cannot use the database \(db): it is read-only (the file \(db) may not be written)\n"
                : "sentiment: cannot use the database \(db): it is read-only (its folder \(folder) may not be written)\n"
            let history = try await sentimentWithoutOverride(["history", "--db", db])
            #expect(history.status == 0, "\(mode): \(history.stderr)")
            #expect(history.output.hasPrefix("sunnydays\t"), "\(mode): \(history.output)")
            let offline = try await sentimentWithoutOverride(["tweets", "sunnydays", "--offline", "--format", "jsonl", "--db", db])
            #expect(offline.status == 0, "\(mode): \(offline.stderr)")
            #expect(try offline.records().count == 12, "\(mode)")
            // The readers leave no -wal or -shm, which SQLite would make with the file's mode and
            // never remove, and on which every later writer, the file's owner too, would fail.
            for companion in [db + "-wal", db + "-shm"] {
                #expect(!FileManager.default.fileExists(atPath: companion), "\(mode): \(companion) left")
            }
            let writes = [["history", "--clear", "--db", db], ["import", archive, "--db", db],
                          ["tweets", "sunnydays", "--db", db],
                          ["serve", "--profile", "dev", "--port", "0", "--db", db]]
            for arguments in writes {
                let refused = try await sentimentWithoutOverride(arguments)
                #expect(refused.status == 73, "\(mode), \(arguments[0]): \(refused.stderr)")
                // Online, serve stores what it fetches; offline it reads the file (ServeCommandTests).
                let expected = arguments[0] == "serve" ? refusal.dropLast() + "; serve --offline reads it as it is\n" : refusal
                #expect(refused.stderr == expected, "\(mode), \(arguments[0])")
            }
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: db)
        let history = try await sentiment(["history", "--db", db])
        #expect(history.output.hasPrefix("sunnydays\t"), "the history was not cleared: \(history.output)")
        // Writable again, the file is written by its owner, permissions binding.
        let written = try await sentimentWithoutOverride(["tweets", "sunnydays", "--offline", "--limit", "1", "--db", db])
        #expect(written.status == 0, "\(written.stderr)")

        // A -shm file that may not be written (left by another user, or by a reader of an older
        // version) makes the database read-only for writers, named in their one line.
        try Data().write(to: URL(fileURLWithPath: db + "-shm"))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db + "-shm")
        defer { try? FileManager.default.removeItem(atPath: db + "-shm") }
        let refused = try await sentimentWithoutOverride(["import", archive, "--db", db])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr == "sentiment: cannot use the database \(db): it is read-only (the file \(db)-shm may not be written)\n",
                "\(refused.stderr)")
    }

    @Test("A new database in a folder its user may not write is refused in one line saying so, exit 73, and not made",
          .enabled(if: permissionsBind, "root without setpriv writes whatever the permissions say"))
    func newDatabaseInAFolderThatMayNotBeWritten() async throws {
        let db = try freshDatabase()
        let folder = URL(fileURLWithPath: db).deletingLastPathComponent().path
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let refused = try await sentimentWithoutOverride(["import", archive, "--db", db])
        #expect(refused.status == 73, "\(refused.stderr)")
        // It was SQLite's "SQLite error 14: unable to open database file".
        #expect(refused.stderr == "sentiment: cannot open the database \(db): it cannot be created (its folder \(folder) may not be written)\n",
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test("An archive that names its owner keeps it: a different --user is reported as not used and made no user")
    func importWithUnusedUser() async throws {
        let db = try freshDatabase()
        let run = try await sentiment(["import", archive, "--user", "someoneelse", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("--user someoneelse not used for \(archive): every tweet in it names its author (@sunnydays)"),
                "\(run.stderr)")
        #expect(run.stderr.contains("(@sunnydays)\n"), "\(run.stderr)")
        #expect(!run.stderr.contains("@someoneelse"), "\(run.stderr)")
        let other = try await sentiment(["tweets", "someoneelse", "--offline", "--db", db])
        #expect(other.status != 0, "no user was made: \(other.output)")
    }

    /// Imports a v2 page of @alice (id 42, "Alice") and @bob (id 12, "Bob"),
    /// one tweet each, into `db`; returns a dump of two more of bob's tweets
    /// that names him by author_id alone, as a v2 dump without
    /// includes.users does.
    private func importAliceAndBob(into db: String) async throws -> String {
        let page = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("ab.json").path
        try #"""
            {"data":[{"id":"601","text":"alice original, fine","created_at":"2024-03-01T00:00:00Z","author_id":"42"},\#
            {"id":"602","text":"bob original, fine","created_at":"2024-03-01T00:00:00Z","author_id":"12"}],\#
            "includes":{"users":[{"id":"42","username":"alice","name":"Alice"},{"id":"12","username":"bob","name":"Bob"}]}}
            """#.write(toFile: page, atomically: false, encoding: .utf8)
        let imported = try await sentiment(["import", page, "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        return try writeDump(#"""
            {"id":"611","text":"bob again, I hate mondays","created_at":"2024-03-02T00:00:00Z","author_id":"12"}
            {"id":"612","text":"bob more, love fridays","created_at":"2024-03-03T00:00:00Z","author_id":"12"}

            """#, besides: db)
    }

    @Test("Tweets a dump gives to a stored account's author_id alone stay that account's: --user neither renames it nor takes its tweets, and says it was not used")
    func userDoesNotRenameAStoredAuthor() async throws {
        let db = try freshDatabase()
        let dump = try await importAliceAndBob(into: db)
        for user in ["robert", "alice"] {
            let run = try await sentiment(["import", dump, "--user", user, "--db", db])
            #expect(run.status == 0, "\(user): \(run.stderr)")
            #expect(run.stderr.contains(
                "--user \(user) not used for \(dump): every tweet in it names its author (author_id 12, stored as @bob)"),
                    "\(user): \(run.stderr)")
        }
        let bob = try await sentiment(["tweets", "bob", "--offline", "--db", db])
        #expect(bob.status == 0, "\(bob.stderr)")
        #expect(bob.output.contains("@bob — Bob\n"), "\(bob.output)")
        let bobs = try await sentiment(["tweets", "bob", "--offline", "--format", "jsonl", "--db", db])
        #expect(try bobs.records().compactMap { $0["id"] as? String } == ["612", "611", "602"])
        #expect(try bobs.records().allSatisfy { $0["author_id"] as? String == "12" })
        let alice = try await sentiment(["tweets", "alice", "--offline", "--format", "jsonl", "--db", db])
        #expect(try alice.records().compactMap { $0["id"] as? String } == ["601"])
        #expect(try await sentiment(["tweets", "robert", "--offline", "--db", db]).status == 66)

        let archived = try await sentiment(["tweets", "robert", "--archive", dump, "--db", db])
        #expect(archived.status == 67, "\(archived.output)\(archived.stderr)")
        #expect(archived.stderr.contains("\(dump) has no tweets of @robert (author_id 12, stored as @bob)"), "\(archived.stderr)")
        let after = try await sentiment(["tweets", "bob", "--offline", "--limit", "1", "--db", db])
        #expect(after.output.hasPrefix("@bob — Bob\n"), "\(after.output)")

        // The --user is used for the tweets that name no author, and only for them.
        let mixed = try writeDump(#"""
            {"id":"621","text":"whose is this","created_at":"2024-03-04T00:00:00Z"}
            {"id":"622","text":"bob once more","created_at":"2024-03-04T00:00:00Z","author_id":"12"}

            """#, besides: db)
        let partly = try await sentiment(["import", mixed, "--user", "robert", "--db", db])
        #expect(partly.status == 0, "\(partly.stderr)")
        #expect(partly.stderr.contains("--user robert not used for the tweets in \(mixed) by author_id 12, stored as @bob\n"),
                "\(partly.stderr)")
        #expect(partly.stderr.contains("2 tweets read, 2 new, 2 classified, 0 skipped (@robert)"), "\(partly.stderr)")
        let robert = try await sentiment(["tweets", "robert", "--offline", "--format", "jsonl", "--db", db])
        #expect(try robert.records().compactMap { $0["id"] as? String } == ["621"])
    }

    @Test("A re-import that says otherwise is counted: a later --user takes an earlier one's tweets, a corrected text replaces the stored one, and an account's tweets stay its, making no user")
    func reimportThatSaysOtherwise() async throws {
        let db = try freshDatabase()
        let unnamed = try writeDump(#"""
            {"id":"1","text":"What a lovely walk in the park","created_at":"2024-01-01T00:00:00.000Z"}
            {"id":"2","text":"Train cancelled again, so annoying","created_at":"2024-01-02T00:00:00.000Z"}

            """#, besides: db)
        _ = try await sentiment(["import", unnamed, "--user", "jakc", "--db", db])
        let renamed = try await sentiment(["import", unnamed, "--user", "jack", "--db", db])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stderr.contains("2 tweets read, 0 new, 2 moved from an earlier --user, 0 classified, 0 skipped (@jack)"),
                "\(renamed.stderr)")
        let jack = try await sentiment(["tweets", "jack", "--offline", "--format", "jsonl", "--db", db])
        #expect(try jack.records().compactMap { $0["id"] as? String } == ["2", "1"])
        #expect(try await sentiment(["tweets", "jakc", "--offline", "--db", db]).status == 66)

        let latin1 = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("latin1.jsonl")
        try (Data(#"{"id":"700","text":"caf"#.utf8) + Data([0xE9])
            + Data((#" was lovely","created_at":"2024-01-03T00:00:00Z"}"# + "\n").utf8)).write(to: latin1)
        _ = try await sentiment(["import", latin1.path, "--user", "jack", "--db", db])
        let fixed = try writeDump(#"{"id":"700","text":"café was lovely","created_at":"2024-01-03T00:00:00Z"}"# + "\n", besides: db)
        let corrected = try await sentiment(["import", fixed, "--user", "jack", "--db", db])
        #expect(corrected.status == 0, "\(corrected.stderr)")
        #expect(corrected.stderr.contains("1 tweet read, 0 new, 1 updated, 1 classified, 0 skipped (@jack)"), "\(corrected.stderr)")
        let texts = try await sentiment(["tweets", "jack", "--offline", "--format", "jsonl", "--limit", "1", "--db", db])
        #expect(try texts.records().compactMap { $0["text"] as? String } == ["café was lovely"])

        _ = try await importAliceAndBob(into: db)
        let claimed = try writeDump(#"{"id":"602","text":"bob original, fine","created_at":"2024-03-01T00:00:00Z"}"# + "\n",
                                    besides: db)
        let carol = try await sentiment(["import", claimed, "--user", "carol", "--db", db])
        #expect(carol.status == 0, "\(carol.stderr)")
        #expect(carol.stderr.contains(
            "--user carol not used for \(claimed): its tweets are stored under other accounts, which keep them, so no user is stored for it"),
                "\(carol.stderr)")
        #expect(carol.stderr.contains("1 tweet read, 0 new, 1 kept under their stored author, 0 classified, 0 skipped\n"),
                "\(carol.stderr)")
        #expect(carol.stderr.contains("sentiment: \(claimed): 1 tweet kept under its stored author, though the input gives it another: 602\n"),
                "\(carol.stderr)")
        #expect(try await sentiment(["tweets", "carol", "--offline", "--db", db]).status == 66)
    }

    @Test("The tweets an import keeps under their stored account, though it gives them another author, are named: the first five, newest first, and how many more")
    func keptTweetsAreNamed() async throws {
        let db = try freshDatabase()
        let tweets = (1...7).map { #"{"id":"70\#($0)","text":"tweet number \#($0)","created_at":"2024-03-0\#($0)T00:00:00Z""# }
        let page = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("bob.json").path
        try (#"{"data":["# + tweets.map { $0 + #","author_id":"12"}"# }.joined(separator: ",")
             + #"],"includes":{"users":[{"id":"12","username":"bob","name":"Bob"}]}}"#)
            .write(toFile: page, atomically: false, encoding: .utf8)
        let imported = try await sentiment(["import", page, "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("kept"), "\(imported.stderr)")

        let unnamed = try writeDump(tweets.map { $0 + "}\n" }.joined(), besides: db)
        let claimed = try await sentiment(["import", unnamed, "--user", "carol", "--db", db])
        #expect(claimed.status == 0, "\(claimed.stderr)")
        #expect(claimed.stderr.contains(
            "sentiment: \(unnamed): 7 tweets kept under their stored authors, though the input gives them another: "
                + "707, 706, 705, 704, 703 and 2 more\n"), "\(claimed.stderr)")
        #expect(claimed.stderr.contains("7 tweets read, 0 new, 7 kept under their stored author, 0 classified, 0 skipped\n"),
                "\(claimed.stderr)")
    }

    @Test("An offline timeline in JSON Lines is newest first with a theme per English tweet")
    func offlineTimelineJSONLines() async throws {
        let db = try freshDatabase()
        _ = try await sentiment(["import", archive, "--db", db])
        let run = try await sentiment(["tweets", "sunnydays", "--offline", "--format", "jsonl", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try run.records()
        #expect(records.count == 12)
        let dates = records.compactMap { $0["created_at"] as? String }
        #expect(dates.count == 12)
        #expect(dates == dates.sorted(by: >))
        for record in records {
            for field in ["id", "text", "created_at", "label", "probabilities", "score", "theme"] {
                #expect(record.keys.contains(field), "missing \(field) in \(record)")
            }
            if let theme = record["theme"] as? [String: Any] {
                let name = try #require(theme["name"] as? String)
                let expected: [String: (String, String)] = ["happy": ("😃", "#FFD60A"), "neutral": ("😐", "#8E8E93"), "sad": ("😔", "#0A84FF")]
                let (emoji, color) = try #require(expected[name], "unknown theme \(name)")
                #expect(theme["emoji"] as? String == emoji)
                #expect(theme["color"] as? String == color)
            } else {
                // Only a tweet in another language has no theme.
                #expect(record["lang"] as? String != "en", "\(record)")
            }
        }
        // The sample holds one Spanish tweet: flagged, neither labelled nor themed, as `classify` answers it.
        #expect(records.contains { ($0["lang"] as? String) == "es" && $0["theme"] is NSNull })
        for record in records where record["mood"] as? String == "unsupported_language" {
            #expect(record["label"] is NSNull, "\(record)")
        }
        #expect(records.filter { $0["label"] is NSNull }.count == records.filter { $0["theme"] is NSNull }.count)
    }

    @Test("A timeline straight from an archive is stored as it is shown, and --offline cannot take an archive")
    func timelineFromArchive() async throws {
        let db = try freshDatabase()
        let run = try await sentiment(["tweets", "sunnydays", "--archive", archive, "--format", "jsonl", "--limit", "5", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try run.records().compactMap { $0["id"] as? String }
        #expect(shown.count == 5)
        let stored = try await sentiment(["tweets", "sunnydays", "--offline", "--format", "jsonl", "--limit", "5", "--db", db])
        #expect(try stored.records().compactMap { $0["id"] as? String } == shown)

        let both = try await sentiment(["tweets", "sunnydays", "--archive", archive, "--offline", "--db", db])
        #expect(both.status == 64, "\(both.stderr)")
    }

    @Test("A timeline from a dump that does not name the user gives its tweets to the user's stored account, whose stored tweets stay shown")
    func dumpWithoutTheUserKeepsTheStoredAccount() async throws {
        let db = try freshDatabase()
        #expect(try await sentiment(["import", archive, "--db", db]).status == 0)
        let dump = try writeDump(#"""
            {"id":"77","text":"A new tweet that does not say whose it is","created_at":"2030-01-01T00:00:00.000Z"}

            """#, besides: db)
        let run = try await sentiment(["tweets", "sunnydays", "--archive", dump, "--format", "jsonl", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try run.records()
        #expect(shown.count == 13, "\(run.output)")
        #expect(shown.first?["id"] as? String == "77")
        #expect(Set(shown.compactMap { $0["author_id"] as? String }) == ["9000000001"])
        let offline = try await sentiment(["tweets", "sunnydays", "--offline", "--format", "jsonl", "--db", db])
        #expect(try offline.records().count == 13, "\(offline.output)")
    }

    @Test("A timeline from an archive with malformed entries shows the rest and exits 65, as import does")
    func archiveWithSkippedEntries() async throws {
        let db = try freshDatabase()
        let dump = try writeDump(#"""
            {"id":"1","text":"What a lovely walk in the park","created_at":"2024-01-01T00:00:00.000Z"}
            {"id":"2","text":

            """#, besides: db)
        let run = try await sentiment(["tweets", "walker", "--archive", dump, "--format", "jsonl", "--db", db])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("skipped dump.jsonl, line 2"), "\(run.stderr)")
        #expect(try run.records().compactMap { $0["id"] as? String } == ["1"])
    }

    @Test("Pretty output piped carries no colour codes")
    func prettyOutputPipedIsPlain() async throws {
        let db = try freshDatabase()
        _ = try await sentiment(["import", archive, "--db", db])
        let run = try await sentiment(["tweets", "sunnydays", "--offline", "--limit", "3", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.output.contains("\u{1B}["))
        #expect(run.output.contains("😃") || run.output.contains("😐") || run.output.contains("😔"))
    }

    @Test("Control characters from a tweet, a user's name or an entry's id never reach the terminal: the text shows on one line, each control character or bidirectional override as U+FFFD")
    func controlCharactersAreNotPrinted() async throws {
        let db = try freshDatabase()
        let dump = try writeDump(#"""
            {"id_str":"1","full_text":"so \u001b[31mRED\u001b[0m and \u001b]0;pwned\u0007 title\r\nnext\tline","created_at":"Wed Oct 10 20:19:24 +0000 2018","user":{"id_str":"7","screen_name":"mallory","name":"Mal\u001b[2Jlory","description":"bio\u009b1;1H here"}}
            {"id_str":"2\u001b[2J","created_at":"Wed Oct 10 20:19:25 +0000 2018","user":{"id_str":"7","screen_name":"mallory"}}
            {"id_str":"3","full_text":"only \u202e99.9$\u202c today, \u2067isolated\u2069","created_at":"Wed Oct 10 20:19:26 +0000 2018","user":{"id_str":"7","screen_name":"mallory"}}

            """#, besides: db)
        let imported = try await sentiment(["import", dump, "--db", db])
        #expect(imported.status == 65, "\(imported.stderr)")
        #expect(imported.stderr.contains(#"skipped dump.jsonl, line 2: id "2\#u{FFFD}[2J" is not a tweet id"#), "\(imported.stderr)")
        let run = try await sentiment(["tweets", "mallory", "--offline", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        for (name, text) in [("output", run.output), ("import's errors", imported.stderr)] {
            let controls = text.unicodeScalars.filter { $0 != "\n" && $0.properties.generalCategory == .control }
            #expect(controls.isEmpty, "\(name) holds \(controls.map { String($0.value, radix: 16) })")
        }
        #expect(run.output.contains("@mallory — Mal\u{FFFD}[2Jlory\n"), "\(run.output)")
        #expect(run.output.contains("bio\u{FFFD}1;1H here\n"), "\(run.output)")
        #expect(run.output.contains("so \u{FFFD}[31mRED\u{FFFD}[0m and \u{FFFD}]0;pwned\u{FFFD} title next line"), "\(run.output)")
        // Bidirectional overrides and isolates would print the rest of the line reordered.
        #expect(run.output.contains("only \u{FFFD}99.9$\u{FFFD} today, \u{FFFD}isolated\u{FFFD}"), "\(run.output)")
        #expect(!run.output.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
    }

    @Test("JSON Lines on a terminal carry DEL, C1 controls, line separators and bidirectional controls as \\u escapes, which decode to the same text")
    func jsonLinesEscapeTerminalControls() async throws {
        let db = try freshDatabase()
        let dump = try writeDump(#"""
            {"id_str":"1","full_text":"ok \u009b2J\u009d0;pwned\u009c \u202eevil\u007f good\u2028next","created_at":"Wed Oct 10 20:19:24 +0000 2018","user":{"id_str":"7","screen_name":"cone","name":"C"}}

            """#, besides: db)
        let run = try await sentiment(["tweets", "cone", "--archive", dump, "--format", "jsonl", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        let raw = run.output.unicodeScalars.filter {
            (0x7F...0x9F).contains($0.value) || (0x2028...0x2029).contains($0.value) || (0x202A...0x202E).contains($0.value)
        }
        #expect(raw.isEmpty, "raw in the output: \(raw.map { String($0.value, radix: 16) })")
        #expect(run.output.contains(#"ok \u009b2J\u009d0;pwned\u009c \u202eevil\u007f good\u2028next"#), "\(run.output)")
        #expect(try run.records().first?["text"] as? String == "ok \u{9B}2J\u{9D}0;pwned\u{9C} \u{202E}evil\u{7F} good\u{2028}next")
    }

    @Test("Names from the command line, a file's name and a stored search never carry control characters to the terminal")
    func namesFromElsewhereAreShownSafe() async throws {
        let db = try freshDatabase()
        let badName = try await sentiment(["tweets", "a\u{1B}]52;c;eA==\u{07}", "--offline", "--db", db])
        #expect(badName.status == 64)
        #expect(badName.stderr.contains("not a username: a\u{FFFD}]52;c;eA==\u{FFFD}"), "\(badName.stderr)")
        let badUser = try await sentiment(["import", archive, "--user", "b\u{1B}[2J", "--db", db])
        #expect(badUser.status == 64)
        #expect(badUser.stderr.contains("not a username: b\u{FFFD}[2J"), "\(badUser.stderr)")

        let folder = URL(fileURLWithPath: db).deletingLastPathComponent()
        let named = folder.appendingPathComponent("x\u{1B}]0;TITLE\u{07}.jsonl")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/rainyday_ops.jsonl").path),
                                         to: named)
        let imported = try await sentiment(["import", named.path, "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("x\u{FFFD}]0;TITLE\u{FFFD}.jsonl: 5 tweets read"), "\(imported.stderr)")

        // A database shared as a snapshot may hold anything.
        let written = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO search_history VALUES ('evil', ?, '2026-12-01 00:00:00')\", ('ev\\x1b]52;c;cHduZWQ=\\x07il\\x1b[2J',)); c.commit()",
            db])
        #expect(written.status == 0, "\(written.stderr)")
        let history = try await sentiment(["history", "--db", db])
        #expect(history.status == 0, "\(history.stderr)")
        for (name, text) in [("tweets", badName.stderr), ("import", badUser.stderr + imported.stderr), ("history", history.output)] {
            let controls = text.unicodeScalars.filter { $0 != "\n" && $0 != "\t" && $0.properties.generalCategory == .control }
            #expect(controls.isEmpty, "\(name) printed \(controls.map { String($0.value, radix: 16) })")
        }
        #expect(history.output.contains("ev\u{FFFD}]52;c;cHduZWQ=\u{FFFD}il\u{FFFD}[2J\t"), "\(history.output)")
    }

    @Test("A terminal with TERM=dumb gets the pretty list without colour codes, as a pipe does; another terminal gets them")
    func dumbTerminalGetsNoColour() async throws {
        let db = try freshDatabase()
        _ = try await sentiment(["import", archive, "--db", db])
        let executable = try #require(SentimentExecutable.url)
        func onTerminal(_ term: String) async throws -> Run {
            // script(1) runs the command on a pseudo-terminal and copies what it shows.
            try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/usr/bin/script"), [
                "-qec", "TERM=\(term) '\(executable.path)' tweets sunnydays --offline --limit 2 --db '\(db)'", "/dev/null",
            ], environment: ["NO_COLOR": nil, "FORCE_COLOR": nil, "SENTIMENT_DB": nil, "X_BEARER_TOKEN": nil,
                             "HOME": FileManager.default.temporaryDirectory.path])
        }
        let coloured = try await onTerminal("xterm-256color")
        #expect(coloured.status == 0, "\(coloured.stderr)")
        #expect(coloured.output.contains("\u{1B}[38;2;"), "a terminal gets the theme colours: \(coloured.output)")
        let dumb = try await onTerminal("dumb")
        #expect(dumb.status == 0, "\(dumb.stderr)")
        #expect(dumb.output.contains("😃") || dumb.output.contains("😐") || dumb.output.contains("😔"), "\(dumb.output)")
        #expect(!dumb.output.contains("\u{1B}["), "\(dumb.output)")
    }

    @Test("FORCE_COLOR (not empty, not 0) colours the pretty list into a pipe and with TERM=dumb; NO_COLOR (not empty) turns colour off, on a terminal and over FORCE_COLOR")
    func colourEnvironmentConventions() async throws {
        let db = try freshDatabase()
        _ = try await sentiment(["import", archive, "--db", db])
        let cases: [([String: String?], Bool)] = [
            (["FORCE_COLOR": "1"], true), (["FORCE_COLOR": "always"], true), (["FORCE_COLOR": "1", "TERM": "dumb"], true),
            (["FORCE_COLOR": "1", "NO_COLOR": ""], true), (["FORCE_COLOR": "0"], false), (["FORCE_COLOR": ""], false),
            (["FORCE_COLOR": "1", "NO_COLOR": "1"], false),
        ]
        for (environment, coloured) in cases {
            let run = try await sentiment(["tweets", "sunnydays", "--offline", "--limit", "2", "--db", db], environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output.contains("\u{1B}[38;2;") == coloured, "\(environment): \(run.output)")
            #expect(run.output.contains("😃") || run.output.contains("😐") || run.output.contains("😔"), "\(run.output)")
        }
        let executable = try #require(SentimentExecutable.url)
        let terminal = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/usr/bin/script"), [
            "-qec", "NO_COLOR=1 TERM=xterm-256color '\(executable.path)' tweets sunnydays --offline --limit 2 --db '\(db)'", "/dev/null",
        ], environment: ["FORCE_COLOR": nil, "SENTIMENT_DB": nil, "X_BEARER_TOKEN": nil, "HOME": FileManager.default.temporaryDirectory.path])
        #expect(terminal.status == 0, "\(terminal.stderr)")
        #expect(!terminal.output.contains("\u{1B}["), "\(terminal.output)")
    }

    // MARK: - Failures

    @Test("Offline with nothing stored exits 66 with a one-line reason")
    func offlineWithNothingStored() async throws {
        let run = try await sentiment(["tweets", "nobody_here", "--offline", "--db", try freshDatabase()])
        #expect(run.status == 66)
        #expect(run.output.isEmpty)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test("When the X API cannot be reached, stored tweets are shown and the answer is stale, exit 0")
    func unreachableUpstreamIsStale() async throws {
        let db = try freshDatabase()
        _ = try await sentiment(["import", archive, "--db", db])
        let run = try await sentiment(["tweets", "sunnydays", "--format", "jsonl", "--limit", "2", "--db", db,
                                 "--api-url", "http://127.0.0.1:1", "--retries", "0"], environment: ["X_BEARER_TOKEN": "test-token"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.records().count == 2)
        #expect(run.stderr.contains("out of date"), "\(run.stderr)")
        #expect(!run.stderr.contains("test-token"))
    }

    @Test("When the X API cannot be reached and nothing is stored, exit 69 with a one-line reason")
    func unreachableUpstreamWithNothingStored() async throws {
        let run = try await sentiment(["tweets", "sunnydays", "--db", try freshDatabase(), "--api-url", "http://127.0.0.1:1",
                                 "--retries", "0"],
                                environment: ["X_BEARER_TOKEN": "test-token"])
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.output.isEmpty)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test("A retry count outside 0 to 10 is a usage error, exit 64", arguments: ["-1", "11", "two"])
    func retriesOutOfRange(_ retries: String) async throws {
        let run = try await sentiment(["tweets", "sunnydays", "--db", try freshDatabase(), "--retries", retries])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--retries") || run.stderr.contains("retries"), "\(run.stderr)")
    }

    @Test("A file that is not a database is said in one line, without the SQL that met it, exit 73, and is left as it was")
    func fileThatIsNotADatabase() async throws {
        let db = try freshDatabase()
        try "some notes, not a database\n".write(toFile: db, atomically: false, encoding: .utf8)
        for arguments in [["history"], ["import", archive], ["tweets", "sunnydays", "--offline"]] {
            let run = try await sentiment(arguments + ["--db", db])
            #expect(run.status == 73, "\(arguments[0]): \(run.stderr)")
            #expect(run.stderr == "sentiment: cannot open the database \(db): it is not a SQLite database (SQLite error 26: file is not a database)\n",
                    "\(arguments[0]): \(run.stderr)")
        }
        #expect(try String(contentsOfFile: db, encoding: .utf8) == "some notes, not a database\n")
    }

    @Test("A folder or a named pipe as the database is said in one line for what it is, exit 73, not SQLite's disk I/O error, and a pipe is not waited on forever")
    func databaseThatIsNotAFile() async throws {
        let folder = URL(fileURLWithPath: try freshDatabase()).deletingLastPathComponent().appendingPathComponent("tweets.d").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let pipe = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("tweets.fifo").path
        try #require(mkfifo(pipe, 0o644) == 0)
        let reasons = [
            folder: "it is a folder, not a database file: give the path of a file, such as \(folder)/tweets.sqlite",
            pipe: "it is a named pipe (FIFO), not a database file: give the path of a regular file",
        ]
        for (db, reason) in reasons {
            for arguments in [["import", archive], ["tweets", "sunnydays", "--offline"], ["history"], ["history", "--clear"]] {
                // SQLite's read of a named pipe waited for a writer, forever.
                let run = try await sentiment(arguments + ["--db", db], timeLimit: .seconds(60))
                #expect(run.status == 73, "\(arguments): \(run.stderr)")
                #expect(run.stderr == "sentiment: cannot open the database \(db): \(reason)\n", "\(arguments): \(run.stderr)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: folder).deletingLastPathComponent().path))
                == ["tweets.d", "tweets.fifo"])
    }

    @Test("A database whose folder cannot be created is said in one line with the folder and the system's reason, exit 73")
    func databaseFolderCannotBeCreated() async throws {
        let db = try freshDatabase()
        let file = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("plain-file").path
        try "not a folder".write(toFile: file, atomically: false, encoding: .utf8)
        let inside = file + "/data/tweets.sqlite"
        let run = try await sentiment(["import", archive, "--db", inside])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr == "sentiment: cannot open the database \(inside): its folder \(file)/data cannot be created: Not a directory\n",
                "\(run.stderr)")
        let timeline = try await sentiment(["tweets", "sunnydays", "--db", inside, "--retries", "0",
                                            "--api-url", "http://127.0.0.1:1"])
        #expect(timeline.status == 73, "\(timeline.stderr)")
        #expect(!timeline.stderr.contains("UserInfo"), "\(timeline.stderr)")
        // The file in the database's own place is "Not a directory" too, not Foundation's "File exists".
        let beside = try await sentiment(["import", archive, "--db", file + "/tweets.sqlite"])
        #expect(beside.status == 73, "\(beside.stderr)")
        #expect(beside.stderr == "sentiment: cannot open the database \(file)/tweets.sqlite: its folder \(file) cannot be created: Not a directory\n",
                "\(beside.stderr)")
    }

    @Test("A missing archive exits 66")
    func missingArchive() async throws {
        let run = try await sentiment(["import", "/nonexistent/archive", "--db", try freshDatabase()])
        #expect(run.status == 66, "\(run.stderr)")
    }

    // MARK: - History

    @Test("Processes importing at once into a new database file all open and migrate it, and the tweets are stored once")
    func processesImportIntoANewFileAtOnce() async throws {
        var failures: [String] = []
        var newCounts: [Int] = []
        for _ in 0..<10 {
            let db = try freshDatabase()
            // `import` creates the file (`history` only reads, and makes none).
            let dump = try writeDump(#"""
                {"id":"1","text":"What a lovely walk in the park","created_at":"2024-01-01T00:00:00.000Z"}
                {"id":"2","text":"Train cancelled again, so annoying","created_at":"2024-01-02T00:00:00.000Z"}

                """#, besides: db)
            var environment = ProcessInfo.processInfo.environment
            environment["SENTIMENT_DB"] = nil
            let processes = try (0..<8).map { k -> (Process, URL) in
                let process = try SentimentExecutable.process(["import", dump, "--user", "walker", "--db", db])
                let stderr = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("stderr-\(k)")
                _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
                process.environment = environment
                process.standardOutput = FileHandle.nullDevice
                process.standardError = try FileHandle(forWritingTo: stderr)
                return (process, stderr)
            }
            for (process, _) in processes { try process.run() }
            var added = 0
            for (process, stderr) in processes {
                await SentimentExecutable.exit(of: process)
                let message = try String(contentsOf: stderr, encoding: .utf8)
                if process.terminationStatus != 0 { failures.append(message) }
                if message.contains("2 new") { added += 2 } else if message.contains("1 new") { added += 1 }
            }
            newCounts.append(added)
            let timeline = try await sentiment(["tweets", "walker", "--offline", "--format", "jsonl", "--db", db])
            #expect(try timeline.records().compactMap { $0["id"] as? String } == ["2", "1"], "\(timeline.stderr)")
        }
        #expect(failures.isEmpty, "\(failures.count) of 80 failed, e.g. \(failures.first ?? "")")
        #expect(newCounts == Array(repeating: 2, count: 10), "tweets reported new across the 8 processes of each round")
    }

    @Test("A database another process holds the write lock of past the busy timeout exits 73 with a one-line reason, not 1")
    func lockedDatabase() async throws {
        let db = try freshDatabase()
        #expect(try await sentiment(["import", archive, "--db", db]).status == 0)
        // One process keeps the file open (it waits for its archive on
        // standard input), so that its WAL stays and a new process opens the
        // file without writing; this test then takes the WAL's write lock,
        // byte 120 of the `-shm` file (SQLite's WAL_WRITE_LOCK), as a writer
        // in another process would.
        let holder = try SentimentExecutable.process(["tweets", "sunnydays", "--archive", "-", "--db", db])
        let input = Pipe()
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        let wal = db + "-wal"
        let opened = ContinuousClock.now
        while ((try? FileManager.default.attributesOfItem(atPath: wal)[.size]) as? Int ?? 0) == 0 {
            try #require(ContinuousClock.now - opened < .seconds(60), "the holder never opened the database")
            try await Task.sleep(for: .milliseconds(20))
        }
        let shm = open(db + "-shm", O_RDWR)
        try #require(shm >= 0)
        defer { close(shm) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 120
        lock.l_len = 1
        // The holder may still be finishing its own first write: wait for it to let go.
        let locking = ContinuousClock.now
        while fcntl(shm, F_SETLK, &lock) != 0 {
            try #require(errno == EAGAIN || errno == EACCES, "fcntl: \(String(cString: strerror(errno)))")
            try #require(ContinuousClock.now - locking < .seconds(60), "the holder never let go of the write lock")
            try await Task.sleep(for: .milliseconds(20))
        }

        let run = try await sentiment(["history", "--clear", "--db", db])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("sentiment: cannot use the database \(db): "), "\(run.stderr)")
        #expect(run.stderr.contains("another process has held its write lock past the busy timeout (SQLite error 5: database is locked)"),
                "\(run.stderr)")
        #expect(!run.stderr.contains("while executing"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")

        // Met while opening (the lock held before the process starts): the same reason, without the SQL.
        let opening = try await sentiment(["import", archive, "--db", db])
        #expect(opening.status == 73, "\(opening.stderr)")
        #expect(opening.stderr.contains("another process has held its write lock past the busy timeout (SQLite error 5: database is locked)"),
                "\(opening.stderr)")
        #expect(!opening.stderr.contains("while executing"), "\(opening.stderr)")
    }

    @Test("History lists a searched username once and --clear empties it")
    func historyDedupesAndClears() async throws {
        let db = try freshDatabase()
        _ = try await sentiment(["import", archive, "--db", db])
        _ = try await sentiment(["tweets", "sunnydays", "--offline", "--db", db])
        _ = try await sentiment(["tweets", "@sunnydays", "--offline", "--db", db])
        let listed = try await sentiment(["history", "--db", db])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.outputLines.filter { $0.hasPrefix("sunnydays") }.count == 1, "\(listed.output)")
        let cleared = try await sentiment(["history", "--clear", "--db", db])
        #expect(cleared.status == 0)
        #expect(try await sentiment(["history", "--db", db]).output.isEmpty)
    }
}
