import Foundation
@testable import Sentiment
import Testing

/// Cutting inputs into lines across block and batch boundaries, compared with
/// a plain reference split, on many small random inputs.
@Suite("Line reader")
struct LineReaderTests {
    /// "number<TAB>bytes" per line, or "number<TAB>TOO LONG<TAB>its first bytes", the way the reader should see it.
    private func reference(_ inputs: [[UInt8]], maxLineLength: Int, tooLongPrefix: Int) -> [String] {
        var lines: [String] = []
        for var input in inputs {
            if input.starts(with: [0xEF, 0xBB, 0xBF]) { input.removeFirst(3) }  // a byte order mark is dropped
            if input.isEmpty { continue }
            var parts = input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            if parts.last == [] { parts.removeLast() }
            for var part in parts {
                if part.last == 0x0D { part.removeLast() }
                let number = lines.count + 1
                lines.append(part.count > maxLineLength
                    ? "\(number)\tTOO LONG\t" + String(decoding: part.prefix(min(tooLongPrefix, maxLineLength)), as: UTF8.self)
                    : "\(number)\t" + String(decoding: part, as: UTF8.self))
            }
        }
        return lines
    }

    private func read(_ paths: [String], blockSize: Int, maxLines: Int, maxLineLength: Int, tooLongPrefix: Int = 0) throws -> [String] {
        let reader = LineReader(
            inputs: paths.map { .file($0) }, maxLineLength: maxLineLength, blockSize: blockSize, maxLines: maxLines,
            tooLongPrefix: tooLongPrefix)
        let batch = Batch(inputCapacity: 16, lineCapacity: 4)
        var lines: [String] = []
        while try reader.fill(batch) {
            #expect(batch.lines.count <= maxLines)
            for line in batch.lines {
                lines.append((line.tooLong ? "\(line.number)\tTOO LONG\t" : "\(line.number)\t") + String(decoding: batch.bytes(of: line), as: UTF8.self))
            }
        }
        return lines
    }

