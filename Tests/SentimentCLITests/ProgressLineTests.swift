import Foundation
import Testing

/// The progress line of `classify`, which is for a terminal that shows standard error alone.
@Suite("classify's progress line", .serialized)
struct ProgressLineTests {
    /// A pseudo-terminal: `terminal` is the side a program writes to, `screen` what it shows.
    private final class PseudoTerminal {
        let screen: Int32
        let terminal: FileHandle

        init() throws {
            // Glibc declares these only for X/Open, which Swift's Glibc module is not
            // compiled for: they are looked up in the C library instead.
            typealias Call = @convention(c) (Int32) -> Int32
            // ptsname_r, not ptsname, whose one static buffer two tests at once would share:
            // both opened the same terminal.
            typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
            let library = dlopen(nil, RTLD_NOW)
            func find<F>(_ name: String, as type: F.Type) throws -> F {
                unsafeBitCast(try #require(dlsym(library, name), "no \(name) in the C library"), to: type)
            }
            let (openMaster, grant, unlock, name) = (try find("posix_openpt", as: Call.self), try find("grantpt", as: Call.self),
                                                     try find("unlockpt", as: Call.self), try find("ptsname_r", as: Name.self))
            screen = openMaster(O_RDWR | O_NOCTTY)
            try #require(screen >= 0 && grant(screen) == 0 && unlock(screen) == 0)
            var path = [CChar](repeating: 0, count: 128)
            try #require(name(screen, &path, path.count) == 0)
            let side = open(path, O_RDWR | O_NOCTTY)
            try #require(side >= 0)
            terminal = FileHandle(fileDescriptor: side, closeOnDealloc: true)
        }

        deinit { close(screen) }

        private var bytes: [UInt8] = []

        /// What the screen received so far.
        func shown() -> String {
            var chunk = [UInt8](repeating: 0, count: 4096)
            var ready = pollfd(fd: screen, events: Int16(POLLIN), revents: 0)
            while poll(&ready, 1, 0) > 0, ready.revents & Int16(POLLIN) != 0 {
                let count = chunk.withUnsafeMutableBytes { read(screen, $0.baseAddress!, $0.count) }
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Runs `classify` on three lines, each sent once the one before it has come
    /// out (`written` counts the records out so far) and 0.4 s have passed (the
    /// line is drawn at most every quarter second), standard error on a
    /// terminal and standard output on `output`.
    private func classifySlowly(output: Any, errors: FileHandle, written: () throws -> Int) async throws -> Process {
        let process = try SentimentExecutable.process(["classify"])
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        for (count, line) in ["what a lovely day\n", "worst day ever :(\n", "the bus comes at nine\n"].enumerated() {
            try input.fileHandleForWriting.write(contentsOf: Data(line.utf8))
            let deadline = Date().addingTimeInterval(60)
            while try written() <= count, Date() < deadline, process.isRunning {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(400))
        }
        try input.fileHandleForWriting.close()
        await SentimentExecutable.exit(of: process)
        return process
    }

    @Test("Records going to the same terminal as standard error get no progress line cut into them")
    func noProgressWhenRecordsGoToTheTerminal() async throws {
        let pty = try PseudoTerminal()
        let process = try await classifySlowly(output: pty.terminal, errors: pty.terminal) {
            pty.shown().components(separatedBy: "{\"line\":").count - 1
        }
        let shown = pty.shown()
        #expect(process.terminationStatus == 0, "\(shown)")
        #expect(shown.components(separatedBy: "{\"line\":").count - 1 == 3, "\(shown)")
        #expect(!shown.contains("classifying:"), "\(shown)")
        #expect(shown.contains("classified 3 records"), "\(shown)")
    }

    @Test("Records going to a file leave the progress line on the terminal")
    func progressWhenRecordsGoElsewhere() async throws {
        let pty = try PseudoTerminal()
        let folder = try TemporaryFolder("progress")
        let records = folder.appendingPathComponent("records.jsonl")
        _ = FileManager.default.createFile(atPath: records.path, contents: nil)
        let process = try await classifySlowly(output: try FileHandle(forWritingTo: records), errors: pty.terminal) {
            try String(contentsOf: records, encoding: .utf8).components(separatedBy: "\n").count - 1
        }
        let shown = pty.shown()
        #expect(process.terminationStatus == 0, "\(shown)")
        #expect(shown.contains("\r\u{1B}[Kclassifying: "), "\(shown)")
        #expect(try String(contentsOf: records, encoding: .utf8).components(separatedBy: "\n").count == 4)
    }
}
