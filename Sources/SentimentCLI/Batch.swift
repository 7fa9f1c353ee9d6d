/// A run of input lines and, once a worker has been through it, their output:
/// the unit that travels reader → worker → writer. Batches are recycled
/// through a fixed pool, which bounds the memory of the whole pipeline.
///
/// `@unchecked Sendable`: a batch belongs to one thread at a time, handed over
/// through the pipeline's locked queues.
final class Batch: @unchecked Sendable {
    /// The position of the batch in the input, from 0: the writer's order.
    var sequence = 0
    /// The bytes the lines point into.
    let input: ByteBuffer
    /// The lines, in input order.
    var lines: [Line] = []
    /// The formatted records of every line.
    let output: ByteBuffer
    /// What each output record was, in order.
    var outcomes: [RecordOutcome] = []
    /// Where each output record ends in `output`, in order.
    var recordEnds: [Int] = []

    /// One line of a batch.
    struct Line {
        /// Offset in `input` of the first byte.
        var start: Int
        /// Length without the `\n` and a trailing `\r`; for a `tooLong` line,
        /// the length of the prefix that was kept.
        var count: Int
        /// The line number, from 1, counted across all inputs.
        var number: Int
        /// The line exceeded the length limit; only its first bytes were kept.
        var tooLong: Bool
    }

    init(inputCapacity: Int, lineCapacity: Int) {
        input = ByteBuffer(capacity: inputCapacity)
        output = ByteBuffer(capacity: inputCapacity / 2)
        lines.reserveCapacity(lineCapacity)
    }

    /// The tally of the records whose output lies entirely within the first
    /// `bytes` bytes of `output`: all of them for `output.count`, and what a
    /// write that stopped part way delivered for less.
    func tally(ofFirst bytes: Int) -> Tally {
        var tally = Tally()
        for (end, outcome) in zip(recordEnds, outcomes) {
            guard end <= bytes else { break }
            tally.count(outcome)
        }
        return tally
    }

    /// The bytes of `line`. Valid while the batch is not refilled.
    @inline(__always)
    func bytes(of line: Line) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: input.base + line.start, count: line.count)
    }
}
