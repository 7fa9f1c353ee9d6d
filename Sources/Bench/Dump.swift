import Foundation
import Sentiment

/// The input every measurement reads: N tweets cycled from a source file, as a
/// plain-text dump (one tweet per line) and as Twitter API v1.1 JSON Lines.
struct Dump {
    /// One tweet per line, UTF-8, `\n` endings.
    var plain: URL
    var plainTweets: Int
    var plainBytes: Int
    /// One v1.1 tweet object per line (a few KB each, a quarter of them retweets).
    var jsonl: URL
    var jsonlTweets: Int
    var jsonlBytes: Int
}

/// The texts a dump is made from.
struct Corpus {
    /// Each text's UTF-8 bytes, without line breaks.
    var texts: [[UInt8]]
    /// Where they came from.
    var source: String

    /// The longest line `sentiment classify` reads, in bytes (its `maxLineLength`): a longer one is an error record.
    static let maxLineLength = 1 << 20

    /// Reads `path`: a TSV with an `id	label	text` header (the shared SemEval
    /// files: the `text` column), or any other file with one text per line.
    /// Tabs, CR and LF inside a text are folded to spaces; blank lines (nothing
    /// visible: a CRLF file's empty lines, spaces only) are skipped, as
    /// `sentiment classify` would answer them with an error record, not a label;
    /// so are texts longer than its limit for a line (1 MiB), saying how many.
    /// A pipe or FIFO (`<(…)`) is read to its end.
    static func load(_ path: String) throws -> Corpus {
        let data: Data
        do {
            data = try FileBytes.read(path)
        } catch {
            try requireReadable(path)
            throw BenchError("\(path): cannot read it: \(error.reason)")
        }
        let bytes = [UInt8](data)
        // A CRLF file's `\r` before `\n` is no part of the line: not of the header's last name, nor of a text.
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            .map { $0.last == 0x0D ? $0.dropLast() : $0 }
        var column: Int?
        // The last column keeps its tabs (a text there may hold some), the others end at one.
        var lastColumn = 0
        if let header = lines.first, let names = String(bytes: header, encoding: .utf8)?.split(separator: "\t"),
           names.count >= 2, let text = names.firstIndex(of: "text") {
            column = text
            lastColumn = names.count - 1
            lines.removeFirst()
        }
        var texts: [[UInt8]] = []
        var overLong = 0
        texts.reserveCapacity(lines.count)
        for line in lines {
            var text: [UInt8]
            if let column {
                let fields = line.split(separator: UInt8(ascii: "\t"), maxSplits: lastColumn, omittingEmptySubsequences: false)
                guard fields.count > column else { continue }
                text = Array(fields[column])
            } else {
                text = Array(line)
            }
            for i in text.indices where text[i] == 0x09 || text[i] == 0x0D { text[i] = 0x20 }
            if text.count > maxLineLength {
                overLong += 1
            } else if !text.withUnsafeBytes(BlankText.isBlank(utf8:)) {
                texts.append(text)
            }
        }
        if overLong > 0 {
            writeToStandardError("bench: left out \(overLong) \(overLong == 1 ? "line" : "lines") of \(path) longer than 1 MiB, "
                + "sentiment classify's limit for a line\n")
        }
        guard !texts.isEmpty else { throw BenchError("no texts in \(path)") }
        return Corpus(texts: texts, source: path)
    }
}

/// Writes dumps into a work directory, and reuses them when they are already there.
enum DumpWriter {
    /// The plain and JSONL dumps for `tweets` and `jsonlTweets` texts of `corpus`.
    static func make(corpus: Corpus, tweets: Int, jsonlTweets: Int, in directory: URL) throws -> Dump {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tag = String(fnv1a(corpus.texts), radix: 16)
        let plain = directory.appendingPathComponent("plain-\(tweets)-\(tag).txt")
        let jsonl = directory.appendingPathComponent("v11-\(jsonlTweets)-\(tag).jsonl")
        if !isWhole(plain, lines: tweets) {
            try writeWithProgress(plain, "plain dump of \(tweets) tweets") { try writePlain(corpus: corpus, tweets: tweets, to: $0) }
        }
        if !isWhole(jsonl, lines: jsonlTweets) {
            try writeWithProgress(jsonl, "v1.1 JSON Lines dump of \(jsonlTweets) tweets") { try writeJSONL(corpus: corpus, tweets: jsonlTweets, to: $0) }
        }
        return Dump(plain: plain, plainTweets: tweets, plainBytes: fileSize(plain),
                    jsonl: jsonl, jsonlTweets: jsonlTweets, jsonlBytes: fileSize(jsonl))
    }

