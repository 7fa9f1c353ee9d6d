import Sentiment

/// The output formats of `sentiment classify`.
enum OutputFormat: String, CaseIterable, Sendable {
    /// One JSON object per line.
    case jsonl
    /// Tab-separated values with a header line; `\` `\t` `\n` `\r` and NUL escaped as two characters.
    case tsv
    /// Comma-separated values with a header line, quoted per RFC 4180 (lines end in `\n`).
    case csv
}

/// Formats records into a byte buffer, by hand: fixed four-decimal numbers,
/// JSON/TSV/CSV escaping of ids, user names and error messages, invalid UTF-8
/// in them replaced by U+FFFD. Nothing is allocated per record.
///
/// JSON Lines (fields in this order; optional ones only when known):
///
///     {"line":3,"index":0,"id":"1234","user":"bob","author_id":"42","label":"positive",
///      "probabilities":{"negative":0.0123,"neutral":0.1034,"positive":0.8843},
///      "score":0.8720,"lang":"en"}
///     {"line":5,"label":null,…,"lang":"es","unsupported":true}
///     {"line":6,…,"lang":"en","warning":"invalid UTF-8"}   (or "NUL bytes", "lone surrogate"; several "; "-separated)
///     {"line":4,"error":"malformed JSON: unexpected end of input at byte 17"}
///     {"line":7,"id":"4\u{FFFD}2","error":"empty text","warning":"invalid UTF-8"}   (an id, user or author id's own)
///
/// TSV and CSV: the header `line index id user author_id label negative neutral
/// positive score lang error warning` and one row per record, with the fields
/// JSON Lines has (empty where it leaves them out); `label` is empty for an
/// unsupported language, the classification fields are empty for an error, and
/// `warning` is JSON Lines' warning.
struct RecordWriter {
    let format: OutputFormat

    /// The header line for TSV and CSV (nothing for JSON Lines).
    func writeHeader(into out: ByteBuffer) {
        switch format {
        case .jsonl: break
        case .tsv: out.append("line\tindex\tid\tuser\tauthor_id\tlabel\tnegative\tneutral\tpositive\tscore\tlang\terror\twarning\n" as StaticString)
        case .csv: out.append("line,index,id,user,author_id,label,negative,neutral,positive,score,lang,error,warning\n" as StaticString)
        }
    }

    /// Writes one record: classified with `prediction`, or an error record when
    /// the record has a problem (then `prediction` is ignored).
    func write(_ record: TweetRecord, prediction: Prediction?, scratch: ByteBuffer, into out: ByteBuffer) {
        switch format {
        case .jsonl: writeJSON(record, prediction, scratch, out)
        case .tsv: writeDelimited(record, prediction, scratch, out, separator: UInt8(ascii: "\t"))
        case .csv: writeDelimited(record, prediction, scratch, out, separator: UInt8(ascii: ","))
        }
    }

    // MARK: - JSON Lines

    private func writeJSON(_ record: TweetRecord, _ prediction: Prediction?, _ scratch: ByteBuffer, _ out: ByteBuffer) {
        out.append("{\"line\":" as StaticString)
        out.appendDecimal(record.line)
        if record.index >= 0 {
            out.append(",\"index\":" as StaticString)
            out.appendDecimal(record.index)
        }
        if let id = record.id.resolve(scratch: scratch) {
            out.append(",\"id\":" as StaticString)
            Escaping.appendJSONString(id, to: out)
        }
        if let user = record.user.resolve(scratch: scratch) {
            out.append(",\"user\":" as StaticString)
            Escaping.appendJSONString(user, to: out)
        }
        if let author = record.authorID.resolve(scratch: scratch) {
            out.append(",\"author_id\":" as StaticString)
            Escaping.appendJSONString(author, to: out)
        }
        if let problem = record.problem {
            out.append(",\"error\":" as StaticString)
            if let message = record.message.resolve(scratch: scratch) {
                out.append(UInt8(ascii: "\""))
                Escaping.appendJSONStringBody(problem.description, to: out)
                out.append(": " as StaticString)
                Escaping.appendJSONStringBody(message, to: out)
                out.append(UInt8(ascii: "\""))
            } else {
                Escaping.appendJSONString(problem.description, to: out)
            }
            appendWarning(record, out)
            out.append("}\n" as StaticString)
            return
        }
        guard let prediction else {
            out.append(",\"error\":\"not classified\"}\n" as StaticString)
            return
        }
        let supported = prediction.language.isSupported
        if supported {
            out.append(",\"label\":\"" as StaticString)
            out.append(Self.labelName(prediction.label))
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(",\"label\":null" as StaticString)
        }
        out.append(",\"probabilities\":{\"negative\":" as StaticString)
        out.appendFixed4(prediction.probabilities.negative)
        out.append(",\"neutral\":" as StaticString)
        out.appendFixed4(prediction.probabilities.neutral)
        out.append(",\"positive\":" as StaticString)
        out.appendFixed4(prediction.probabilities.positive)
        out.append("},\"score\":" as StaticString)
        out.appendFixed4(prediction.score)
        out.append(",\"lang\":" as StaticString)
        appendLanguage(prediction.language, out) { Escaping.appendJSONString($0, to: out) }
        if !supported { out.append(",\"unsupported\":true" as StaticString) }
        appendWarning(record, out)
        out.append("}\n" as StaticString)
    }

