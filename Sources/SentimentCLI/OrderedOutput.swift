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
/// workers to stop reading.
final class OrderedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let fd: Int32
    private let free: BlockingQueue<Batch>
    /// When the run started, for the progress line; nil: no progress line.
    private let progressStart: Double?
    private var lastProgress = 0.0
    private var waiting: [Int: Batch] = [:]
    private var next = 0
    private var writing = false
    private var written = Tally()
    private var failure: Int32 = 0

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

    /// A write failed: the workers should stop.
    var isStopped: Bool { lock.withLock { failure != 0 } }

    /// Writes what goes before the records (TSV and CSV's header line).
    func writeHeader(_ bytes: UnsafeRawBufferPointer) {
        lock.withLock {
            if failure == 0 { failure = writeAll(fd, bytes) }
        }
    }

    /// Takes a classified batch; writes it now if it is next in line.
    func hand(in batch: Batch) {
        lock.lock()
        waiting[batch.sequence] = batch
        guard !writing else {
            lock.unlock()
            return
        }
        writing = true
        while let ready = waiting.removeValue(forKey: next) {
            next += 1
            let failed = failure != 0
            lock.unlock()
            var sent = 0
            let result = failed ? 0 : writeAll(fd, ready.output.bytes, sent: &sent)
            // A write that failed part way delivered the records before it.
            let records = ready.tally(ofFirst: sent)
            free.push(ready)
            lock.lock()
            if !failed {
                written += records
                if result != 0 { failure = result }
            }
            showProgress()
        }
        writing = false
        lock.unlock()
    }

    /// Clears the progress line, at the end of the run.
    func finish() {
        if progressStart != nil { writeToStandardError("\r\u{1B}[K") }
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
