import Foundation

/// Writes the classify workers' batches to a file descriptor in input order
/// (by `Batch.sequence`), whatever order they are handed in, and returns
/// each written batch to the free pool. Thread-safe.
///
/// No thread waits for its turn: the worker that hands in the batch next in
/// line writes it, then every batch after it that is already waiting, outside
/// the lock; a batch handed in meanwhile is left for that worker to write.
/// After a failed write nothing more is written (or counted: of the batch
/// it cut, the records written in full are), and `isStopped` tells the
/// workers to stop reading. ``interrupt()`` (a signal) stops the writing at a
/// batch's end: the write under way is finished, and none is started after it.
final class OrderedOutput: @unchecked Sendable {
    /// What had been written when ``interrupt()`` stopped the output.
    struct Interrupted {
        /// The records written, all of them whole.
        var tally: Tally
        /// The number of the last input line whose records were written (0: none
        /// was), when no write failed.
        var lastLine: Int
        /// `errno` of a failed write, when one failed (the records counted are then
        /// those written whole before it, and `lastLine` is that of an earlier batch).
        var writeError: Int32?
    }

    /// A lock, and the condition ``interrupt()`` waits on for the write under way.
    private let lock = NSCondition()
    private let fd: Int32
    private let free: BlockingQueue<Batch>
    /// When the run started, for the progress line; nil: no progress line.
    private let progressStart: Double?
    private var lastProgress = 0.0
    private var waiting: [Int: Batch] = [:]
    private var next = 0
    private var writing = false
    private var written = Tally()
    /// The number of the last input line of the last batch written whole.
    private var lastLine = 0
    private var failure: Int32 = 0
    /// ``interrupt()`` was called: nothing more is written.
    private var interrupted = false
    /// ``finish()`` was called: the run is over, and ``interrupt()`` does nothing.
    private var finished = false

    /// Output to `fd`; written batches go back to `free`. With
    /// `progressSince` (the run's start), a progress line on standard error.
    init(fd: Int32, free: BlockingQueue<Batch>, progressSince start: Double?) {
        self.fd = fd
        self.free = free
        progressStart = start
        lastProgress = start ?? 0
    }

    /// The records written in full.
    var tally: Tally { lock.withLock { written } }

    /// `errno` of the failed write, if one failed.
    var writeError: Int32? { lock.withLock { failure == 0 ? nil : failure } }

    /// A write failed, or the output was interrupted: the workers should stop.
    var isStopped: Bool { lock.withLock { failure != 0 || interrupted } }

    /// Writes what goes before the records (TSV and CSV's header line).
    func writeHeader(_ bytes: UnsafeRawBufferPointer) {
        lock.withLock {
            if failure == 0 { failure = writeAll(fd, bytes) }
        }
    }

    /// Takes a classified batch; writes it now if it is next in line.
    func hand(in batch: Batch) {
        lock.lock()
        if interrupted {
            lock.unlock()
            free.push(batch)
            return
        }
        waiting[batch.sequence] = batch
        guard !writing else {
            lock.unlock()
            return
        }
        writing = true
        while !interrupted, let ready = waiting.removeValue(forKey: next) {
            next += 1
            let failed = failure != 0
            lock.unlock()
            var sent = 0
            let result = failed ? 0 : writeAll(fd, ready.output.bytes, sent: &sent)
            // A write that failed part way delivered the records before it.
            let records = ready.tally(ofFirst: sent)
            let readyLastLine = ready.lines.last?.number
            free.push(ready)
            lock.lock()
            if !failed {
                written += records
                if result != 0 { failure = result } else { lastLine = readyLastLine ?? lastLine }
            }
            showProgress()
        }
        writing = false
        lock.broadcast()
        lock.unlock()
    }

    /// Stops the output, for a signal: waits for the batch being written, if
    /// one is, to be written whole, and writes nothing after it (batches
    /// handed in later go back to the free pool unwritten). Clears the
    /// progress line.
    ///
    /// - Returns: what was written; nil when ``finish()`` came first (the run
    ///   is over, and its own summary is said).
    func interrupt() -> Interrupted? {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return nil }
        interrupted = true
        while writing { lock.wait() }
        if progressStart != nil { writeToStandardError("\r\u{1B}[K") }
        return Interrupted(tally: written, lastLine: lastLine, writeError: failure == 0 ? nil : failure)
    }

    /// Clears the progress line, at the end of the run.
    ///
    /// - Returns: false when ``interrupt()`` came first: the run's end is
    ///   then the interruption's to say.
    func finish() -> Bool {
        lock.withLock {
            guard !interrupted else { return false }
            finished = true
            if progressStart != nil { writeToStandardError("\r\u{1B}[K") }
            return true
        }
    }

    /// The progress line, at most every quarter second. Called with the lock held.
    private func showProgress() {
        guard let start = progressStart else { return }
        let now = monotonicSeconds()
        guard now - lastProgress >= 0.25 else { return }
        lastProgress = now
        writeToStandardError("\r\u{1B}[K" + Summary.progress(written, seconds: now - start))
    }
}
