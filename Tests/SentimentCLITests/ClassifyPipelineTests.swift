import Foundation
import Sentiment
import Testing

/// The pipeline writes the same records, in input order, with any number of
/// workers (each reads, classifies and writes for itself), and stops cleanly
/// at a failed write or an unreadable input.
@Suite("Classify pipeline")
struct ClassifyPipelineTests {
    static let model: SentimentModel? = try? SentimentModel.loadDefault()

    /// A mixed input: tweets, JSON objects, a malformed one, invalid UTF-8,
    /// NUL bytes, blank lines, CRLF endings and a line over the limit.
    private static func input(lines count: Int) -> [UInt8] {
        let plain = [
            "I love this!!! 😍", "worst day ever :(", "the meeting is at 3pm", "not bad at all",
            "Me encanta este lugar, es muy bonito",
        ]
        var bytes: [UInt8] = []
        for i in 0..<count {
            switch i % 9 {
            case 0, 1, 2: bytes += Array(plain[i % plain.count].utf8)
            case 3: bytes += Array(#"{"id_str":"\#(i)","text":"so happy today","user":{"screen_name":"ann"}}"#.utf8)
            case 4: bytes += Array(#"{"text":"cut off"#.utf8)
            case 5: bytes += Array("caf".utf8) + [0xC3, 0x28] + Array(" au lait".utf8)
            case 6: bytes += Array("a\u{0}b".utf8) + [0x0D]
            case 7: bytes += []
            default: bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 400)
            }
            bytes.append(0x0A)
        }
        return bytes
    }

    private struct Run {
        var output: [UInt8]
        var outcome: ClassifyPipeline.Outcome

        var lines: [Substring] { String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) }
    }

    /// A scratch folder holding the run's input file, if it has one, and its
    /// output file, open for writing until the scratch goes.
    private final class Scratch {
        let folder: TemporaryFolder
        let inputURL: URL
        let outputURL: URL
        let outputFD: Int32

        init(input: [UInt8]?) throws {
            folder = try TemporaryFolder("pipeline")
            inputURL = folder.appendingPathComponent("in.txt")
            outputURL = folder.appendingPathComponent("out.txt")
            if let input { try Data(input).write(to: inputURL) }
            outputFD = open(outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            try #require(outputFD >= 0, "cannot open \(outputURL.path): errno \(errno)")
        }

        deinit { if outputFD >= 0 { close(outputFD) } }

        /// What the run has written so far.
        func output() throws -> [UInt8] { Array(try Data(contentsOf: outputURL)) }
    }

    /// Expects the same bytes, and names the first line that differs.
    private func expectSameOutput(_ a: Run, _ b: Run, sourceLocation: SourceLocation = #_sourceLocation) {
        guard a.output != b.output else { return }
        let (x, y) = (a.lines, b.lines)
        let first = zip(x, y).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(x.count, y.count)
        let left = first < x.count ? String(x[first]) : "(none)"
        let right = first < y.count ? String(y[first]) : "(none)"
        Issue.record(
            "outputs differ at line \(first + 1) of \(x.count) / \(y.count): \(left) against \(right)",
            sourceLocation: sourceLocation)
    }

    /// Runs the pipeline over `input` (written to a file), its output to a file.
    private func run(
        _ model: SentimentModel, _ input: [UInt8], threads: Int, format: OutputFormat = .jsonl
    ) throws -> Run {
        let scratch = try Scratch(input: input)
        var configuration = ClassifyPipeline.Configuration(threads: threads, format: format)
        configuration.maxLineLength = 300
        configuration.blockSize = 512
        configuration.batchLines = 7
        let outcome = try #require(ClassifyPipeline(model: model, configuration: configuration)
            .run(inputs: [.file(scratch.inputURL.path)], outputFD: scratch.outputFD))
        return Run(output: try scratch.output(), outcome: outcome)
    }

    @Test("One, two and three workers write the same records in input order, in every format",
          arguments: [OutputFormat.jsonl, .tsv, .csv])
    func workersAgree(format: OutputFormat) throws {
        let model = try #require(Self.model)
        let input = Self.input(lines: 500)
        let one = try run(model, input, threads: 1, format: format)
        #expect(one.outcome.tally.records == 500)
        #expect(one.outcome.tally.errors > 0)  // the malformed JSON and the long lines at least
        #expect(one.outcome.inputFailure == nil && one.outcome.writeError == nil)
        for threads in [2, 3] {
            let many = try run(model, input, threads: threads, format: format)
            expectSameOutput(one, many)
            #expect(many.outcome.tally == one.outcome.tally)
        }
        // The line numbers come out in order (JSON Lines and TSV/CSV alike start with it).
        let numbers = one.lines.dropFirst(format == .jsonl ? 0 : 1).filter { !$0.isEmpty }.map { line in
            Int(line.drop { !$0.isNumber }.prefix { $0.isNumber })
        }
        #expect(numbers == (1...500).map { $0 })
    }

