import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How one child process went.
struct ChildRun {
    var seconds: Double
    /// The exit code, or 128 + the signal number.
    var status: Int32
    /// Peak resident set of this child alone (`wait4`'s rusage, not RUSAGE_CHILDREN's maximum).
    var peakRSSBytes: Int
    var userSeconds: Double
    var systemSeconds: Double
}

/// Runs child processes with `posix_spawn`, files on their standard streams,
/// and `wait4` for each one's own resource usage.
enum ChildProcess {
    /// Runs `arguments` (looked up in PATH) with the environment plus `environment`.
    static func run(_ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null",
                    stderr: String = "/dev/null", environment: [String: String] = [:]) throws -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let start = monotonicSeconds()
        let pid = try spawn(arguments, actions: &actions, environment: environment)
        return wait(pid, start: start)
    }

    /// Like `run`, with the peak RSS measured by `/usr/bin/time -f %M`. The
    /// rusage of a child spawned straight from Bench cannot be used for that:
    /// Linux carries the high-water RSS of the old address space across
    /// `execve`, and `posix_spawn` shares Bench's (with its dumps in memory),
    /// so every child would report at least Bench's own peak. `time` is small
    /// and forks the measured process from itself.
    static func runMeasuringRSS(_ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null",
                                stderr: String = "/dev/null", environment: [String: String] = [:]) throws -> ChildRun {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("bench-time-\(getpid()).txt").path
        return try Interruption.removing(report) {
            var run = try self.run(try timed(arguments, report: report), stdin: stdin, stdout: stdout,
                                   stderr: stderr, environment: environment)
            if let peak = peakRSS(report: report) { run.peakRSSBytes = peak }
            return run
        }
    }

    /// `arguments` run under `/usr/bin/time -f %M -o report` (see `runMeasuringRSS`).
    static func timed(_ arguments: [String], report: String) throws -> [String] {
        try requireTools(taskset: false)
        return [time, "-f", "%M", "-o", report] + arguments
    }

    private static let time = "/usr/bin/time"

    /// Fails, saying what to install, unless `/usr/bin/time` is there (and
    /// `taskset`, when a run is to be pinned to core 0).
    static func requireTools(taskset: Bool) throws {
        guard FileManager.default.isExecutableFile(atPath: time) else {
            throw BenchError("\(time) is missing (apt-get install time): it measures the peak RSS of the runs")
        }
        guard !taskset || programInPath("taskset") != nil else {
            throw BenchError("taskset is missing from PATH (apt-get install util-linux): it pins the one-core runs and the peers to core 0")
        }
    }

    /// The peak RSS in bytes that `timed` had `time` write to `report`; nil if none.
    static func peakRSS(report: String) -> Int? {
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        // `time` writes "Command exited with non-zero status N" before the figure when it fails.
        return text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { $0 * 1024 }
    }

    /// Process start to the first byte on its standard output: spawns
    /// `arguments` with `input` on a pipe to its standard input, and returns the
    /// seconds until its first output byte arrives, then waits for it to end.
    ///
    /// - Throws: `BenchError` when the child wrote nothing or did not exit
    ///   with 0: the time to its end is not the time to a first result.
    static func timeToFirstOutput(_ arguments: [String], input: [UInt8], environment: [String: String] = [:]) throws -> (seconds: Double, run: ChildRun) {
        let start = monotonicSeconds()
        let (pid, toChild, fromChild) = try spawnPiped(arguments, stderr: "/dev/null", environment: environment)
        input.withUnsafeBytes { _ = write(toChild, $0.baseAddress, $0.count) }
        close(toChild)
        var byte: UInt8 = 0
        var got = read(fromChild, &byte, 1)
        while got < 0 && errno == EINTR { got = read(fromChild, &byte, 1) }
        let first = monotonicSeconds() - start
        var sink = [UInt8](repeating: 0, count: 1 << 16)
        while read(fromChild, &sink, sink.count) > 0 {}
        close(fromChild)
        let run = wait(pid, start: start)
        guard got == 1, run.status == 0 else {
            throw BenchError("\(arguments.joined(separator: " ")) \(got == 1 ? "wrote" : "wrote nothing and") exited with \(run.status): no first result to time")
        }
        return (first, run)
    }

    /// Starts `arguments` with pipes on its standard input and output and
    /// `stderr` (a file) as its standard error: the process, the write end of
    /// its input and the read end of its output, for the caller to close.
    static func spawnPiped(_ arguments: [String], stderr: String,
                           environment: [String: String]) throws -> (pid: pid_t, toChild: Int32, fromChild: Int32) {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        for fd in input + output { posix_spawn_file_actions_addclose(&actions, fd) }
        let pid: pid_t
        do {
            pid = try spawn(arguments, actions: &actions, environment: environment)
        } catch {
            for fd in input + output { close(fd) }
            throw error
        }
        close(input[0])
        close(output[1])
        return (pid, input[1], output[0])
    }

    /// Starts `arguments` (looked up in PATH) with `actions` on its streams, in
    /// a process group of its own with SIGINT and SIGTERM unblocked and at
    /// their default action (even if Bench was started with them ignored),
    /// for `Interruption` to end it and whatever it starts, and SIGPIPE at its
    /// default action too: Bench ignores it for itself, and an ignored signal
    /// stays ignored across `exec`, so every child (and its children) would
    /// have written on into a closed pipe instead of ending as a pipeline's
    /// programs do.
    private static func spawn(_ arguments: [String], actions: inout posix_spawn_file_actions_t,
                      environment: [String: String]) throws -> pid_t {
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var defaults = Interruption.signals
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        return try Interruption.spawning {
            var pid = pid_t()
            let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
            guard result == 0 else {
                throw BenchError("cannot run \(arguments[0]): \(String(cString: strerror(result)))")
            }
            return pid
        }
    }

    /// Waits for `pid` (spawned at `start`) and reads its own resource usage.
    static func wait(_ pid: pid_t, start: Double) -> ChildRun {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        Interruption.ended(pid)
        let seconds = monotonicSeconds() - start
        let signal = status & 0x7F
        func time(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return ChildRun(
            seconds: seconds,
            status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal,
            peakRSSBytes: Int(usage.ru_maxrss) * 1024,  // Linux reports KiB
            userSeconds: time(usage.ru_utime), systemSeconds: time(usage.ru_stime))
    }
}

