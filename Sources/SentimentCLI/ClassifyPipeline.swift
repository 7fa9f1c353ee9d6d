import Foundation
import Sentiment

/// The classification pipeline: `threads` workers that each read a batch of
/// lines, classify it and write it, in input order, from a pool of recycled
/// batches.
///
///     worker 1…N:  free batch ─▶ fill (BatchSource, one at a time)
///                             ─▶ classify and format (own BatchProcessor)
///                             ─▶ hand in (OrderedOutput) ─▶ fd 1 ─▶ free batch
///
/// - `BatchSource` cuts the input into numbered batches of whole lines
///   (`LineReader`), for one worker at a time.
/// - Each worker has its own `BatchProcessor` (model workspace and buffers):
///   it extracts, classifies and formats a whole batch. The workspaces share
///   one token cache (`TokenTable`).
/// - `OrderedOutput` writes batches in input order, each with one `write(2)`:
///   the worker that hands in the batch next in line writes it, and every one
///   after it that is already waiting, while the other workers go on.
///
/// Memory is flat: only `2 × threads` batches exist, so a worker waits for a
/// free one when the writing falls behind.
///
/// The calling thread is the first worker. There was a reader thread and a
/// writer thread beside the workers once: on one core the three only took
/// turns (one worker on its own ran +3–4% faster on the plain 1M dump, +6%
/// on JSON Lines), and on both cores the workers serving themselves ran
/// 1–3% faster, with some 40 context switches in a run instead of 2,600.
/// With one worker and a second core free, the reader and writer threads
/// had overlapped the I/O with the work: that case lost about 2%.
///
/// A run can be stopped from another thread (a signal's, `classify`'s
/// Ctrl-C) with ``interrupt()``: the output ends at a batch's end, so every
/// record written is whole. So can one that is yet to start: it then writes
/// nothing.
final class ClassifyPipeline: @unchecked Sendable {
    struct Configuration {
        var threads: Int
        var format: OutputFormat
        var maxLineLength = ClassifyPipeline.longestLine
        var blockSize = 1 << 18
        var batchLines = 2048
        /// Show a progress line on standard error.
        var showsProgress = false
    }

    /// How a run went.
    struct Outcome {
        /// The records written in full (of a failed write's batch, those before
        /// the failure; nothing after it).
        var tally: Tally
        var seconds: Double
        /// An input that could not be opened or read (the output stops there).
        var inputFailure: LineReader.Failure?
        /// `errno` of a failed write to standard output (EPIPE: the reader left).
        var writeError: Int32?
        /// The inputs that are one line holding a `\r` alone, and its number (`LineReader`).
        var carriageReturnLines: [(input: LineReader.Input, line: Int)] = []
    }

    /// What ``interrupt()`` found written.
    struct Interrupted {
        /// The records written, all of them whole.
        var tally: Tally
        var seconds: Double
        /// The number of the last input line whose records were written (0: none
        /// was), when no write failed.
        var lastLine: Int
        /// `errno` of a failed write to standard output, when one failed first.
        var writeError: Int32?
    }

    /// The longest line `classify` takes, in bytes (1 MiB): a longer one is
    /// an error record. `explain` and `eval` take no longer a text.
    static let longestLine = 1 << 20

    let model: SentimentModel
    let configuration: Configuration
    /// Where the pipeline is, for ``interrupt()``.
    private enum State {
        /// No run has started.
        case ready
        /// A run is under way: its output, and when it started.
        case running(output: OrderedOutput, start: Double)
        /// ``interrupt()`` came before ``run(inputs:outputFD:)``, which then writes nothing.
        case interruptedBeforeStart
        /// A run is over (its own outcome was returned).
        case over
    }
    /// Under `lock`.
    private let lock = NSLock()
    private var state = State.ready

    init(model: SentimentModel, configuration: Configuration) {
        precondition(configuration.threads > 0)
        self.model = model
        self.configuration = configuration
    }