    @Test("Random inputs split the same whatever the block size and batch length, over-long lines keeping their first bytes, byte order marks dropped")
    func randomInputs() throws {
        var random = SplitMix64(seed: 7)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("line-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let alphabet = Array("abc \r{}\"é".utf8)
        for trial in 0..<200 {
            var inputs: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                var bytes: [UInt8] = Int.random(in: 0..<3, using: &random) == 0 ? [0xEF, 0xBB, 0xBF] : []
                for _ in 0..<Int.random(in: 0...30, using: &random) {
                    let length = [0, 1, 2, 5, 10, 30, 60, 61, 62, 63, 100].randomElement(using: &random)!
                    for _ in 0..<length { bytes.append(alphabet.randomElement(using: &random)!) }
                    bytes += Bool.random(using: &random) ? [0x0A] : [0x0D, 0x0A]
                }
                if Int.random(in: 0..<3, using: &random) == 0, bytes.last == 0x0A { bytes.removeLast() }
                inputs.append(bytes)
            }
            let paths = try inputs.enumerated().map { index, bytes in
                let url = directory.appendingPathComponent("\(trial)-\(index)")
                try Data(bytes).write(to: url)
                return url.path
            }
            let blockSize = [1, 2, 3, 7, 16, 64, 4096].randomElement(using: &random)!
            let maxLines = [1, 2, 3, 5, 100].randomElement(using: &random)!
            let maxLineLength = [60, 61, 1000].randomElement(using: &random)!
            let tooLongPrefix = [0, 1, 7, 60, 2000].randomElement(using: &random)!
            let lines = try read(paths, blockSize: blockSize, maxLines: maxLines, maxLineLength: maxLineLength, tooLongPrefix: tooLongPrefix)
            #expect(lines == reference(inputs, maxLineLength: maxLineLength, tooLongPrefix: tooLongPrefix),
                    "trial \(trial): block \(blockSize), batch \(maxLines), limit \(maxLineLength), prefix \(tooLongPrefix)")
        }
    }

    @Test("A missing file fails naming it")
    func missingFile() {
        #expect(throws: LineReader.Failure.self) { try LineReader.check([.file("/no/such/file")]) }
        do {
            try LineReader.check([.file("/no/such/file")])
        } catch {
            #expect(error.description == "/no/such/file: No such file or directory")
        }
    }

    @Test("A UTF-8 byte order mark is dropped at the start of each input, and only there")
    func byteOrderMark() throws {
        let folder = try TemporaryFolder("line-reader-bom")
        let bom = "\u{FEFF}"
        let first = folder.appendingPathComponent("first")
        let second = folder.appendingPathComponent("second")
        try Data("\(bom){\"text\":\"hi\"}\r\n\(bom)kept\n".utf8).write(to: first)
        try Data("\(bom)\nlast".utf8).write(to: second)
        for blockSize in [1, 2, 3, 4096] {
            let lines = try read([first.path, second.path], blockSize: blockSize, maxLines: 2, maxLineLength: 100)
            #expect(lines == ["1\t{\"text\":\"hi\"}", "2\t\(bom)kept", "3\t", "4\tlast"], "block \(blockSize)")
        }
    }

    @Test("A UTF-16 input with a byte order mark, either byte order, is read as the UTF-8 of its text, however its bytes arrive")
    func utf16Inputs() throws {
        let folder = try TemporaryFolder("line-reader-utf16")
        var random = SplitMix64(seed: 16)
        let pieces = ["a", "b", " ", "é", "€", "😍", "\r\n", "\n", "\u{FEFF}"]
        for trial in 0..<40 {
            let text = (0..<Int.random(in: 0...60, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let utf8 = folder.appendingPathComponent("\(trial).utf8")
            try Data(text.utf8).write(to: utf8)
            for bigEndian in [false, true] {
                let units = text.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
                let utf16 = folder.appendingPathComponent("\(trial)-\(bigEndian).utf16")
                try Data((bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + units).write(to: utf16)
                let blockSize = [1, 2, 3, 5, 4096].randomElement(using: &random)!
                let maxLineLength = [4, 1000].randomElement(using: &random)!
                // Lines are cut and limited as UTF-8, so an over-long line keeps the same first bytes either way.
                #expect(try read([utf16.path, utf8.path], blockSize: blockSize, maxLines: 3, maxLineLength: maxLineLength, tooLongPrefix: 2)
                        == read([utf8.path, utf8.path], blockSize: 4096, maxLines: 3, maxLineLength: maxLineLength, tooLongPrefix: 2),
                        "trial \(trial), big-endian \(bigEndian), block \(blockSize)")
            }
        }
    }

    @Test("Half a surrogate pair or an odd last byte in a UTF-16 input is read as a byte that is not UTF-8, which classify flags")
    func utf16LoneSurrogate() throws {
        let folder = try TemporaryFolder("line-reader-utf16-lone")
        let path = folder.appendingPathComponent("lone")
        let units: [UInt16] = Array("so sad ".utf16) + [0xD83D] + Array("\nhalf ".utf16) + [0xDE22] + Array("\nlast".utf16)
        try Data([0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [0x41]).write(to: path)
        for blockSize in [1, 3, 4096] {
            let reader = LineReader(inputs: [.file(path.path)], blockSize: blockSize, maxLines: 10)
            let batch = Batch(inputCapacity: 16, lineCapacity: 4)
            var lines: [[UInt8]] = []
            while try reader.fill(batch) { lines += batch.lines.map { Array(batch.bytes(of: $0)) } }
            #expect(lines == [Array("so sad ".utf8) + [0xFF], Array("half ".utf8) + [0xFF], Array("last".utf8) + [0xFF]], "block \(blockSize)")
        }
    }

    @Test("A first line as long as the limit after its byte order mark is kept whole, however the bytes arrive")
    func byteOrderMarkIsNotCountedInTheLimit() throws {
        let folder = try TemporaryFolder("line-reader-bom-limit")
        let line = String(repeating: "a", count: 100)
        let lf = folder.appendingPathComponent("lf"), crlf = folder.appendingPathComponent("crlf")
        let over = folder.appendingPathComponent("over")
        try Data("\u{FEFF}\(line)\nnext\n".utf8).write(to: lf)
        try Data("\u{FEFF}\(line)\r\nnext\n".utf8).write(to: crlf)
        try Data("\u{FEFF}\(line)a\nnext\n".utf8).write(to: over)
        for blockSize in [1, 2, 3, 7, 101, 102, 103, 104, 4096] {
            for path in [lf.path, crlf.path] {
                #expect(try read([path], blockSize: blockSize, maxLines: 4, maxLineLength: 100) == ["1\t\(line)", "2\tnext"],
                        "block \(blockSize), \(path)")
            }
            #expect(try read([over.path], blockSize: blockSize, maxLines: 4, maxLineLength: 100, tooLongPrefix: 3)
                    == ["1\tTOO LONG\taaa", "2\tnext"], "block \(blockSize)")
        }
    }

    @Test("Lines read before an input fails are returned first; the next fill throws")
    func failureAfterLines() throws {
        let folder = try TemporaryFolder("line-reader-failure")
        let good = folder.appendingPathComponent("good")
        try Data("one\ntwo\n".utf8).write(to: good)
        // /proc/self/mem opens but cannot be read at offset 0 (EIO).
        let reader = LineReader(inputs: [.file(good.path), .file("/proc/self/mem")], blockSize: 4096, maxLines: 100)
        let batch = Batch(inputCapacity: 16, lineCapacity: 4)
        #expect(try reader.fill(batch))
        #expect(batch.lines.map { String(decoding: batch.bytes(of: $0), as: UTF8.self) } == ["one", "two"])
        #expect(throws: LineReader.Failure.self) { try reader.fill(batch) }
    }
}