/// `sentiment classify` as a child process on a dump, timed end to end.
struct ClassifyProcess {
    /// The built `sentiment` binary.
    var executable: String
    /// The model directory given with `--model`.
    var model: String

    /// `explicit` (`--sentiment`) once checked to be a program, or else the
    /// `sentiment` beside the running Bench binary (both products of one build).
    static func locate(_ explicit: String?) throws -> String {
        if let explicit { return try requireExecutable(explicit, option: "--sentiment") }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("sentiment").path
        var candidates: [String] = [beside]
        if let executable = Bundle.main.executableURL {
            candidates.insert(executable.deletingLastPathComponent().appendingPathComponent("sentiment").path, at: 0)
        }
        for path in candidates where FileManager.default.isExecutableFile(atPath: path) { return path }
        throw BenchError("no sentiment binary beside Bench (build both: make bench, or swift build -c release --static-swift-stdlib --product sentiment, then --product Bench), or pass --sentiment PATH")
    }

    /// The arguments for `threads` workers; `pinned` runs it under `taskset -c 0`.
    func arguments(threads: Int, pinned: Bool) -> [String] {
        (pinned ? ["taskset", "-c", "0"] : []) + [executable, "classify", "--threads", "\(threads)", "--model", model]
    }

    /// Classifies `input`, a dump of `tweets` lines, with stdout to /dev/null;
    /// the summary line from stderr is kept.
    ///
    /// - Throws: `BenchError` when the run did not classify every line (an
    ///   error record, exit status 65), failed, or its summary counts other
    ///   than `tweets` records (or is missing): its rate would not be the dump's.
    func run(input: URL, tweets: Int, threads: Int, pinned: Bool) throws -> (ChildRun, summary: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("bench-classify-\(getpid()).log").path
        let (run, summary) = try Interruption.removing(log) {
            let run = try ChildProcess.runMeasuringRSS(arguments(threads: threads, pinned: pinned), stdin: input.path, stderr: log)
            return (run, (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").last.map(String.init) ?? "")
        }
        // 65 is a run that answered some lines with error records: timing it
        // would count them as tweets classified.
        guard run.status != 65 || !summary.hasPrefix("classified ") else {
            throw BenchError("sentiment classify answered some of the dump's lines with error records (\(summary)), "
                + "which its rate would count as tweets classified; a line of --input whose first visible character "
                + "is \"{\" is read as JSON, not as a tweet's text")
        }
        guard run.status == 0 else {
            throw BenchError("sentiment classify exited with \(run.status): \(summary)")
        }
        guard let records = Self.records(summary) else {
            throw BenchError("\(executable) classify said nothing of the dump's \(tweets) tweets: no summary line "
                + "('classified N records …') on its standard error (its last line: \"\(summary)\")")
        }
        guard records == tweets else {
            throw BenchError("sentiment classify classified \(records) records of the dump's \(tweets) tweets (\(summary)): "
                + "a run that did not classify the whole dump is not timed")
        }
        return (run, summary)
    }

    /// N of a summary line "classified N records (…) in …", nil for any other line.
    static func records(_ summary: String) -> Int? {
        let words = summary.split(separator: " ", maxSplits: 3)
        guard words.count == 4, words[0] == "classified", words[2] == "records" || words[2] == "record" else { return nil }
        return Int(words[1])
    }
}
