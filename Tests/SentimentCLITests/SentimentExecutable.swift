import Foundation
import TestSupport
import Testing

/// Runs the built `sentiment` executable, the way a user would.
///
/// The executable is found beside the test bundle (SwiftPM puts both in the
/// same products folder, e.g. `.build/debug/`), or at `$SENTIMENT_EXECUTABLE`.
/// It runs in the package root, so `loadDefault()` finds `Models/default`.
enum SentimentExecutable {
    /// What one run produced.
    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String

        var output: String { String(decoding: stdout, as: UTF8.self) }

        /// The non-empty lines of standard output.
        var outputLines: [String] {
            output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }

        /// Standard output parsed as JSON Lines.
        func records(sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
            try outputLines.map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
                return try #require(object as? [String: Any], "not a JSON object: \(line)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The package root (this file is Tests/SentimentCLITests/SentimentExecutable.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fixtures folder.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// The `sentiment` executable of this build.
    static let url: URL? = {
        let fileManager = FileManager.default
        if let named = ProcessInfo.processInfo.environment["SENTIMENT_EXECUTABLE"], !named.isEmpty {
            return URL(fileURLWithPath: named)
        }
        var starts = [Bundle.main.bundleURL]
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles { starts.append(bundle.bundleURL) }
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("sentiment")
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   fileManager.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }()

    /// Runs `sentiment arguments…` with `input` on standard input (empty when nil).
    /// Output goes through temporary files, so any size is fine.
    /// `environment` entries are added to (or, with nil, removed from) this process's environment.
    /// `executable` runs another program of the build instead (`Bench`).
    ///
    /// Asynchronous, so the test runner's thread is free while the process runs.
    /// With a `timeLimit`, a process still running after it is killed (a hang
    /// guard for commands expected to exit, such as `serve` refusing to start;
    /// never a measure of speed): the run then fails the test, status SIGKILL's.
    static func run(executable: URL? = nil, _ arguments: [String], input: Data? = nil, environment: [String: String?] = [:],
                    timeLimit: Duration? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws -> Run {
        // The slot is taken before the files are opened: tests waiting for
        // one held three descriptors each, hundreds at once (see `TaskSlots`).
        try await slots.holding {
            try await runHoldingSlot(executable: executable, arguments, input: input, environment: environment,
                                     timeLimit: timeLimit, sourceLocation: sourceLocation)
        }
    }

    private static func runHoldingSlot(executable: URL?, _ arguments: [String], input: Data?, environment: [String: String?],
                                       timeLimit: Duration?, sourceLocation: SourceLocation) async throws -> Run {
        let process = try process(arguments, sourceLocation: sourceLocation)
        if let executable { process.executableURL = executable }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("sentiment-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("stdin")
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try (input ?? Data()).write(to: inURL)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)

        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        let stdin = try FileHandle(forReadingFrom: inURL)
        let stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let killed = await exit(of: process, timeLimit: timeLimit)
        if killed {
            Issue.record("sentiment \(arguments.joined(separator: " ")) was still running after \(timeLimit!) and was killed",
                         sourceLocation: sourceLocation)
        }
        try stdin.close()
        try stdout.close()
        try stderr.close()
        return Run(
            status: process.terminationStatus,
            stdout: try Data(contentsOf: outURL),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Runs `process` (made by ``process(_:sourceLocation:)``, its standard
    /// input set by the caller) with its output and errors caught in files.
    static func run(prepared process: Process) async throws -> Run {
        let folder = try TemporaryFolder("sentiment-prepared-run")
        let output = folder.appendingPathComponent("stdout"), errors = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        await exit(of: process)
        return Run(status: process.terminationStatus, stdout: try Data(contentsOf: output),
                   stderr: try String(contentsOf: errors, encoding: .utf8))
    }

    /// A `sentiment arguments…` process, not yet started, run from the package root.
    static func process(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Process {
        let process = Process()
        let executable: URL = try #require(url, "the sentiment executable was not built beside the tests", sourceLocation: sourceLocation)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        return process
    }

    /// Runs `sentiment arguments…` with `input` as UTF-8 on standard input.
    static func run(_ arguments: [String], input: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Run {
        try await run(arguments, input: Data(input.utf8), sourceLocation: sourceLocation)
    }

    /// How many processes `run` lets run at once: twice the cores. Unbounded,
    /// the suite had up to 14 at once on 2 cores, each loading the model, and
    /// a slower machine could have starved the tests that wait on a loopback
    /// server against a deadline.
    static let slots = TaskSlots(limit: max(2, 2 * ProcessInfo.processInfo.activeProcessorCount))

    /// Waits until `process`, started, has exited.
    ///
    /// Without holding a thread: Swift Testing runs tests on a pool with a
    /// thread per core, and `waitUntilExit()` in two tests at once on a
    /// 2-core machine would leave no thread for the asynchronous tests (the
    /// HTTP servers on loopback) until both processes had ended.
    ///
    /// With a `timeLimit`, kills the process (SIGKILL) once it has run that
    /// long, and returns true if it did.
    @discardableResult
    static func exit(of process: Process, timeLimit: Duration? = nil) async -> Bool {
        let deadline = timeLimit.map { ContinuousClock.now + $0 }
        var killed = false
        while process.isRunning {
            if let deadline, !killed, ContinuousClock.now >= deadline {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        process.waitUntilExit()  // returns at once now; makes the termination status final
        return killed
    }
}
