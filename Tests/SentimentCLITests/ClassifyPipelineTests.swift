import Foundation
import Sentiment
import Testing

/// The pipeline's two ways of running — threads (a reader, workers, an
/// ordered writer) and one loop on the calling thread, which the command
/// takes when the process has a single core — write the same bytes.
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
        _ model: SentimentModel, _ input: [UInt8], threads: Int, inline: Bool, format: OutputFormat = .jsonl
    ) throws -> Run {
        let folder = try TemporaryFolder("pipeline")
        let inputURL = folder.appendingPathComponent("in.txt")
        let outputURL = folder.appendingPathComponent("out.txt")
        try Data(input).write(to: inputURL)
        let fd = open(outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        var configuration = ClassifyPipeline.Configuration(threads: threads, format: format)
        configuration.maxLineLength = 300
        configuration.blockSize = 512
        configuration.batchLines = 7
        configuration.runsInline = inline
        let outcome = ClassifyPipeline(model: model, configuration: configuration)
            .run(inputs: [.file(inputURL.path)], outputFD: fd)
        return Run(output: Array(try Data(contentsOf: outputURL)), outcome: outcome)
    }

    @Test("One loop writes the same records as the threads, in every format",
          arguments: [OutputFormat.jsonl, .tsv, .csv])
    func inlineMatchesThreads(format: OutputFormat) throws {
        let model = try #require(Self.model)
        let input = Self.input(lines: 200)
        let inline = try run(model, input, threads: 1, inline: true, format: format)
        let threaded = try run(model, input, threads: 1, inline: false, format: format)
        let two = try run(model, input, threads: 2, inline: false, format: format)
        #expect(inline.outcome.tally.records == 200)
        #expect(inline.outcome.tally.errors > 0)  // the malformed JSON and the long lines at least
        expectSameOutput(inline, threaded)
        expectSameOutput(inline, two)
        #expect(inline.outcome.tally == threaded.outcome.tally)
        #expect(inline.outcome.inputFailure == nil && inline.outcome.writeError == nil)
    }

    @Test("One loop ignores the setting with more than one worker")
    func inlineNeedsOneWorker() throws {
        let model = try #require(Self.model)
        let input = Self.input(lines: 50)
        let two = try run(model, input, threads: 2, inline: true)
        let threaded = try run(model, input, threads: 1, inline: false)
        expectSameOutput(two, threaded)
    }

    @Test("One loop stops at a failed write and reports its errno")
    func inlineWriteFailure() throws {
        let model = try #require(Self.model)
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let folder = try TemporaryFolder("pipeline")
        let inputURL = folder.appendingPathComponent("in.txt")
        try Data(Self.input(lines: 100)).write(to: inputURL)
        var configuration = ClassifyPipeline.Configuration(threads: 1, format: .jsonl)
        configuration.runsInline = true
        let outcome = ClassifyPipeline(model: model, configuration: configuration)
            .run(inputs: [.file(inputURL.path)], outputFD: fd)
        #expect(outcome.writeError == ENOSPC)
        #expect(outcome.tally.records == 0)
    }

    @Test("One loop reports an input it cannot read, after the inputs before it")
    func inlineInputFailure() throws {
        let model = try #require(Self.model)
        let folder = try TemporaryFolder("pipeline")
        let inputURL = folder.appendingPathComponent("in.txt")
        try Data("good morning\nsee you\n".utf8).write(to: inputURL)
        let outputURL = folder.appendingPathComponent("out.txt")
        let fd = open(outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        var configuration = ClassifyPipeline.Configuration(threads: 1, format: .jsonl)
        configuration.runsInline = true
        let outcome = ClassifyPipeline(model: model, configuration: configuration)
            .run(inputs: [.file(inputURL.path), .file(folder.appendingPathComponent("missing.txt").path)], outputFD: fd)
        #expect(outcome.inputFailure != nil)
        #expect(outcome.tally.records == 2)
        let lines = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
    }
}
