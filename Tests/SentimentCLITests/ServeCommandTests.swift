import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `sentiment serve` as a real process, stopped the way a service manager
/// stops it: with SIGTERM.
@Suite("sentiment serve as a process")
struct ServeCommandTests {
    /// Waits until `file` holds a line containing `marker`, and returns that line.
    private func line(containing marker: String, in file: URL, timeout: Duration) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
            if let found = text.split(separator: "\n").first(where: { $0.contains(marker) }) { return String(found) }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test("SIGTERM stops the server with exit status 0, and its database opens again")
    func sigtermStopsGracefully() async throws {
        let executable = try #require(SentimentExecutable.url, "the sentiment executable was not built beside the tests")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sentiment-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let db = scratch.appendingPathComponent("serve.sqlite").path
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stderr = try FileHandle(forWritingTo: errURL)
        defer { try? stderr.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--profile", "dev", "--port", "0", "--db", db, "--offline"]
        process.currentDirectoryURL = SentimentExecutable.packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let listening = try #require(try await line(containing: "[SentimentServer] listening", in: errURL, timeout: .seconds(60)),
                                     "the server never said it was listening")
        let address = try #require(listening.split(separator: " ").first { $0.hasPrefix("address=") }?.dropFirst("address=".count))
        let (body, response) = try await URLSession.shared.data(from: try #require(URL(string: "\(address)/healthz")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("\"status\""))

        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning, "the server was still running 30 s after SIGTERM")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(try await line(containing: "sl-signal=SIGTERM", in: errURL, timeout: .seconds(1)) != nil)

        // The store the server closed opens again and answers.
        let history = try SentimentExecutable.run(["history", "--db", db])
        #expect(history.status == 0, "\(history.stderr)")
    }
}
