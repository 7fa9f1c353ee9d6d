import Foundation

/// The input of the classify workers: fills one batch at a time with the
/// next lines, numbered in input order. Thread-safe.
final class BatchSource: @unchecked Sendable {
    private let lock = NSLock()
    private let reader: LineReader
    private var sequence = 0
    private var done = false
    private var readFailure: LineReader.Failure?

    init(reader: LineReader) {
        self.reader = reader
    }

    /// The input that could not be opened or read, once met.
    var failure: LineReader.Failure? { lock.withLock { readFailure } }

    /// The inputs read so far that are one line holding a `\r` alone (`LineReader`).
    var carriageReturnLines: [(input: LineReader.Input, line: Int)] { lock.withLock { reader.carriageReturnLines } }

    /// Fills `batch` with the next lines and gives it the next sequence
    /// number; false at the end of the inputs or after a failure to read
    /// (then for every later call too).
    func fill(_ batch: Batch) -> Bool {
        lock.withLock {
            guard !done else { return false }
            do throws(LineReader.Failure) {
                if try reader.fill(batch) {
                    batch.sequence = sequence
                    sequence += 1
                    return true
                }
            } catch {
                readFailure = error
            }
            done = true
            return false
        }
    }
}