    @Test("A run interrupted before it starts writes nothing, not even the TSV header, and the interruption says that nothing was written",
          arguments: [1, 2])
    func interruptedBeforeItStarts(threads: Int) throws {
        let model = try #require(Self.model)
        let scratch = try Scratch(input: Array("good morning\nsee you\n".utf8))
        // What classify's signal thread does when a signal comes as the model has loaded and the run is yet to start.
        let pipeline = ClassifyPipeline(model: model, configuration: .init(threads: threads, format: .tsv))
        let stopped = try #require(pipeline.interrupt(), "an interruption before the run was not taken")
        #expect(stopped.tally == Tally() && stopped.lastLine == 0 && stopped.writeError == nil)
        #expect(pipeline.run(inputs: [.file(scratch.inputURL.path)], outputFD: scratch.outputFD) == nil)
        #expect(try scratch.output().isEmpty)
    }

    @Test("A run interrupted part way returns no outcome, and one interrupted once it is over is not interrupted")
    func interruptedDuringAndAfter() throws {
        let model = try #require(Self.model)
        let scratch = try Scratch(input: nil)
        // Standard input is not read: the input is a pipe whose writer waits for the interruption.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let line = "good morning\n"
        #expect(line.withCString { write(ends[1], $0, strlen($0)) } == line.utf8.count)
        let pipeline = ClassifyPipeline(model: model, configuration: .init(threads: 1, format: .jsonl))
        let path = "/proc/self/fd/\(ends[0])"
        let finished = DispatchSemaphore(value: 0)
        let result = Returned()
        let outputFD = scratch.outputFD
        Thread {
            result.outcome = pipeline.run(inputs: [.file(path)], outputFD: outputFD)
            result.returned = true
            finished.signal()
        }.start()
        let deadline = ContinuousClock.now + .seconds(60)
        while try scratch.output().last != UInt8(ascii: "\n"), ContinuousClock.now < deadline { usleep(5_000) }
        let stopped = try #require(pipeline.interrupt())
        #expect(stopped.tally.records == 1 && stopped.lastLine == 1)
        close(ends[1])  // the worker waiting for input reads the end and stops
        #expect(finished.wait(timeout: .now() + 60) == .success)
        #expect(result.returned && result.outcome == nil)

        let over = ClassifyPipeline(model: model, configuration: .init(threads: 1, format: .jsonl))
        let outcome = over.run(inputs: [.file("/dev/null")], outputFD: scratch.outputFD)
        #expect(outcome?.tally.records == 0)
        #expect(over.interrupt() == nil)
    }

    /// What a run on another thread returned: read after the thread has signalled that it did.
    private final class Returned: @unchecked Sendable {
        var returned = false
        var outcome: ClassifyPipeline.Outcome?
    }

    @Test("A failed write stops the run and is reported with its errno", arguments: [1, 2])
    func writeFailure(threads: Int) throws {
        let model = try #require(Self.model)
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let scratch = try Scratch(input: Self.input(lines: 100))
        let configuration = ClassifyPipeline.Configuration(threads: threads, format: .jsonl)
        let outcome = try #require(ClassifyPipeline(model: model, configuration: configuration)
            .run(inputs: [.file(scratch.inputURL.path)], outputFD: fd))
        #expect(outcome.writeError == ENOSPC)
        #expect(outcome.tally.records == 0)
    }

    @Test("An input that cannot be read is reported after the records of the inputs before it", arguments: [1, 2])
    func inputFailure(threads: Int) throws {
        let model = try #require(Self.model)
        let scratch = try Scratch(input: Array("good morning\nsee you\n".utf8))
        let configuration = ClassifyPipeline.Configuration(threads: threads, format: .jsonl)
        let outcome = try #require(ClassifyPipeline(model: model, configuration: configuration)
            .run(inputs: [.file(scratch.inputURL.path), .file(scratch.folder.appendingPathComponent("missing.txt").path)],
                 outputFD: scratch.outputFD))
        #expect(outcome.inputFailure != nil)
        #expect(outcome.tally.records == 2)
        let lines = String(decoding: try scratch.output(), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
    }
}
