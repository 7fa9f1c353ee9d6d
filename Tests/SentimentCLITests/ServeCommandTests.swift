import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `sentiment serve` as a real process, stopped the way a service manager
/// stops it: with SIGTERM.
@Suite("sentiment serve as a process")
struct ServeCommandTests {
    /// How long a `serve` expected to refuse to start may run before it is
    /// killed and the test fails, instead of serving forever and hanging the suite.
    private static let hangGuard: Duration = .seconds(300)

    /// The JSON log lines in `file` so far.
    private func logLines(_ file: URL) -> [[String: Any]] {
        let text = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Waits until `file` holds a log line that `matches`, and returns it.
    /// The file is read once more at the deadline: on a busy two-core machine
    /// this task can wake only after it (other tests' synchronous processes
    /// hold the test threads), and a line written meanwhile still counts.
    private func logLine(in file: URL, timeout: Duration, where matches: ([String: Any]) -> Bool) async throws -> [String: Any]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = logLines(file).first(where: matches) { return found }
            try await Task.sleep(for: .milliseconds(50))
        }
        return logLines(file).first(where: matches)
    }

    /// A `serve --offline` process on a free port with JSON logs, its standard
    /// error in a file; terminated, if still running, when it goes.
    private final class OfflineServer {
        let process: Process
        let errURL: URL
        private let stderr: FileHandle
        /// The address it said it listens on, once it did.
        var address = ""

        init(db: String, errURL: URL) throws {
            self.errURL = errURL
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            stderr = try FileHandle(forWritingTo: errURL)
            process = try SentimentExecutable.process(["serve", "--profile", "dev", "--port", "0", "--db", db, "--offline", "--log-format", "json"])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = stderr
        }

        deinit {
            if process.isRunning { process.terminate() }
            try? stderr.close()
        }
    }

    /// Starts `serve --offline` on `db`, its standard error in `errURL`, and
    /// waits for it to say where it listens.
    private func startOfflineServer(db: String, errURL: URL) async throws -> OfflineServer {
        let server = try OfflineServer(db: db, errURL: errURL)
        let process = server.process
        try process.run()
        let listening = try #require(try await logLine(in: errURL, timeout: .seconds(60)) { $0["message"] as? String == "listening" },
                                     """
                                     the server never said it was listening (\(process.isRunning ? "still running" : "exited \(process.terminationStatus)")); \
                                     its standard error: \(String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
                                     """)
        server.address = try #require(listening["address"] as? String)
        return server
    }

    /// Sends the server SIGTERM and waits up to 30 s for it to end.
    private func stop(_ process: Process) async throws {
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning, "the server was still running 30 s after SIGTERM")
    }

    @Test("SIGTERM stops the server with exit status 0, a request's log line carries its id, and the database opens again")
    func sigtermStopsGracefully() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sentiment-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let db = scratch.appendingPathComponent("serve.sqlite").path
        // Offline, the server reads a database and makes none.
        let archive = SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/sunnydays").path
        #expect(try await SentimentExecutable.run(["import", archive, "--db", db]).status == 0)
        let errURL = scratch.appendingPathComponent("stderr")
        let server = try await startOfflineServer(db: db, errURL: errURL)
        let (process, address) = (server.process, server.address)

        var request = URLRequest(url: try #require(URL(string: "\(address)/healthz")))
        request.setValue("trace-serve-1", forHTTPHeaderField: "X-Request-ID")
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("\"status\""))
        let logged = try await logLine(in: errURL, timeout: .seconds(10)) { $0["request_id"] as? String == "trace-serve-1" }
        #expect(logged?["message"] as? String == "request")
        #expect(logged?["path"] as? String == "/healthz")
        #expect(logged?["status"] as? String == "200")

        try await stop(process)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(logLines(errURL).contains { $0["sl-signal"] as? String == "SIGTERM" })

        // The store the server closed opens again and answers.
        let history = try await SentimentExecutable.run(["history", "--db", db])
        #expect(history.status == 0, "\(history.stderr)")
    }

    @Test("SIGTERM or SIGINT while the model is loading stops serve with exit status 0, as a signal stops a listening server, saying no request was served, instead of killing it",
          .enabled(if: SlowLoadingModel.available, "needs /proc to see the model loading"), arguments: [SIGTERM, SIGINT])
    func signalWhileLoadingStopsCleanly(signal: Int32) async throws {
        let model = try SlowLoadingModel()
        let folder = try TemporaryFolder("sentiment-serve-loading")
        let errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stderr = try FileHandle(forWritingTo: errURL)
        defer { try? stderr.close() }
        let db = folder.appendingPathComponent("serve.sqlite").path
        let process = try SentimentExecutable.process(["serve", "--profile", "dev", "--port", "0", "--db", db, "--model", model.path])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let signalled = await model.signal(signal, to: process.processIdentifier, onceLoading: .seconds(120))
        try #require(signalled, "serve never opened the weights file (\(process.isRunning ? "still running" : "exited \(process.terminationStatus)")): \(String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))")
        let killed = await SentimentExecutable.exit(of: process, timeLimit: .seconds(30))
        #expect(!killed)
        let output = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        #expect(process.terminationReason == .exit, "\(output)")
        #expect(process.terminationStatus == 0, "\(output)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(output.hasSuffix("sentiment: stopped by \(name) before the server was listening: no request was served\n"), "\(output)")
    }

    @Test("Offline, a --db with no file stops serve with 66 saying so, and makes neither the file nor its folder, as tweets --offline does")
    func offlineServeMakesNoDatabase() async throws {
        let folder = try TemporaryFolder("sentiment-serve-no-database")
        let db = folder.appendingPathComponent("typo/tweets.sqlite").path
        let run = try await SentimentExecutable.run(["serve", "--profile", "dev", "--port", "0", "--db", db, "--offline"])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.contains("no database at \(db): serve --offline reads an existing database and makes none"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("typo").path))
    }

    @Test("Offline, a database the server may not write is served as it is: timelines and the history are read, clearing the history is refused with 409, and the file is left unchanged",
          .enabled(if: BoundPermissions.available, "root without setpriv writes whatever the permissions say"))
    func readOnlyDatabaseServedOffline() async throws {
        let folder = try TemporaryFolder("sentiment-serve-read-only")
        let db = folder.appendingPathComponent("tweets.sqlite").path
        let archive = SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/sunnydays").path
        #expect(try await SentimentExecutable.run(["import", archive, "--db", db]).status == 0)
        #expect(try await SentimentExecutable.run(["tweets", "sunnydays", "--offline", "--limit", "1", "--db", db]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: db) }
        let before = try Data(contentsOf: URL(fileURLWithPath: db))

        let errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stderr = try FileHandle(forWritingTo: errURL)
        defer { try? stderr.close() }
        let command = try #require(BoundPermissions.command(
            ["serve", "--profile", "dev", "--port", "0", "--db", db, "--offline", "--log-format", "json"]))
        let process = try SentimentExecutable.process(command.arguments)
        if let executable = command.executable { process.executableURL = executable }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let listening = try #require(try await logLine(in: errURL, timeout: .seconds(60)) { $0["message"] as? String == "listening" },
                                     "the server never said it was listening: \(String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))")
        let notice = logLines(errURL).first { ($0["message"] as? String)?.hasPrefix("the database is read-only") == true }
        #expect(notice?["reason"] as? String == "the file \(db) may not be written", "\(String(describing: notice))")
        let address = try #require(listening["address"] as? String)

        let (timelineBody, timelineResponse) = try await URLSession.shared.data(from: try #require(URL(string: "\(address)/v1/users/sunnydays/tweets?limit=20")))
        #expect((timelineResponse as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: timelineBody, as: UTF8.self))")
        let timeline = try #require(try JSONSerialization.jsonObject(with: timelineBody) as? [String: Any])
        let tweets = try #require(timeline["tweets"] as? [[String: Any]])
        #expect(tweets.count == 12)
        #expect(tweets.contains { ($0["theme"] as? [String: Any])?["name"] as? String == "happy" })

        let (historyBody, _) = try await URLSession.shared.data(from: try #require(URL(string: "\(address)/v1/history")))
        #expect(String(decoding: historyBody, as: UTF8.self).contains("\"sunnydays\""))

        var clear = URLRequest(url: try #require(URL(string: "\(address)/v1/history")))
        clear.httpMethod = "DELETE"
        let (clearBody, clearResponse) = try await URLSession.shared.data(for: clear)
        #expect((clearResponse as? HTTPURLResponse)?.statusCode == 409)
        let problem = try #require(try JSONSerialization.jsonObject(with: clearBody) as? [String: Any])
        #expect(problem["code"] as? String == "read-only-database", "\(problem)")

        try await stop(process)
        #expect(process.terminationStatus == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "the read-only file was written")
        let history = try await SentimentExecutable.run(["history", "--db", db])
        #expect(history.output.hasPrefix("sunnydays\t"), "the history was cleared: \(history.output)")
    }

    @Test("A database file moved over the served one is no longer read or written by the server: a 503 database-replaced, a failing health check, and the file moved in left whole for other processes")
    func databaseReplacedWhileServing() async throws {
        let folder = try TemporaryFolder("sentiment-serve-replaced")
        let db = folder.appendingPathComponent("tweets.sqlite").path
        let other = folder.appendingPathComponent("restored.sqlite").path
        let sunnydays = SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/sunnydays").path
        let rainyday = SentimentExecutable.packageRoot.appendingPathComponent("Examples/archive/rainyday_ops.jsonl").path
        #expect(try await SentimentExecutable.run(["import", sunnydays, "--db", db]).status == 0)
        #expect(try await SentimentExecutable.run(["import", rainyday, "--db", other]).status == 0)
        let errURL = folder.appendingPathComponent("stderr")
        let server = try await startOfflineServer(db: db, errURL: errURL)
        let (process, address) = (server.process, server.address)
        func get(_ path: String, method: String = "GET") async throws -> (Int?, [String: Any]) {
            var request = URLRequest(url: try #require(URL(string: address + path)))
            request.httpMethod = method
            let (body, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode, (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:])
        }
        // The server has read and written its file: the search is in its history.
        #expect(try await get("/v1/users/sunnydays/tweets?limit=20").0 == 200)

        // A backup restored over it: its tweets are rainyday_ops's alone.
        try #require(rename(other, db) == 0)
        let restored = try Data(contentsOf: URL(fileURLWithPath: db))
        for (path, method) in [("/v1/users/sunnydays/tweets?limit=20", "GET"), ("/v1/history", "GET"), ("/v1/history", "DELETE")] {
            let (status, problem) = try await get(path, method: method)
            #expect(status == 503, "\(method) \(path): \(problem)")
            #expect(problem["code"] as? String == "database-replaced", "\(method) \(path): \(problem)")
        }
        let (health, answer) = try await get("/healthz")
        #expect(health == 503)
        #expect(answer["database"] as? String == "failing")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == restored, "the server wrote to the file moved in")

        // Another process reads and writes the file moved in as it is: it read
        // the server's pages in the -wal with it, the server's search among them
        // (or "database disk image is malformed", for pages the two files hold otherwise).
        let timeline = try await SentimentExecutable.run(["tweets", "rainyday_ops", "--offline", "--format", "jsonl", "--db", db])
        #expect(timeline.status == 0, "\(timeline.stderr)")
        #expect(try timeline.records().count == 5)
        let history = try await SentimentExecutable.run(["history", "--db", db])
        #expect(history.outputLines.map { $0.split(separator: "\t").first.map(String.init) } == ["rainyday_ops"], "\(history.output)")

        try await stop(process)
        #expect(process.terminationStatus == 0)
        let stopped = logLines(errURL).last { ($0["message"] as? String)?.hasPrefix("stopped") == true }
        #expect((stopped?["message"] as? String)?.contains("database not closed: it was replaced by another file") == true,
                "\(String(describing: stopped))")
        // The server's close left the file moved in, and its history, as the other processes wrote them.
        let after = try await SentimentExecutable.run(["history", "--db", db])
        #expect(after.output == history.output, "\(after.stderr)")
    }

    @Test("A database that cannot be opened, a folder or a named pipe, exits 73 naming it and saying what it is, online and offline, as tweets and history do")
    func unopenableDatabase() async throws {
        let folder = try TemporaryFolder("sentiment-serve-db")
        let pipe = folder.appendingPathComponent("tweets.fifo").path
        try #require(mkfifo(pipe, 0o644) == 0)
        let reasons = [
            folder.url.path: "it is a folder, not a database file: give the path of a file, such as \(folder.url.path)/tweets.sqlite",
            pipe: "it is a named pipe (FIFO), not a database file: give the path of a regular file",
        ]
        for (db, reason) in reasons {
            for offline in [[], ["--offline"]] {
                // SQLite's read of a named pipe waited for a writer, forever.
                let run = try await SentimentExecutable.run(["serve", "--profile", "dev", "--port", "0", "--db", db] + offline,
                                                            timeLimit: .seconds(60))
                #expect(run.status == 73, "\(offline): \(run.stderr)")
                #expect(run.stderr.hasSuffix("sentiment: cannot open the database \(db): \(reason)\n"), "\(offline): \(run.stderr)")
            }
        }
    }

    @Test("--profile and --log-level take names in any case, as SENTIMENT_PROFILE and SENTIMENT_LOG_LEVEL do, and the help says so")
    func profileAndLogLevelNamesInAnyCase() async throws {
        // A folder for a database: the names are read, then the database cannot be opened (73), before listening.
        let folder = try TemporaryFolder("sentiment-serve-names")
        let flags = try await SentimentExecutable.run(["serve", "--profile", "PROD", "--log-level", "WARNING", "--port", "0",
                                                       "--db", folder.url.path], timeLimit: Self.hangGuard)
        #expect(flags.status == 73, "\(flags.stderr)")
        let environment = try await SentimentExecutable.run(["serve", "--port", "0", "--db", folder.url.path],
                                                            environment: ["SENTIMENT_PROFILE": "PROD", "SENTIMENT_LOG_LEVEL": "WARNING"],
                                                            timeLimit: Self.hangGuard)
        #expect(environment.status == 73, "\(environment.stderr)")
        for flag in ["--profile", "--log-level"] {
            let wrong = try await SentimentExecutable.run(["serve", flag, "loud", "--port", "0", "--db", folder.url.path],
                                                     timeLimit: Self.hangGuard)
            #expect(wrong.status == 64, "\(flag): \(wrong.stderr)")
        }
        // The help as one line: it is wrapped to the terminal's width.
        let help = try await SentimentExecutable.run(["serve", "--help"]).output
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("dev, stage or prod, in any case"), "\(help)")
        #expect(help.contains("warning, error or critical, in any case"), "\(help)")
    }

    @Test("A host name with no address exits 69 with one line naming it")
    func unknownHost() async throws {
        let folder = try TemporaryFolder("sentiment-serve-host")
        let db = folder.appendingPathComponent("serve.sqlite").path
        let run = try await SentimentExecutable.run(["serve", "--host", "nonexistent.invalid", "--port", "18080", "--db", db,
                                                     "--log-level", "error"],
                                                    environment: ["SENTIMENT_API_KEY": "k"], timeLimit: Self.hangGuard)
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("sentiment: cannot listen on nonexistent.invalid:18080: the name has no address"), "\(run.stderr)")
    }

    @Test("A port another process listens on exits 69 with one line naming the address")
    func portInUse() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(bound, "the test's own listener: errno \(errno)")
        let port = Int(UInt16(bigEndian: address.sin_port))

        let folder = try TemporaryFolder("sentiment-serve-port")
        let db = folder.appendingPathComponent("serve.sqlite").path
        let run = try await SentimentExecutable.run(["serve", "--profile", "dev", "--port", "\(port)", "--db", db, "--log-level", "error"],
                                                    timeLimit: Self.hangGuard)
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr == "sentiment: cannot listen on 127.0.0.1:\(port): Address already in use "
            + "(another process listens there; choose another --port)\n", "\(run.stderr)")
    }
}
