import Foundation

/// One labelled text.
public struct LabeledExample: Sendable, Hashable {
    /// The text.
    public var text: String
    /// Its gold label.
    public var label: SentimentLabel
    /// The tweet's numeric id, when the data has one. Tweet ids grow with time,
    /// so they let `Trainer` cross-validate in time order.
    public var id: UInt64?

    /// Creates an example.
    public init(text: String, label: SentimentLabel, id: UInt64? = nil) {
        self.text = text
        self.label = label
        self.id = id
    }
}

/// Why a labelled data file could not be read.
public struct DataFileError: Sendable, Hashable, DescribedError {
    /// The file.
    public var path: String
    /// The 1-based line, when the problem is on one line.
    public var line: Int?
    /// What is wrong.
    public var reason: String
    /// Whether the file is missing, a directory or unreadable (exit 66) rather
    /// than malformed (exit 65).
    public var isMissing: Bool

    public var description: String {
        if let line { return "\(path):\(line): \(reason)" }
        return "\(path): \(reason)"
    }
}

extension LabeledExample {
    /// Reads a tab-separated file with a header naming a `label` and a `text`
    /// column, and optionally an `id` column of numeric tweet ids (an empty cell is none), each once (others are ignored) — the format of
    /// `shared/data/semeval/*.tsv`. When `text` is the last column, a tab in a
    /// text belongs to the text; when it is not, a line with more columns than
    /// the header is an error (its text may hold a tab). Lines may end in `\n` or `\r\n`; a UTF-8
    /// byte order mark before the header and empty lines are skipped; a file in UTF-16 with a byte
    /// order mark (Excel's "Unicode Text") is read as the text it holds (one without
    /// the mark is refused, saying so and how to convert it); labels
    /// are read in any case and without the white space around them ("Positive",
    /// " positive "), as column names are, and ids without theirs ("7 " is 7, an
    /// id cell of white space alone none). A file without a header, as the
    /// SemEval task files were published (`id`, `label`, `text`; 2013's with
    /// a second id, the user's, before the label), is read so when its first
    /// line is such a row: up to two cells of digits, then a label, then the
    /// text (the rest of the line), or a label and the text; the first cell of
    /// digits is the id, the second ignored.
    ///
    /// - Throws: `DataFileError` naming the file and line: missing file, a
    ///   directory or a device (a pipe is read), an unreadable file, no header columns,
    ///   a header naming `label`, `text` or `id` more than once, an unknown label, an id that is not digits (or beyond `UInt64`), a
    ///   line with too few columns (or too many, when text is not the last column), an empty or blank text (`BlankText`),
    ///   a text of more than `maxTextBytes` bytes of UTF-8 when a limit is given,
    ///   invalid UTF-8 (or UTF-16), UTF-16 without a byte order mark.
    ///
    /// - Parameter maxTextBytes: the longest text taken, in bytes of UTF-8
    ///   (`sentiment eval` gives `classify`'s longest line, 1 MiB); nil: no limit.
    public static func readTSV(_ path: String, maxTextBytes: Int? = nil) throws(DataFileError) -> [LabeledExample] {
        try parseTSV(try readData(path), path: path, maxTextBytes: maxTextBytes)
    }

    /// `readTSV(_:)` and the SHA-256 (lower-case hex) of the bytes it read, for
    /// a manifest to record what a model was trained on: a pipe can be read
    /// only once, so the digest cannot come from reading the path again.
    public static func readTSVAndDigest(_ path: String) throws(DataFileError) -> (examples: [LabeledExample], sha256: String) {
        let data = try readData(path)
        return (try parseTSV(data, path: path), ModelDirectory.sha256(data))
    }

    /// The examples in `data`, the bytes of a file in `readTSV(_:maxTextBytes:)`'s format
    /// read some other way (standard input); `name` names it in errors.
    public static func readTSV(data: Data, name: String, maxTextBytes: Int? = nil) throws(DataFileError) -> [LabeledExample] {
        try parseTSV(data, path: name, maxTextBytes: maxTextBytes)
    }

    /// `readTSV(data:name:)` and the SHA-256 (lower-case hex) of `data`, as
    /// `readTSVAndDigest(_:)` gives them for a file.
    public static func readTSVAndDigest(data: Data, name: String) throws(DataFileError) -> (examples: [LabeledExample], sha256: String) {
        (try parseTSV(data, path: name), ModelDirectory.sha256(data))
    }

