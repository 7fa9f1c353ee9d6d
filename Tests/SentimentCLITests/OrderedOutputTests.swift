import Foundation
import Testing

/// Batches handed in out of order, from several threads at once, come out in
/// sequence; a failed write stops the writing and the count, and every
/// batch goes back to the free pool either way.
@Suite("Ordered output")
struct OrderedOutputTests {
    /// `count` batches whose output is "<sequence>\n", one record each.
    private func batches(_ count: Int) -> [Batch] {
        (0..<count).map { k in
            let batch = Batch(inputCapacity: 16, lineCapacity: 1)
            batch.sequence = k
            batch.output.append(String(k) + "\n")
            batch.outcomes = [.neutral]
            batch.recordEnds = [batch.output.count]
            return batch
        }
    }

    /// Hands `batches` in, shuffled, from four threads at once.
    private func handIn(_ batches: [Batch], to output: OrderedOutput) {
        let shuffled = batches.shuffled()
        DispatchQueue.concurrentPerform(iterations: 4) { part in
            for batch in shuffled[(part * shuffled.count / 4)..<((part + 1) * shuffled.count / 4)] {
                output.hand(in: batch)
            }
        }
    }

    /// A new file in a temporary folder, open for writing; both go with it.
    private final class OutputFile {
        let folder: TemporaryFolder
        let fd: Int32

        init() throws {
            folder = try TemporaryFolder("ordered")
            fd = open(folder.appendingPathComponent("out.txt").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            try #require(fd >= 0)
        }

        deinit { close(fd) }

        /// What was written so far.
        func text() throws -> String {
            String(decoding: try Data(contentsOf: folder.appendingPathComponent("out.txt")), as: UTF8.self)
        }
    }

    @Test("Batches handed in out of order by four threads are written in sequence")
    func writesInSequence() throws {
        let file = try OutputFile()
        let free = BlockingQueue<Batch>()
        let output = OrderedOutput(fd: file.fd, free: free, progressSince: nil)
        Array("head\n".utf8).withUnsafeBytes { output.writeHeader($0) }
        let all = batches(2_000)
        handIn(all, to: output)
        let expected = "head\n" + (0..<2_000).map { "\($0)\n" }.joined()
        #expect(try file.text() == expected)
        #expect(output.tally.records == 2_000)
        #expect(output.writeError == nil && !output.isStopped)
        let returned = Set((0..<2_000).map { _ in ObjectIdentifier(free.pop()) })
        #expect(returned == Set(all.map(ObjectIdentifier.init)))
    }

    @Test("A batch that waits for an earlier one is not written before it")
    func waitsForTheGap() throws {
        let file = try OutputFile()
        let output = OrderedOutput(fd: file.fd, free: BlockingQueue<Batch>(), progressSince: nil)
        let all = batches(3)
        output.hand(in: all[2])
        output.hand(in: all[1])
        #expect(try file.text().isEmpty)
        #expect(output.tally.records == 0)
        output.hand(in: all[0])
        #expect(try file.text() == "0\n1\n2\n")
        #expect(output.tally.records == 3)
    }

    @Test("A write cut short counts the records of its batch that went out in full")
    func writeCutShort() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        // Ignored for the rest of the test process, never restored: tests run
        // side by side, and NIO ignores SIGPIPE once, process-wide, for its
        // sockets; putting back the default raced that (and the other test that
        // writes to a closed pipe), and a server test's write to a closed
        // connection then killed the whole test process with signal 13.
        signal(SIGPIPE, SIG_IGN)
        // The reader goes away without reading once the pipe is full: the write
        // that waits for room then fails with EPIPE, having sent a pipe's worth.
        // (Full, not after a while: on a loaded machine the writer may not have
        // written at all by then, and its first write would fail having sent nothing.)
        let readEnd = ends[0]
        let capacity = Int(fcntl(ends[1], 1032 /* F_GETPIPE_SZ */))
        try #require(capacity > 0 && capacity % 8 == 0)
        let left = DispatchSemaphore(value: 0)
        Thread {
            var waiting: Int32 = 0
            while ioctl(readEnd, UInt(FIONREAD), &waiting) == 0, Int(waiting) < capacity {
                Thread.sleep(forTimeInterval: 0.01)
            }
            close(readEnd)
            left.signal()
        }.start()
        let batch = Batch(inputCapacity: 16, lineCapacity: 1)
        let outcomes: [RecordOutcome] = [.positive, .neutral, .negative, .error]
        for k in 0..<(capacity / 8 + 100) {
            batch.output.append(String(format: "%07d\n", k))
            batch.outcomes.append(outcomes[k % 4])
            batch.recordEnds.append(batch.output.count)
        }
        let output = OrderedOutput(fd: ends[1], free: BlockingQueue<Batch>(), progressSince: nil)
        output.hand(in: batch)
        left.wait()  // no descriptor is closed after the test has ended and its number is another's
        #expect(output.writeError == EPIPE)
        let records = capacity / 8
        #expect(output.tally == Tally(records: records, positive: records / 4, neutral: records / 4,
                                      negative: records / 4, errors: records / 4))
    }

    @Test("After a failed write nothing more is written or counted, and the workers are told to stop")
    func failedWrite() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let free = BlockingQueue<Batch>()
        let output = OrderedOutput(fd: fd, free: free, progressSince: nil)
        let all = batches(50)
        handIn(all, to: output)
        #expect(output.writeError == ENOSPC)
        #expect(output.isStopped)
        #expect(output.tally.records == 0)
        let returned = Set((0..<50).map { _ in ObjectIdentifier(free.pop()) })
        #expect(returned.count == 50)
    }
}
