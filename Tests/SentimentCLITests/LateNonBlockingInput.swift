import Foundation
import Testing

extension SentimentExecutable {
    /// Runs `sentiment arguments…` reading a pipe set non-blocking (as some
    /// parent processes leave standard input), `input` written to it only
    /// after `delay`, once the command has started reading and found it empty,
    /// and `more`, when given, after as long again (the pipe empty in between).
    static func runWithLateNonBlockingInput(_ arguments: [String], input: Data,
                                            after delay: Duration = .seconds(1), more: Data? = nil) async throws -> Run {
        let process = try process(arguments)
        let pipe = Pipe()
        let readEnd = pipe.fileHandleForReading.fileDescriptor
        try #require(fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK) == 0)
        process.standardInput = pipe
        let writer = Task {
            try await Task.sleep(for: delay)
            signal(SIGPIPE, SIG_IGN)  // if the command has already left, the write fails with EPIPE and its status says why
            try? pipe.fileHandleForWriting.write(contentsOf: input)
            if let more {
                try await Task.sleep(for: delay)
                try? pipe.fileHandleForWriting.write(contentsOf: more)
            }
            try pipe.fileHandleForWriting.close()
        }
        let run = try await run(prepared: process)
        try await writer.value
        return run
    }
}
