import Foundation
import Sentiment

/// The classification pipeline: a reader, `threads` workers and an ordered
/// writer, connected by queues of recycled batches.
///
///     reader (calling thread)  ──work──▶  worker 1…N  ──reorder──▶  writer  ──▶ fd 1
///          ▲                                                          │
///          └──────────────────────── free batches ◀───────────────────┘
///
/// - The reader cuts the input into batches of whole lines (`LineReader`).
/// - Each worker has its own `BatchProcessor` (model workspace and buffers):
///   it extracts, classifies and formats a whole batch. The workspaces share
///   one token cache (`TokenTable`).
/// - The writer takes batches back in input order, writes each one's output
///   with one `write(2)`, adds up the tallies, updates the progress line, and
///   returns the batch to the free pool.
///
/// Memory is flat: only `2 × threads + 2` batches exist, so the reader waits
/// when the workers or the writer fall behind.
///
/// With one worker and `runsInline` (the command sets it when the process
/// has a single core), the calling thread reads, classifies and writes each
/// batch in turn, with one batch: the three threads could only take turns
/// on that core, and each batch's input and output are still in the cache
/// when they are used (one core: +3–4% on the plain 1M dump, +6% on JSON
/// Lines, in interleaved runs; with a second core free the threads won by
/// about 2%, so they stay for every other case).
final class ClassifyPipeline {
    struct Configuration {
        var threads: Int
        var format: OutputFormat
        var maxLineLength = 1 << 20
        var blockSize = 1 << 18
        var batchLines = 2048
        /// Show a progress line on standard error.
        var showsProgress = false
        /// Read, classify and write on the calling thread, one batch after
        /// another, instead of in a reader, a worker and a writer (one worker
        /// only).
        var runsInline = false
    }

    /// How a run went.
    struct Outcome {
        /// The records written (a failed write's batch and those after it are not counted).
        var tally: Tally
        var seconds: Double
        /// An input that could not be opened or read (the output stops there).
        var inputFailure: LineReader.Failure?
        /// `errno` of a failed write to standard output (EPIPE: the reader left).
        var writeError: Int32?
    }

    let model: SentimentModel
    let configuration: Configuration

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
    func run(inputs: [LineReader.Input], outputFD: Int32 = STDOUT_FILENO) -> Outcome {
        if configuration.runsInline, configuration.threads == 1 { return runInline(inputs: inputs, outputFD: outputFD) }
        let configuration = self.configuration
        let model = self.model
        let start = monotonicSeconds()
        let reader = LineReader(
            inputs: inputs, maxLineLength: configuration.maxLineLength,
            blockSize: configuration.blockSize, maxLines: configuration.batchLines)

        let free = BlockingQueue<Batch>()
        let work = BlockingQueue<Batch>()
        let ordered = ReorderBuffer()
        let inputCapacity = max(configuration.blockSize, configuration.maxLineLength + 2) + configuration.blockSize + 4096
        for _ in 0..<(2 * configuration.threads + 2) {
            free.push(Batch(inputCapacity: inputCapacity, lineCapacity: configuration.batchLines))
        }
        let writer = RecordWriter(format: configuration.format)
        let threads = DispatchGroup()
        let table = model.makeTokenTable(bits: Self.tokenTableBits)

        for index in 0..<configuration.threads {
            threads.enter()
            let thread = Thread {
                let processor = BatchProcessor(
                    model: model, writer: writer, maxLineLength: configuration.maxLineLength, table: table)
                while let batch = work.pop() {
                    processor.process(batch)
                    ordered.put(batch)
                }
                threads.leave()
            }
            thread.name = "classify-\(index + 1)"
            thread.start()
        }

        let result = WriterResult()
        threads.enter()
        let writerThread = Thread {
            var tally = Tally()
            var failure: Int32 = 0
            let header = ByteBuffer(capacity: 128)
            writer.writeHeader(into: header)
            failure = writeAll(outputFD, header.bytes)
            var lastProgress = monotonicSeconds()
            var sequence = 0
            while let batch = ordered.take(sequence) {
                sequence += 1
                if failure == 0 {
                    failure = writeAll(outputFD, batch.output.bytes)
                    if failure == 0 { tally += batch.tally } else { result.stop() }
                }
                free.push(batch)
                if configuration.showsProgress {
                    let now = monotonicSeconds()
                    if now - lastProgress >= 0.25 {
                        lastProgress = now
                        writeToStandardError("\r\u{1B}[K" + Summary.progress(tally, seconds: now - start))
                    }
                }
            }
            if configuration.showsProgress { writeToStandardError("\r\u{1B}[K") }
            result.finish(tally: tally, writeError: failure == 0 ? nil : failure)
            threads.leave()
        }
        writerThread.name = "classify-writer"
        writerThread.start()

        // The calling thread reads.
        var sequence = 0
        var inputFailure: LineReader.Failure?
        while !result.isStopped, let batch = free.pop() {
            do {
                guard try reader.fill(batch) else {
                    free.push(batch)
                    break
                }
            } catch {
                inputFailure = error
                free.push(batch)
                break
            }
            batch.sequence = sequence
            sequence += 1
            work.push(batch)
        }
        work.close()
        ordered.finish(total: sequence)
        threads.wait()

        return Outcome(
            tally: result.tally, seconds: monotonicSeconds() - start,
            inputFailure: inputFailure, writeError: result.writeError)
    }
}