    /// `,"warning":"…"` when the record has one.
    @inline(__always)
    private func appendWarning(_ record: TweetRecord, _ out: ByteBuffer) {
        guard let warning = record.warning else { return }
        out.append(",\"warning\":\"" as StaticString)
        out.append(warning)
        out.append(UInt8(ascii: "\""))
    }

    // MARK: - TSV and CSV

    private func writeDelimited(
        _ record: TweetRecord, _ prediction: Prediction?, _ scratch: ByteBuffer, _ out: ByteBuffer, separator: UInt8
    ) {
        func field(_ bytes: UnsafeRawBufferPointer) {
            if separator == UInt8(ascii: "\t") {
                Escaping.appendTSVField(bytes, to: out)
            } else {
                Escaping.appendCSVField(bytes, to: out)
            }
        }
        out.appendDecimal(record.line)
        out.append(separator)
        if record.index >= 0 { out.appendDecimal(record.index) }
        out.append(separator)
        if let id = record.id.resolve(scratch: scratch) { field(id) }
        out.append(separator)
        if let user = record.user.resolve(scratch: scratch) { field(user) }
        out.append(separator)
        if let author = record.authorID.resolve(scratch: scratch) { field(author) }
        out.append(separator)
        guard record.problem == nil, let prediction else {
            for _ in 0..<6 { out.append(separator) }  // label … lang
            var message = record.errorMessage(scratch: scratch) ?? "not classified"
            message.withUTF8 { field(UnsafeRawBufferPointer($0)) }
            out.append(separator)
            if let warning = record.warning { out.append(warning) }
            out.append(UInt8(ascii: "\n"))
            return
        }
        if prediction.language.isSupported { out.append(Self.labelName(prediction.label)) }
        out.append(separator)
        out.appendFixed4(prediction.probabilities.negative)
        out.append(separator)
        out.appendFixed4(prediction.probabilities.neutral)
        out.append(separator)
        out.appendFixed4(prediction.probabilities.positive)
        out.append(separator)
        out.appendFixed4(prediction.score)
        out.append(separator)
        appendLanguage(prediction.language, out, field)
        out.append(separator)  // error
        out.append(separator)
        if let warning = record.warning { out.append(warning) }
        out.append(UInt8(ascii: "\n"))
    }

    // MARK: - Pieces

    @inline(__always)
    private static func labelName(_ label: SentimentLabel) -> StaticString {
        switch label {
        case .negative: "negative"
        case .neutral: "neutral"
        case .positive: "positive"
        }
    }

    /// The language tag: literals for the common tags, the escaped code otherwise.
    @inline(__always)
    private func appendLanguage(_ language: Language, _ out: ByteBuffer, _ field: (UnsafeRawBufferPointer) -> Void) {
        let quoted = format == .jsonl
        switch language {
        case .english: out.append(quoted ? "\"en\"" as StaticString : "en")
        case .undetermined: out.append(quoted ? "\"und\"" as StaticString : "und")
        case .unsupported(let code):
            var code = code
            code.withUTF8 { field(UnsafeRawBufferPointer($0)) }
        }
    }
}