    /// The size of the token cache the workers share: a table of 2^18
    /// (12 MiB, 196,608 entries), whatever the thread count. It has the
    /// memory the 16-bit weights freed (Docs/performance.md: one core ran
    /// 1–3% faster with it than with 2^17, as 2^17 had run ≈7% faster than
    /// 2^16, and two workers sharing one table faster than two with half each).
    static let tokenTableBits = 18

    /// Classifies every line of `inputs` and writes the records to `outputFD`.
    ///
    /// - Returns: how the run went; nil when ``interrupt()`` stopped it
    ///   (the interrupting thread has what was written), or came before it,
    ///   which then wrote nothing, not even a header.
    func run(inputs: [LineReader.Input], outputFD: Int32 = STDOUT_FILENO) -> Outcome? {
        let configuration = self.configuration
        let model = self.model
        let start = monotonicSeconds()
        let source = BatchSource(reader: LineReader(
            inputs: inputs, maxLineLength: configuration.maxLineLength,
            blockSize: configuration.blockSize, maxLines: configuration.batchLines))

        let free = BlockingQueue<Batch>()
        let inputCapacity = max(configuration.blockSize, configuration.maxLineLength + 2) + configuration.blockSize + 4096
        for _ in 0..<(2 * configuration.threads) {
            free.push(Batch(inputCapacity: inputCapacity, lineCapacity: configuration.batchLines))
        }
        let writer = RecordWriter(format: configuration.format)
        let output = OrderedOutput(fd: outputFD, free: free, progressSince: configuration.showsProgress ? start : nil)
        let starts = lock.withLock {
            if case .interruptedBeforeStart = state { return false }
            state = .running(output: output, start: start)
            return true
        }
        guard starts else { return nil }
        let header = ByteBuffer(capacity: 128)
        writer.writeHeader(into: header)
        output.writeHeader(header.bytes)
        let table = model.makeTokenTable(bits: Self.tokenTableBits)

        let work: @Sendable () -> Void = {
            let processor = BatchProcessor(
                model: model, writer: writer, maxLineLength: configuration.maxLineLength, table: table)
            while true {
                let batch = free.pop()
                guard !output.isStopped, source.fill(batch) else {
                    free.push(batch)
                    return
                }
                processor.process(batch)
                output.hand(in: batch)
            }
        }
        let others = DispatchGroup()
        for index in 1..<configuration.threads {
            others.enter()
            let thread = Thread {
                work()
                others.leave()
            }
            thread.name = "classify-\(index + 1)"
            thread.start()
        }
        work()
        others.wait()
        // Interrupted: the interrupting thread says what was written.
        guard output.finish() else { return nil }
        lock.withLock { state = .over }

        return Outcome(
            tally: output.tally, seconds: monotonicSeconds() - start,
            inputFailure: source.failure, writeError: output.writeError, carriageReturnLines: source.carriageReturnLines)
    }

    /// Stops the run under way, from another thread: the batch being written
    /// is written whole, and nothing after it (the workers stop at their next
    /// batch; one waiting for input may wait on, so the caller ends the
    /// process). ``run(inputs:outputFD:)`` then returns nil, once its workers
    /// have stopped. Before a run starts, it stops the run to come: that one
    /// writes nothing and returns nil at once.
    ///
    /// - Returns: what was written (nothing, before the run); nil when the
    ///   run is over (its own outcome is then returned).
    func interrupt() -> Interrupted? {
        let current: State = lock.withLock {
            if case .ready = state { state = .interruptedBeforeStart }
            return state
        }
        switch current {
        case .ready, .interruptedBeforeStart:
            return Interrupted(tally: Tally(), seconds: 0, lastLine: 0, writeError: nil)
        case .running(let output, let start):
            guard let written = output.interrupt() else { return nil }
            return Interrupted(tally: written.tally, seconds: monotonicSeconds() - start, lastLine: written.lastLine,
                               writeError: written.writeError)
        case .over:
            return nil
        }
    }
}
