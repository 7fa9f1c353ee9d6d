import Foundation
import Testing

/// `Bench` as a process on a tiny dump: it fails at once on what would make a
/// long run end badly, and a filtered run writes its results. No timing is
/// checked (a debug build's figures mean nothing).
@Suite("Bench as a process")
struct BenchCommandTests {
    private let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("sentiment-bench")
    }

    /// Runs `Bench` (built beside `sentiment`) on a 20-tweet dump of the plain fixture.
    private func bench(_ arguments: [String], environment: [String: String?] = [:]) async throws -> SentimentExecutable.Run {
        let (bench, common) = try benchCommand()
        return try await SentimentExecutable.run(executable: bench, common + arguments, environment: environment)
    }

    /// `Bench` (built beside `sentiment`) and the arguments that run it on a 20-tweet dump of the plain fixture.
    private func benchCommand() throws -> (executable: URL, arguments: [String]) {
        let sentiment = try #require(SentimentExecutable.url, "the sentiment executable was not built beside the tests")
        let bench = sentiment.deletingLastPathComponent().appendingPathComponent("Bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "Bench was not built beside sentiment")
        return (bench, [
            "--tweets", "20", "--stage-tweets", "20", "--repeat", "1", "--process-repeat", "1", "--no-scale",
            "--input", SentimentExecutable.fixture("plain.txt"), "--work-dir", folder.url.path,
            "--model", SentimentExecutable.packageRoot.appendingPathComponent("Models/default").path, "--sentiment", sentiment.path,
        ])
    }

    /// Bench started with `arguments` (in `directory`, with TMPDIR at
    /// `temporary` and no streams), once the stand-in child it runs has written
    /// its process id to `standInPID`: a signal sent then finds it running.
    private func startBench(_ arguments: [String], temporary: URL, standInPID: URL,
                            in directory: URL? = nil) async throws -> (bench: Process, standIn: pid_t) {
        let process = try SentimentExecutable.process(arguments)
        process.executableURL = try benchCommand().executable
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var child: pid_t?
        for _ in 0..<6000 where child == nil {
            child = (try? String(contentsOf: standInPID, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if child == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        guard let child else {
            process.terminate()
            throw BenchTestFailure("the stand-in child never wrote \(standInPID.lastPathComponent)")
        }
        return (process, child)
    }

    /// An executable shell script `name` in the folder, to stand in for `sentiment`.
    private func script(_ name: String, _ body: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url
    }

    /// The results' names and items in the JSON report at `json`.
    private func results(_ json: URL) throws -> [(name: String, items: Int)] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        return results.map { ($0["name"] as? String ?? "", $0["items"] as? Int ?? 0) }
    }

    @Test("An unwritable --json stops the run before any benchmark, naming the option and the reason")
    func unwritableJSON() async throws {
        let run = try await bench(["--json", "/proc/none/bench.json"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--json /proc/none/bench.json: cannot"), "\(run.stderr)")
        #expect(!run.stderr.contains("writing plain dump"), "no dump was built: \(run.stderr)")
    }

    @Test("A --filter that no benchmark's name contains is an error, not an empty report")
    func filterMatchingNothing() async throws {
        let json = folder.appendingPathComponent("results/bench.json")
        let run = try await bench(["--filter", "nothingmatches", "--json", json.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("no benchmark's name contains --filter nothingmatches"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: json.path))
    }

    @Test("A filtered run writes JSON with the benchmarks asked for, an SVG chart, and names a filter that matched nothing")
    func filteredRunWritesResults() async throws {
        let json = folder.appendingPathComponent("results/bench.json")
        let run = try await bench(["--filter", "tokenizer/all", "--filter", "zzz", "--json", json.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("no benchmark's name contains --filter zzz"), "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["name"] as? String } == ["tokenizer/all"])
        #expect(results.first?["items"] as? Int == 20)
        let svg = try String(contentsOf: folder.appendingPathComponent("results/bench.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("tokenizer"))
    }

    @Test("Blank lines of --input (a CRLF file's empty lines, spaces only) are left out of the dump, not timed as error records")
    func blankInputLinesLeftOut() async throws {
        let input = folder.appendingPathComponent("crlf.txt")
        try Data("good morning :)\r\n\r\n   \r\nwhat a bad day\r\n".utf8).write(to: input)
        let json = folder.appendingPathComponent("results/bench.json")
        let run = try await bench(["--input", input.path, "--filter", "process/plain-1-core", "--json", json.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.contains("(2 texts)"), "\(run.output)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        let note = try #require(results.first?["note"] as? String)
        #expect(note.contains("errors 0"), "\(note)")
    }

    @Test("A CRLF TSV --input is read by its text column: the header is no text, and no id or label goes into one")
    func crlfTSVInput() async throws {
        let input = folder.appendingPathComponent("crlf.tsv")
        try Data("id\tlabel\ttext\r\n1\tpositive\tgood morning :)\r\n2\tnegative\twhat a bad day\r\n".utf8).write(to: input)
        let run = try await bench(["--input", input.path, "--filter", "tokenizer/all", "--json", folder.appendingPathComponent("results/bench.json").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.contains("(2 texts)"), "\(run.output)")
        let dumps = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("plain-") }
        let dump = try String(contentsOf: folder.appendingPathComponent(try #require(dumps.first)), encoding: .utf8)
        #expect(dump.split(separator: "\n").prefix(2) == ["good morning :)", "what a bad day"], "\(dump)")
    }

    @Test("A dump line that sentiment classify answers with an error record stops the run, saying so, rather than timing it as a tweet")
    func errorRecordsStopTheRun() async throws {
        let input = folder.appendingPathComponent("braces.txt")
        try Data("{happy} day\nwhat a bad day\n".utf8).write(to: input)
        let json = folder.appendingPathComponent("results/bench.json")
        let run = try await bench(["--input", input.path, "--filter", "process/plain-1-core", "--json", json.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("answered some of the dump's lines with error records"), "\(run.stderr)")
        #expect(run.stderr.contains("errors 10"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: json.path))
    }

    @Test("A missing --input stops the run naming the file and the reason")
    func missingInput() async throws {
        let missing = folder.appendingPathComponent("no-such-texts.txt")
        let run = try await bench(["--input", missing.path, "--filter", "tokenizer/all"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("\(missing.path): no such file"), "\(run.stderr)")
    }

    @Test("--peers without the shared train.tsv or dev.tsv beside the repository stops the run before any work, naming the missing file and what to do, instead of failing late in a Python traceback",
          arguments: [[], ["train.tsv"]])
    func peersWithoutSharedData(present: [String]) async throws {
        // A repository (found from the working directory) whose ../shared/data/semeval holds only `present`.
        let repository = folder.appendingPathComponent("repository")
        let scripts = repository.appendingPathComponent("scripts/peers")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try "exit 1\n".write(to: scripts.appendingPathComponent("setup.sh"), atomically: false, encoding: .utf8)
        let semeval = folder.appendingPathComponent("shared/data/semeval")
        try FileManager.default.createDirectory(at: semeval, withIntermediateDirectories: true)
        for file in present {
            try "id\tlabel\ttext\n1\tpositive\tgreat\n".write(to: semeval.appendingPathComponent(file), atomically: false, encoding: .utf8)
        }
        let missing = semeval.appendingPathComponent(present.isEmpty ? "train.tsv" : "dev.tsv")
        let (bench, common) = try benchCommand()
        let process = try SentimentExecutable.process(common + ["--peers", "--filter", "peer/VADER"])
        process.executableURL = bench
        process.currentDirectoryURL = repository
        process.standardInput = FileHandle.nullDevice
        let run = try await SentimentExecutable.run(prepared: process)
        #expect(run.status != 0)
        #expect(run.stderr.contains("--peers: \(missing.path): no such file;"), "\(run.stderr)")
        #expect(run.stderr.contains("put them there or leave out --peers"), "\(run.stderr)")
        #expect(!run.stderr.contains("setup.sh") && !run.stderr.contains("writing plain dump"), "\(run.stderr)")
    }

    @Test("Latency rows (a model load) come under a header of their own, whose CPU column is the CPU median in milliseconds, not under the throughputs' per CPU-s")
    func latencyRowsHaveTheirHeader() async throws {
        let run = try await bench(["--filter", "tokenizer/all", "--filter", "load/library"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.outputLines
        let load = try #require(lines.firstIndex { $0.hasPrefix("load/library") }, "\(run.output)")
        let header = lines[load - 1].split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        #expect(header == "benchmark median spread (min–max) CPU median RSS MB load", "\(run.output)")
        #expect(lines[load].components(separatedBy: " ms").count - 1 == 4, "median, spread and CPU median in milliseconds: \(lines[load])")
        let tokenizer = try #require(lines.firstIndex { $0.hasPrefix("tokenizer/all") }, "\(run.output)")
        #expect(tokenizer < load && lines[..<tokenizer].contains { $0.contains("per CPU-s") }, "\(run.output)")
    }

    @Test("The peak RSS goal names the size of the dump it was measured on, not the goal's 1M tweets")
    func peakRSSGoalNamesTheDump() async throws {
        let run = try await bench(["--filter", "process/plain-1-core", "--json", folder.appendingPathComponent("results/bench.json").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.contains("peak RSS classifying the 20-tweet dump (the goal's is 1M)"), "\(run.output)")
        #expect(!run.output.contains("classifying the 1M dump"), "\(run.output)")
    }

    @Test("A dump kept in --work-dir is not reused for other texts whose bytes run the same without the line breaks")
    func keptDumpNotReusedForOtherTexts() async throws {
        let json = folder.appendingPathComponent("results/bench.json")
        var bytes: [Int] = []
        for (name, texts) in [("split.txt", "ab\nc\n"), ("joined.txt", "abc\n")] {
            let input = folder.appendingPathComponent(name)
            try Data(texts.utf8).write(to: input)
            let run = try await bench(["--input", input.path, "--filter", "tokenizer/all", "--json", json.path])
            #expect(run.status == 0, "\(run.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            let results = try #require(report["results"] as? [[String: Any]])
            bytes.append(try #require(results.first?["bytes"] as? Int))
        }
        #expect(bytes == [30, 60], "20 tweets of \"ab\" and \"c\", then 20 of \"abc\"")
    }

    @Test("A TMPDIR that is no folder stops a run with process rows before any work, naming TMPDIR and the reason, not blaming /usr/bin/time")
    func missingTemporaryFolderIsNamed() async throws {
        let missing = folder.appendingPathComponent("no-such-folder").path
        let run = try await bench(["--filter", "process/plain-2-cores", "--json", folder.appendingPathComponent("results/bench.json").path],
                                  environment: ["TMPDIR": missing])
        #expect(run.status != 0)
        #expect(run.stderr.contains("TMPDIR \(missing): cannot make Bench's temporary files there"), "\(run.stderr)")
        #expect(run.stderr.contains("No such file or directory"), "\(run.stderr)")
        #expect(!run.stderr.contains("/usr/bin/time"), "\(run.stderr)")
        #expect(!run.stderr.contains("writing plain dump"), "no dump was built: \(run.stderr)")
    }

    @Test("The sentiment classify that Bench runs starts with SIGPIPE at its default action, not ignored as Bench ignores it for itself")
    func childStartsWithSIGPIPEAtItsDefault() async throws {
        let mask = folder.appendingPathComponent("ignored-signals")
        let fake = try script("fake-sentiment", "grep '^SigIgn:' /proc/self/status > '\(mask.path)'; cat > /dev/null; exit 0")
        let run = try await bench(["--sentiment", fake.path, "--filter", "process/plain-2-cores",
                                   "--json", folder.appendingPathComponent("results/bench.json").path])
        #expect(run.status != 0, "the stand-in classifies nothing: \(run.stderr)")
        let line = try String(contentsOf: mask, encoding: .utf8)
        let ignored = try #require(UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespacesAndNewlines), radix: 16), "\(line)")
        #expect(ignored & (1 << (UInt64(SIGPIPE) - 1)) == 0, "SigIgn \(line)")
    }

    @Test("A process row counts the records sentiment classify said it classified: a run that classified fewer than the dump's tweets, or said nothing, stops the run instead of being timed as the whole dump",
          arguments: ["echo 'classified 7 records (positive 7, neutral 0, negative 0, errors 0) in 0.00 s, 7000 tweets/s' >&2", "exit 0"])
    func processRowCountsTheRecordsClassified(body: String) async throws {
        let fake = try script("fake-sentiment", "cat > /dev/null; \(body)")
        let json = folder.appendingPathComponent("results/bench.json")
        let run = try await bench(["--sentiment", fake.path, "--filter", "process/plain-2-cores", "--json", json.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("of the dump's 20 tweets"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: json.path))
    }

    @Test("A dump kept in --work-dir that was cut short (a failed write) is written again, not timed as the whole dump")
    func truncatedDumpIsWrittenAgain() async throws {
        let json = folder.appendingPathComponent("results/bench.json")
        let first = try await bench(["--filter", "tokenizer/all", "--json", json.path])
        #expect(first.status == 0, "\(first.stderr)")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).first { $0.hasPrefix("plain-") })
        let dump = folder.appendingPathComponent(name)
        let lines = try String(contentsOf: dump, encoding: .utf8).split(separator: "\n")
        try Data(lines.prefix(10).map { $0 + "\n" }.joined().utf8).write(to: dump)
        let second = try await bench(["--filter", "tokenizer/all", "--json", json.path])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("writing plain dump"), "\(second.stderr)")
        #expect(try results(json).map(\.items) == [20])
        #expect(try String(contentsOf: dump, encoding: .utf8).split(separator: "\n").count == 20)
    }

    @Test("A --json or --svg whose write fails part way (a file-size limit) leaves the last run's file as it was, with no half-written file beside it",
          arguments: ["--json", "--svg"])
    func failedWriteKeepsTheLastResults(option: String) async throws {
        let results = folder.appendingPathComponent("results")
        let (json, svg) = (results.appendingPathComponent("bench.json"), results.appendingPathComponent("bench.svg"))
        let first = try await bench(["--filter", "tokenizer/all", "--json", json.path])
        #expect(first.status == 0, "\(first.stderr)")
        let earlier = try Data(contentsOf: option == "--json" ? json : svg)
        // The dump is kept from the first run, so the one file written is the
        // one asked about (the other goes to /dev/null, written in place). The
        // shell ignores SIGXFSZ and limits files to one block of 512 bytes,
        // less than either file: its write fails with EFBIG.
        let (executable, common) = try benchCommand()
        let paths = option == "--json" ? ["--json", json.path, "--svg", "/dev/null"] : ["--json", "/dev/null", "--svg", svg.path]
        let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"), [
            "-c", #"trap '' XFSZ; ulimit -f 1 && exec "$@""#, "sh", executable.path,
        ] + common + ["--filter", "tokenizer/all"] + paths)
        #expect(run.status != 0)
        let path = option == "--json" ? json.path : svg.path
        #expect(run.stderr.contains("\(option) \(path): cannot write it: File too large"), "\(run.stderr)")
        #expect(try Data(contentsOf: option == "--json" ? json : svg) == earlier)
        let left = try FileManager.default.contentsOfDirectory(atPath: results.path).sorted()
        #expect(left == ["bench.json", "bench.svg"], "no hidden half-written file is left beside it")
    }

    @Test("Two runs at once sharing a --work-dir both write their dumps and finish, neither losing the other's partial file")
    func twoRunsShareAWorkDir() async throws {
        let (bench, common) = try benchCommand()
        let sizes = common + ["--tweets", "20000", "--jsonl-tweets", "5000", "--stage-tweets", "20", "--filter", "tokenizer/all"]
        let (one, two) = (folder.appendingPathComponent("one/bench.json").path, folder.appendingPathComponent("two/bench.json").path)
        async let first = SentimentExecutable.run(executable: bench, sizes + ["--json", one])
        async let second = SentimentExecutable.run(executable: bench, sizes + ["--json", two])
        let runs = try await [first, second]
        for run in runs { #expect(run.status == 0, "\(run.stderr)") }
        for json in ["one", "two"] {
            #expect(try results(folder.appendingPathComponent("\(json)/bench.json")).map(\.items) == [20])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).allSatisfy { !$0.hasSuffix(".partial") })
    }

    @Test("A --sentiment that is missing, a folder or not executable stops the run before any work, saying which",
          arguments: [("nowhere", "no such file"), ("folder", "a directory, not a program"), ("plain", "not executable")])
    func unusableSentiment(name: String, reason: String) async throws {
        let path = folder.appendingPathComponent(name).path
        if name == "folder" { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        if name == "plain" { try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: path)) }
        let run = try await bench(["--sentiment", path, "--filter", "process/plain-1-core"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--sentiment \(path): \(reason)"), "\(run.stderr)")
        #expect(!run.stderr.contains("writing plain dump") && !run.stderr.contains("taskset"), "\(run.stderr)")
    }

    @Test("A Bench with no sentiment beside it, or run with --peers outside the repository, stops before any work, saying so")
    func benchAwayFromItsBuild() async throws {
        let (bench, common) = try benchCommand()
        let away = folder.appendingPathComponent("away")
        try FileManager.default.createDirectory(at: away, withIntermediateDirectories: true)
        let copy = away.appendingPathComponent("Bench")
        try FileManager.default.copyItem(at: bench, to: copy)
        var arguments = common
        let given = try #require(arguments.firstIndex(of: "--sentiment"))
        arguments.removeSubrange(given...(given + 1))
        for (extra, message) in [(["--filter", "process/plain-2-cores"], "no sentiment binary beside Bench"),
                                 (["--peers", "--filter", "tokenizer/all"], "--peers: no scripts/peers/setup.sh")] {
            let process = try SentimentExecutable.process(arguments + extra)
            process.executableURL = copy
            process.currentDirectoryURL = away
            process.standardInput = FileHandle.nullDevice
            let run = try await SentimentExecutable.run(prepared: process)
            #expect(run.status != 0)
            #expect(run.stderr.contains(message), "\(run.stderr)")
            #expect(!run.stderr.contains("writing plain dump"), "\(run.stderr)")
        }
    }

    @Test("SIGINT or SIGTERM ends Bench with 130 or 143, ending the sentiment classify it runs and removing its temporary files (the 10x dump, the run's log)",
          arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalEndsTheChildAndCleansUp(signal: Int32, status: Int32) async throws {
        let pidFile = folder.appendingPathComponent("child.pid")
        // Ten minutes: a loaded test process gets round to the signal long after
        // the stand-in started (43 s in a run of SentimentCLITests on two cores);
        // in runs of the whole suite a `sleep 60` had ended by then, and Bench
        // exited 1 ('said nothing of the dump') before it was signalled.
        let fake = try script("slow-sentiment", "echo $$ > '\(pidFile.path)'; exec sleep 600")
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let common = try benchCommand().arguments
        let (process, pid) = try await startBench(common.filter { $0 != "--no-scale" }
            + ["--sentiment", fake.path, "--filter", "memory/plain-10x", "--json", folder.appendingPathComponent("results/bench.json").path],
            temporary: temporary, standInPID: pidFile)
        defer { kill(pid, SIGKILL) }
        try #require(process.isRunning, "Bench ended before the signal")
        kill(process.processIdentifier, signal)
        let killed = await SentimentExecutable.exit(of: process, timeLimit: .seconds(60))
        #expect(!killed)
        #expect(process.terminationReason == .exit && process.terminationStatus == status,
                "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        var running = true
        for _ in 0..<500 where running {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
            running = state != nil && state != "Z"
            if running { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(!running, "sentiment classify (pid \(pid)) still runs after Bench ended")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(left.allSatisfy { !$0.hasSuffix("-scale.txt") && !$0.hasSuffix(".partial") }, "\(left)")
    }

    @Test("SIGINT while the peers are being set up ends Bench with 130, ending setup.sh and removing the peers' output and log from TMPDIR")
    func signalDuringPeerSetUpCleansUp() async throws {
        // A repository of Bench's layout whose peers' setup.sh waits, beside the shared data it checks for.
        let repository = folder.appendingPathComponent("repo")
        let scripts = repository.appendingPathComponent("scripts/peers")
        let shared = folder.appendingPathComponent("shared/data/semeval")
        let temporary = folder.appendingPathComponent("tmp")
        for made in [scripts, shared, temporary] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        for file in ["train.tsv", "dev.tsv"] { try Data("id\tlabel\ttext\n1\tpositive\tgood\n".utf8).write(to: shared.appendingPathComponent(file)) }
        let pidFile = folder.appendingPathComponent("setup.pid")
        try Data("echo $$ > '\(pidFile.path)'\nexec sleep 600\n".utf8).write(to: scripts.appendingPathComponent("setup.sh"))
        let (process, pid) = try await startBench(try benchCommand().arguments
            + ["--peers", "--filter", "peer/VADER-1-core", "--json", folder.appendingPathComponent("results/bench.json").path],
            temporary: temporary, standInPID: pidFile, in: repository)
        defer { kill(pid, SIGKILL) }
        let made = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(made.contains { $0.hasPrefix("bench-peer-") && $0.hasSuffix(".log") }, "setup.sh's log is in TMPDIR while it runs: \(made)")
        try #require(process.isRunning, "Bench ended before the signal")
        kill(process.processIdentifier, SIGINT)
        let killed = await SentimentExecutable.exit(of: process, timeLimit: .seconds(60))
        #expect(!killed)
        #expect(process.terminationReason == .exit && process.terminationStatus == 130,
                "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    @Test("--filter features+scoring runs the rows it is derived from (classify/utf8, tokenizer/all) instead of matching nothing")
    func derivedRowRunsWhatItNeeds() async throws {
        let json = folder.appendingPathComponent("results/bench.json")
        let run = try await bench(["--filter", "features+scoring", "--json", json.path])
        #expect(run.status == 0, "\(run.stderr)")
        let names = Set(try results(json).map(\.name))
        #expect(names.isSuperset(of: ["classify/utf8", "tokenizer/all"]), "\(names)")
        // On so small a dump the difference of the two can come out negative: then it says so instead of a row.
        #expect(names.contains("features+scoring (derived)")
                || run.stderr.contains("features+scoring (derived) not recorded: classify/utf8 took no longer a tweet than tokenizer/all"),
                "\(run.output)\n\(run.stderr)")
    }

    @Test("--input from a pipe (<(…), a FIFO) is read to its end, not refused as unreadable")
    func inputFromAPipe() async throws {
        let (bench, common) = try benchCommand()
        let fifo = folder.appendingPathComponent("texts").path
        let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"f=$1; shift; mkfifo "$f" && { printf 'good morning :)\nwhat a bad day\n' > "$f" & } && exec "$0" "$@" --input "$f""#,
             bench.path, fifo] + common + ["--filter", "tokenizer/all", "--json", folder.appendingPathComponent("results/bench.json").path],
            timeLimit: .seconds(300))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.contains("(2 texts)"), "\(run.output)")
    }

    @Test("A --work-dir that cannot be a folder, or a --json that cannot be written, is one line with the system's reason, not a Foundation error",
          arguments: [("--work-dir", "file"), ("--work-dir", "/proc/none"), ("--json", "/dev/full")])
    func unusablePathsSaySo(option: String, path: String) async throws {
        let path = path == "file" ? folder.appendingPathComponent("a-file").path : path
        if path.hasSuffix("a-file") { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }
        let run = try await bench(["--filter", "tokenizer/all", option, path]
            + (option == "--json" ? ["--svg", folder.appendingPathComponent("bench.svg").path] : []))
        #expect(run.status != 0)
        let message = try #require(run.stderr.split(separator: "\n").last { $0.contains("\(option) \(path): ") }, "\(run.stderr)")
        let reasons = ["Not a directory", "No such file or directory", "No space left on device"]
        #expect(reasons.contains { message.hasSuffix($0) }, "\(message)")
        #expect(!run.stderr.contains("NSCocoaErrorDomain"), "\(run.stderr)")
    }

    @Test("An --input line longer than sentiment classify's 1 MiB limit is left out of the dump, saying so, instead of failing the process run with a message about JSON")
    func overLongInputLineLeftOut() async throws {
        let input = folder.appendingPathComponent("long.txt")
        try Data(("good morning :)\n" + String(repeating: "a", count: (1 << 20) + 1) + "\nwhat a bad day\n").utf8).write(to: input)
        let run = try await bench(["--input", input.path, "--filter", "process/plain-2-cores",
                                   "--json", folder.appendingPathComponent("results/bench.json").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("left out 1 line of \(input.path) longer than 1 MiB"), "\(run.stderr)")
        #expect(run.output.contains("(2 texts)"), "\(run.output)")
    }
}

/// A test's precondition that did not hold, thrown to stop the test.
private struct BenchTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