    /// Writes to `<url>.<pid>.partial`, then renames it to `url` (atomic): an
    /// interrupted run leaves no half dump behind, and two runs sharing the
    /// work directory each write their own and never rename the other's.
    private static func writeWithProgress(_ url: URL, _ what: String, _ body: (URL) throws -> Void) throws {
        writeToStandardError("bench: writing \(what) to \(url.path)\n")
        let partial = url.appendingPathExtension("\(getpid()).partial")
        try Interruption.removing(partial.path) {
            try body(partial)
            guard rename(partial.path, url.path) == 0 else {
                throw BenchError("cannot rename \(partial.path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Whether a dump kept from an earlier run is there whole: `lines` lines,
    /// the last one ended. One cut short (a write that failed, a full disk)
    /// is said so, to be written again rather than timed as the whole dump.
    private static func isWhole(_ url: URL, lines: Int) -> Bool {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var count = 0, last: UInt8 = 0x0A
        while true {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return false }
            if got == 0 { break }
            count += buffer[..<got].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            last = buffer[got - 1]
        }
        guard count != lines || last != 0x0A else { return true }
        writeToStandardError("bench: \(url.path) holds \(count) whole lines, not \(lines): it was cut short\n")
        return false
    }

    static func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// `tweets` lines, the corpus cycled.
    static func writePlain(corpus: Corpus, tweets: Int, to url: URL) throws {
        let out = try ChunkedFile(url)
        for i in 0..<tweets {
            out.append(corpus.texts[i % corpus.texts.count])
            out.append(UInt8(ascii: "\n"))
        }
        try out.close()
    }

    /// `tweets` v1.1 objects, the corpus cycled, deterministic (seeded).
    static func writeJSONL(corpus: Corpus, tweets: Int, to url: URL) throws {
        let out = try ChunkedFile(url)
        var generator = TweetObjectGenerator(corpus: corpus)
        for i in 0..<tweets {
            out.append(generator.object(index: i))
            out.append(UInt8(ascii: "\n"))
        }
        try out.close()
    }

    private static func fnv1a(_ texts: [[UInt8]]) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        // Each text ends with its line break, so "ab", "c" and "abc" are different corpora.
        for text in texts {
            for byte in text { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
            hash = (hash ^ 0x0A) &* 0x0100_0193
        }
        return hash
    }
}

/// A file written in 4 MiB chunks.
final class ChunkedFile {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: [UInt8] = []
    private let path: String

    init(_ url: URL) throws {
        path = url.path
        guard let file = fopen(url.path, "w") else { throw BenchError("cannot create \(url.path)") }
        self.file = file
        buffer.reserveCapacity(1 << 22)
    }

    func append(_ byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= 1 << 22 { flush() }
    }

    func append<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 22 { flush() }
    }

    /// The `errno` of the first write that failed.
    private var failure: Int32?

    private func flush() {
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != buffer.count, failure == nil { failure = errno }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left and closes the file; a write that failed, the
    /// last one (in `fflush` or `fclose`: a full disk) included, throws.
    func close() throws {
        flush()
        if fflush(file) != 0, failure == nil { failure = errno }
        if fclose(file) != 0, failure == nil { failure = errno }
        if let failure { throw BenchError("cannot write \(path): \(String(cString: strerror(failure)))") }
    }
}

/// splitmix64: a seeded, reproducible generator for ids, counts and names.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