/// Escaping of field values for each output format. Invalid UTF-8 becomes U+FFFD.
enum Escaping {
    /// Appends `bytes` as a JSON string, quotes included.
    static func appendJSONString(_ bytes: UnsafeRawBufferPointer, to out: ByteBuffer) {
        out.append(UInt8(ascii: "\""))
        appendJSONStringBody(bytes, to: out)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `bytes` escaped for the inside of a JSON string.
    static func appendJSONStringBody(_ bytes: UnsafeRawBufferPointer, to out: ByteBuffer) {
        appendEscaped(bytes, to: out) { byte, out in
            switch byte {
            case UInt8(ascii: "\""): out.append("\\\"" as StaticString)
            case UInt8(ascii: "\\"): out.append("\\\\" as StaticString)
            case 0x0A: out.append("\\n" as StaticString)
            case 0x0D: out.append("\\r" as StaticString)
            case 0x09: out.append("\\t" as StaticString)
            case 0x08: out.append("\\b" as StaticString)
            case 0x0C: out.append("\\f" as StaticString)
            case ..<0x20:
                let hex: StaticString = "0123456789abcdef"
                out.append("\\u00" as StaticString)
                out.append(hex.utf8Start[Int(byte >> 4)])
                out.append(hex.utf8Start[Int(byte & 0xF)])
            default: return false
            }
            return true
        }
    }

    /// Appends a `String` as a JSON string, quotes included.
    static func appendJSONString(_ text: String, to out: ByteBuffer) {
        var text = text
        text.withUTF8 { appendJSONString(UnsafeRawBufferPointer($0), to: out) }
    }

    /// Appends a `String` escaped for the inside of a JSON string.
    static func appendJSONStringBody(_ text: String, to out: ByteBuffer) {
        var text = text
        text.withUTF8 { appendJSONStringBody(UnsafeRawBufferPointer($0), to: out) }
    }

    /// Appends a TSV field: `\` tab, newline, carriage return and NUL as `\\`
    /// `\t` `\n` `\r` `\0` (a raw NUL ends the field for tools written in C).
    static func appendTSVField(_ bytes: UnsafeRawBufferPointer, to out: ByteBuffer) {
        appendEscaped(bytes, to: out) { byte, out in
            switch byte {
            case 0x00: out.append("\\0" as StaticString)
            case UInt8(ascii: "\\"): out.append("\\\\" as StaticString)
            case 0x09: out.append("\\t" as StaticString)
            case 0x0A: out.append("\\n" as StaticString)
            case 0x0D: out.append("\\r" as StaticString)
            default: return false
            }
            return true
        }
    }

    /// Appends a CSV field, in double quotes (with `"` doubled) when it holds a
    /// comma, a quote, a carriage return or a newline (RFC 4180). CSV has no
    /// escape for NUL, which ends the field for tools written in C: it is
    /// written as U+FFFD, as an ill-formed byte is.
    static func appendCSVField(_ bytes: UnsafeRawBufferPointer, to out: ByteBuffer) {
        let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else {
            appendEscaped(bytes, to: out) { byte, out in
                guard byte == 0x00 else { return false }
                out.append("\u{FFFD}" as StaticString)
                return true
            }
            return
        }
        out.append(UInt8(ascii: "\""))
        appendEscaped(bytes, to: out) { byte, out in
            switch byte {
            case UInt8(ascii: "\""): out.append("\"\"" as StaticString)
            case 0x00: out.append("\u{FFFD}" as StaticString)
            default: return false
            }
            return true
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Copies `bytes` to `out` in runs; `escape` writes the replacement of an
    /// ASCII byte and returns true, or returns false to keep it. Ill-formed
    /// UTF-8 sequences become U+FFFD, one per byte that cannot start a sequence.
    @inline(__always)
    private static func appendEscaped(
        _ bytes: UnsafeRawBufferPointer, to out: ByteBuffer, escape: (UInt8, ByteBuffer) -> Bool
    ) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = bytes.count
        var runStart = 0
        var i = 0
        while i < count {
            let byte = base[i]
            if byte < 0x80 {
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                out.append(UnsafeRawBufferPointer(start: base + runStart, count: i - runStart))
                if !escape(byte, out) { out.append(byte) }
                i += 1
                runStart = i
                continue
            }
            let length = UTF8Validation.sequenceLength(base, at: i, count: count)
            if length > 0 {
                i += length
                continue
            }
            out.append(UnsafeRawBufferPointer(start: base + runStart, count: i - runStart))
            out.append("\u{FFFD}" as StaticString)
            i += 1
            runStart = i
        }
        out.append(UnsafeRawBufferPointer(start: base + runStart, count: i - runStart))
    }
}
