import Foundation
import Testing

/// `sentiment` started with standard input or output closed (`<&-`, `>&-`), as
/// a shell script or a supervisor may start it: the closed stream is reported
/// by name with its exit status, and nothing else is read or written in its place.
@Suite("Closed standard streams")
struct ClosedStandardStreamTests {
    /// Runs `sentiment arguments…` through `/bin/sh` with `redirection` applied
    /// (e.g. `<&-`); standard output and error not closed by it go to pipes.
    private func run(_ arguments: [String], redirection: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        let executable = try #require(SentimentExecutable.url, "the sentiment executable was not built beside the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirection)", executable.path] + arguments
        process.currentDirectoryURL = SentimentExecutable.packageRoot
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes hold little here (less than a pipe's buffer); read them after the exit.
        await SentimentExecutable.exit(of: process)
        return (process.terminationStatus,
                String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test("A closed standard input is reported as closed, with exit 66")
    func closedInput() async throws {
        let result = try await run(["classify"], redirection: "<&-")
        #expect(result.status == 66)
        #expect(result.stderr.contains("sentiment: cannot read standard input: closed"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("A closed standard input does not matter when the input is a file")
    func closedInputWithFile() async throws {
        let result = try await run(["classify", SentimentExecutable.fixture("plain.txt")], redirection: "<&-")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 6)
    }

    @Test("A closed standard output stops each command that writes results there, with exit 74", arguments: [
        ["classify", "Tests/SentimentCLITests/Fixtures/plain.txt"],
        ["explain", "what a lovely day"],
        ["eval", "Tests/SentimentCLITests/Fixtures/labelled.tsv"],
    ])
    func closedOutput(arguments: [String]) async throws {
        let result = try await run(arguments, redirection: ">&-")
        #expect(result.status == 74)
        #expect(result.stderr == "sentiment: cannot write the output: standard output is closed\n")
    }

    @Test("A full disk stops eval and explain with exit 74, saying why", arguments: [
        ["explain", "what a lovely day"],
        ["eval", "Tests/SentimentCLITests/Fixtures/labelled.tsv"],
        ["eval", "--json", "Tests/SentimentCLITests/Fixtures/labelled.tsv"],
    ])
    func fullDisk(arguments: [String]) async throws {
        let result = try await run(arguments, redirection: "> /dev/full")
        #expect(result.status == 74)
        #expect(result.stderr == "sentiment: cannot write the output: No space left on device\n")
    }

    @Test("A full disk stops tweets and history with exit 74, saying why, instead of crashing")
    func fullDiskTimeline() async throws {
        let folder = try TemporaryFolder("full-disk-timeline")
        let db = folder.appendingPathComponent("tweets.sqlite").path
        let archive = ["--archive", "Examples/archive/sunnydays", "--db", db]
        let shown = try await run(["tweets", "sunnydays"] + archive, redirection: "")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("@sunnydays"))
        for arguments in [["tweets", "sunnydays"] + archive, ["tweets", "sunnydays", "--format", "jsonl"] + archive,
                          ["history", "--db", db]] {
            let result = try await run(arguments, redirection: "> /dev/full")
            #expect(result.status == 74, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "sentiment: cannot write the output: No space left on device\n", "\(arguments)")
        }
    }
}