    /// The examples in `data`, the bytes of the file at `path` (named in errors),
    /// none with a text of more than `maxTextBytes` bytes when that is given.
    private static func parseTSV(_ data: Data, path: String, maxTextBytes: Int? = nil) throws(DataFileError) -> [LabeledExample] {
        // A file saved as UTF-16 ("Unicode Text") is read as the text it holds.
        let utf16 = UTF16Transcoder.utf8(ofMarked: data)
        let data = utf16.map { Data($0) } ?? data
        guard let content = String(data: data, encoding: .utf8) else {
            let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let bad = lines.firstIndex { String(validating: $0, as: UTF8.self) == nil }
            if utf16 == nil, let error = unmarkedUTF16Error(data, path: path) { throw error }
            throw DataFileError(path: path, line: bad.map { $0 + 1 }, reason: utf16 == nil ? "not valid UTF-8" : "not valid UTF-16 (half a surrogate pair)",
                                isMissing: false)
        }
        // "\r\n" is one Character in Swift, so a split on "\n" alone would leave CRLF files one line.
        var lines = content.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        if lines.last == "" { lines.removeLast() }
        if lines.first?.unicodeScalars.first == "\u{FEFF}" { lines[0] = lines[0].dropFirst() }
        // Empty lines are skipped, before the header too (their numbers still count).
        let headerOffset = lines.firstIndex { !($0.isEmpty || $0 == "\r") } ?? lines.endIndex
        guard headerOffset < lines.endIndex else {
            throw DataFileError(path: path, line: nil, reason: "empty file (expected a header with label and text columns)", isMissing: false)
        }
        let header = lines[headerOffset]
        var columns = header.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        // Column names in any case, as labels are read ("Label", "TEXT").
        var names = columns.map { $0.lowercased() }
        // The first row that reads the file's data: the line after the header, or the first line when there is none.
        var firstRow = headerOffset + 1
        if !names.contains("label") || !names.contains("text"), let layout = headerlessLayout(columns) {
            (columns, names, firstRow) = (layout, layout, headerOffset)
        }
        guard let labelColumn = names.firstIndex(of: "label"), let textColumn = names.firstIndex(of: "text") else {
            // UTF-16 without a mark reads as UTF-8 with a NUL beside each letter ("l\0a\0b\0e\0l\0"), so it fails here.
            if utf16 == nil, let error = unmarkedUTF16Error(data, path: path) { throw error }
            let shown = columns.prefix(8).map { $0.count > 40 ? $0.prefix(40) + "…" : $0 } + (columns.count > 8 ? ["…"] : [])
            throw DataFileError(path: path, line: headerOffset + 1, reason: "header must name a \"label\" and a \"text\" column, found \(shown)", isMissing: false)
        }
        // Reading one of a column's two places and ignoring the other would be a guess, made unsaid.
        for name in ["label", "text", "id"] {
            let places = names.indices.filter { names[$0] == name }.map { String($0 + 1) }
            guard places.count < 2 else {
                let times = places.count == 2 ? "twice" : "\(places.count) times"
                let list = places.dropLast().joined(separator: ", ") + " and " + places[places.count - 1]
                throw DataFileError(path: path, line: headerOffset + 1,
                                    reason: "header names the \"\(name)\" column \(times) (columns \(list)): which one to read is not clear", isMissing: false)
            }
        }
        let idColumn = names.firstIndex(of: "id")
        let textIsLast = textColumn == columns.count - 1
        var examples = [LabeledExample]()
        examples.reserveCapacity(lines.count)
        for (offset, line) in lines.enumerated().dropFirst(firstRow) {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if line.isEmpty { continue }
            // A text in the last column is the rest of the line, tabs and all.
            let fields = line.split(separator: "\t", maxSplits: textIsLast ? columns.count - 1 : .max,
                                    omittingEmptySubsequences: false)
            // A missing cell is not read as an empty one: a row cut short may have lost more than its last cell.
            guard fields.count >= columns.count else {
                throw DataFileError(path: path, line: offset + 1, reason: "expected \(columns.count) tab-separated columns, found \(fields.count)", isMissing: false)
            }
            // With the text before another column, a tab in it cannot be told from a column break:
            // cutting the text at its first tab (and taking the rest for the later columns) would lose words unsaid.
            guard textIsLast || fields.count <= columns.count else {
                throw DataFileError(path: path, line: offset + 1, reason: "expected \(columns.count) tab-separated columns, found \(fields.count) "
                                        + "(a tab in a text is only kept when text is the last column)", isMissing: false)
            }
            // White space around a label is ignored, as around a column name: a hand-edited or exported
            // file's "positive " is positive. The label is never the text, whose spaces are kept.
            guard let label = SentimentLabel(rawValue: fields[labelColumn].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()) else {
                throw DataFileError(path: path, line: offset + 1, reason: "unknown label \"\(fields[labelColumn])\" (expected negative, neutral or positive)", isMissing: false)
            }
            // `classify` answers a blank text with an error, not a label: such a row has nothing to score or learn.
            guard !BlankText.isBlank(String(fields[textColumn])) else {
                throw DataFileError(path: path, line: offset + 1, reason: "empty or blank text: nothing to classify or learn from", isMissing: false)
            }
            if let maxTextBytes, fields[textColumn].utf8.count > maxTextBytes {
                throw DataFileError(path: path, line: offset + 1, reason: "text of \(fields[textColumn].utf8.count) bytes, "
                                        + "over the limit of \(byteCount(maxTextBytes))", isMissing: false)
            }
            // An empty id cell is no id; any other that is not a tweet id is refused, not read as none: chronological
            // folds need every row's id (`Trainer.isChronological`), and repeats are counted by id. White space
            // around an id is ignored, as around a label ("7 " is 7, one cell of white space alone none).
            var id: UInt64?
            let idCell = idColumn.map { fields[$0].trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
            if let idColumn, !idCell.isEmpty {
                guard idCell.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = UInt64(idCell) else {
                    throw DataFileError(path: path, line: offset + 1, reason: "id \"\(fields[idColumn])\" is not a numeric tweet id "
                                            + "(expected digits up to \(UInt64.max), or an empty cell for none; "
                                            + "a column of other ids is ignored under another name)", isMissing: false)
                }
                id = number
            }
            examples.append(LabeledExample(text: String(fields[textColumn]), label: label, id: id))
        }
        return examples
    }

    /// The columns of a file without a header whose first line's `cells` are
    /// a row as the SemEval task files give them: up to two cells of digits
    /// (the tweet's id, then for 2013's files the user's, ignored), a label,
    /// and the text; nil when they are not (a header to be read as one).
    /// A header names its columns, so no header is such a row.
    private static func headerlessLayout(_ cells: [String]) -> [String]? {
        guard cells.count >= 2 else { return nil }
        for labelColumn in 0...min(2, cells.count - 2) {
            let ids = cells[..<labelColumn]
            guard ids.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }) else { return nil }
            if SentimentLabel(rawValue: cells[labelColumn].lowercased()) != nil {
                return ids.indices.map { $0 == 0 ? "id" : "" } + ["label", "text"]
            }
        }
        return nil
    }

    /// "1 MiB (1048576 bytes)" for a whole number of MiB, else "N bytes".
    private static func byteCount(_ bytes: Int) -> String {
        bytes > 0 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB (\(bytes) bytes)" : "\(bytes) bytes"
    }

    /// The error for `data`, a file that could not be read as UTF-8, when it
    /// looks like UTF-16 without a byte order mark (as some Windows exports
    /// are), saying so and how to convert it; else nil. Only a file that fails
    /// is tested, so a guess can change a message but never refuse a file.
    private static func unmarkedUTF16Error(_ data: Data, path: String) -> DataFileError? {
        guard let order = unmarkedUTF16ByteOrder(data) else { return nil }
        let name = order == .littleEndian ? "UTF-16LE" : "UTF-16BE"
        return DataFileError(path: path, line: nil, reason: "looks like UTF-16 (\(order == .littleEndian ? "little" : "big")-endian) without a byte order mark, "
                                 + "which is read only with one: convert it to UTF-8 first, as with `iconv -f \(name) -t UTF-8 in.tsv > out.tsv`",
                             isMissing: false)
    }

    /// The byte order of `data` when its first bytes look like UTF-16 without
    /// a byte order mark, else nil: a tab-separated file's header and most
    /// tweets are ASCII, so one byte of most code units is 0, the second in
    /// little-endian and the first in big-endian, and the other byte of
    /// almost none.
    private static func unmarkedUTF16ByteOrder(_ data: Data) -> UTF16Transcoder.ByteOrder? {
        let units = data.prefix(512).count / 2
        guard units >= 2 else { return nil }
        var zeros = (first: 0, second: 0)
        for (offset, byte) in data.prefix(units * 2).enumerated() where byte == 0 {
            if offset % 2 == 0 { zeros.first += 1 } else { zeros.second += 1 }
        }
        if zeros.second * 2 >= units, zeros.first * 8 <= zeros.second { return .littleEndian }
        if zeros.first * 2 >= units, zeros.second * 8 <= zeros.first { return .bigEndian }
        return nil
    }

    /// The bytes of a regular file or a pipe (`<(…)`, a FIFO); a directory, a
    /// device (which could be read forever) or an unreadable file is an error
    /// with the reason.
    private static func readData(_ path: String) throws(DataFileError) -> Data {
        func failure(_ reason: String) -> DataFileError { DataFileError(path: path, line: nil, reason: reason, isMissing: true) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw failure(errno == ENOENT ? "no such file" : "cannot read: \(String(cString: strerror(errno)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO, S_IFSOCK: break
        case S_IFDIR: throw failure("is a directory, not a file")
        default: throw failure("not a regular file or a pipe")
        }
        do {
            return try FileBytes.read(path)
        } catch {
            throw failure("cannot read: \(error.reason)")
        }
    }
}
