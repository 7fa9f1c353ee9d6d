import Foundation
import Testing

/// `writeAll` on a pipe that another process left non-blocking.
@Suite("Writing all of a buffer")
struct WriteAllTests {
    @Test("A write to a full non-blocking pipe waits for the reader instead of failing with EAGAIN")
    func nonBlockingPipeWaitsForRoom() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        try #require(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)

        // 1 MiB, sixteen times a pipe's buffer, read only after a pause.
        let sent = [UInt8]((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let received = Received()
        let reader = Thread {
            Thread.sleep(forTimeInterval: 0.2)
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress!, $0.count) }
                if count <= 0 { break }
                received.append(chunk[..<count])
            }
            received.finish()
        }
        reader.start()

        let failure = sent.withUnsafeBytes { writeAll(writeEnd, $0) }
        close(writeEnd)
        received.waitUntilFinished()
        #expect(failure == 0)
        // Compared outside the macro: a failed == on two 1 MiB arrays has Swift Testing diff them for minutes.
        let bytes = received.bytes
        let same = bytes == sent
        #expect(same, "read \(bytes.count) bytes of the \(sent.count) written, or other bytes")
    }

    @Test("A write to a non-blocking pipe whose reader went away fails with EPIPE")
    func nonBlockingPipeWithoutReaderFails() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        try #require(fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) == 0)
        defer { close(ends[1]) }
        // Ignored for the rest of the test process, never restored: tests run
        // side by side, and NIO ignores SIGPIPE once, process-wide, for its
        // sockets; putting back the default raced that (and the other test that
        // writes to a closed pipe), and a server test's write to a closed
        // connection then killed the whole test process with signal 13.
        signal(SIGPIPE, SIG_IGN)
        // The pipe fills, then its reader goes away without reading: the wait must end.
        let bytes = [UInt8](repeating: 7, count: 1 << 20)
        let readEnd = ends[0]
        let left = DispatchSemaphore(value: 0)
        let leaver = Thread {
            Thread.sleep(forTimeInterval: 0.2)
            close(readEnd)
            left.signal()
        }
        leaver.start()
        let failure = bytes.withUnsafeBytes { writeAll(ends[1], $0) }
        left.wait()  // no descriptor is closed after the test has ended and its number is another's
        #expect(failure == EPIPE)
    }
}

/// Bytes a reader thread collects, and a signal when it is done.
private final class Received: @unchecked Sendable {
    private let lock = NSCondition()
    private var collected: [UInt8] = []
    private var done = false

    func append(_ chunk: ArraySlice<UInt8>) {
        lock.lock(); collected += chunk; lock.unlock()
    }

    func finish() {
        lock.lock(); done = true; lock.signal(); lock.unlock()
    }

    func waitUntilFinished() {
        lock.lock()
        while !done { lock.wait() }
        lock.unlock()
    }

    var bytes: [UInt8] {
        lock.lock(); defer { lock.unlock() }
        return collected
    }
}