extension ClassifyPipeline {
    /// `run(inputs:outputFD:)` on the calling thread alone.
    private func runInline(inputs: [LineReader.Input], outputFD: Int32) -> Outcome {
        let configuration = self.configuration
        let start = monotonicSeconds()
        let reader = LineReader(
            inputs: inputs, maxLineLength: configuration.maxLineLength,
            blockSize: configuration.blockSize, maxLines: configuration.batchLines)
        let inputCapacity = max(configuration.blockSize, configuration.maxLineLength + 2) + configuration.blockSize + 4096
        let batch = Batch(inputCapacity: inputCapacity, lineCapacity: configuration.batchLines)
        let writer = RecordWriter(format: configuration.format)
        let processor = BatchProcessor(
            model: model, writer: writer, maxLineLength: configuration.maxLineLength,
            table: model.makeTokenTable(bits: Self.tokenTableBits))
        var tally = Tally()
        var inputFailure: LineReader.Failure?
        let header = ByteBuffer(capacity: 128)
        writer.writeHeader(into: header)
        var failure = writeAll(outputFD, header.bytes)
        var lastProgress = start
        while failure == 0 {
            do {
                guard try reader.fill(batch) else { break }
            } catch {
                inputFailure = error
                break
            }
            processor.process(batch)
            failure = writeAll(outputFD, batch.output.bytes)
            if failure == 0 { tally += batch.tally }
            if configuration.showsProgress {
                let now = monotonicSeconds()
                if now - lastProgress >= 0.25 {
                    lastProgress = now
                    writeToStandardError("\r\u{1B}[K" + Summary.progress(tally, seconds: now - start))
                }
            }
        }
        if configuration.showsProgress { writeToStandardError("\r\u{1B}[K") }
        return Outcome(
            tally: tally, seconds: monotonicSeconds() - start,
            inputFailure: inputFailure, writeError: failure == 0 ? nil : failure)
    }
}

/// What the writer thread reports back, and its stop signal to the reader.
private final class WriterResult: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private(set) var tally = Tally()
    private(set) var writeError: Int32?

    var isStopped: Bool { lock.withLock { stopped } }

    func stop() { lock.withLock { stopped = true } }

    func finish(tally: Tally, writeError: Int32?) {
        lock.withLock {
            self.tally = tally
            self.writeError = writeError
        }
    }
}
