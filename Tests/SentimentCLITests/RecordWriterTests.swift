import Sentiment
import Testing

/// Output formatting: numbers, escaping, the three formats, the summary line.
@Suite("Record writer")
struct RecordWriterTests {
    private let positive = Prediction(
        label: .positive, probabilities: ClassProbabilities(negative: 0.0123, neutral: 0.1034, positive: 0.8843),
        language: .english)
    private let spanish = Prediction(
        label: .neutral, probabilities: ClassProbabilities(negative: 0.2, neutral: 0.5, positive: 0.3),
        language: .unsupported(code: "es"))

    /// Formats records with `format`; `id` and `user` are attached to each.
    private func format(
        _ format: OutputFormat, id: [UInt8]? = nil, user: [UInt8]? = nil, _ records: [(TweetRecord, Prediction?)],
        header: Bool = false
    ) -> String {
        let out = ByteBuffer()
        let scratch = ByteBuffer()
        let writer = RecordWriter(format: format)
        if header { writer.writeHeader(into: out) }
        (id ?? []).withUnsafeBytes { idBuffer in
            (user ?? []).withUnsafeBytes { userBuffer in
                for (record, prediction) in records {
                    var record = record
                    if id != nil { record.id = ByteRef(pointer: idBuffer.baseAddress, offset: 0, count: idBuffer.count) }
                    if user != nil { record.user = ByteRef(pointer: userBuffer.baseAddress, offset: 0, count: userBuffer.count) }
                    writer.write(record, prediction: prediction, scratch: scratch, into: out)
                }
            }
        }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    // MARK: - Numbers

    @Test("Fixed four-decimal numbers", arguments: [
        (0.8843, "0.8843"), (0.88435, "0.8844"), (1.0, "1.0000"), (0.0, "0.0000"), (-0.0, "0.0000"),
        (-0.12, "-0.1200"), (0.00004, "0.0000"), (-0.00004, "0.0000"), (-0.99996, "-1.0000"),
        (12.5, "12.5000"), (Double.nan, "null"), (Double.infinity, "null"),
    ])
    func fixed4(value: Double, text: String) {
        let buffer = ByteBuffer()
        buffer.appendFixed4(value)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == text)
    }

    @Test("Every four-decimal value from -1 to 1 is written digit for digit")
    func fixed4EveryValue() {
        var wrong: [String] = []
        for k in -10_000...10_000 {
            let buffer = ByteBuffer(capacity: 1)
            buffer.appendFixed4(Double(k) / 10_000)
            let digits = String(abs(k) % 10_000)
            let expected = (k < 0 ? "-" : "") + "\(abs(k) / 10_000)." + String(repeating: "0", count: 4 - digits.count) + digits
            let written = String(decoding: buffer.bytes, as: UTF8.self)
            if written != expected { wrong.append("\(k): \(written)") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("Decimal integers", arguments: [0, 7, 10, 99, 100, 101, 1234567890, Int.max, -42])
    func decimal(value: Int) {
        let buffer = ByteBuffer(capacity: 1)
        buffer.appendDecimal(value)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == String(value))
    }

    @Test("Every integer below a million is written as Swift writes it")
    func decimalEveryValue() {
        let buffer = ByteBuffer()
        var wrong: [Int] = []
        for value in 0..<1_000_000 {
            buffer.removeAll()
            buffer.appendDecimal(value)
            if String(decoding: buffer.bytes, as: UTF8.self) != String(value) { wrong.append(value) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    // MARK: - JSON Lines

    @Test("A classified record in JSON Lines")
    func jsonRecord() {
        #expect(format(.jsonl, id: Array("1234".utf8), [(TweetRecord(line: 3), positive)])
            == #"{"line":3,"id":"1234","label":"positive","probabilities":{"negative":0.0123,"neutral":0.1034,"positive":0.8843},"score":0.8720,"lang":"en"}"# + "\n")
    }

    @Test("An unsupported language keeps the probabilities and has label null")
    func jsonUnsupported() {
        var record = TweetRecord(line: 5, index: 2)
        record.invalidUTF8 = true
        #expect(format(.jsonl, [(record, spanish)])
            == #"{"line":5,"index":2,"label":null,"probabilities":{"negative":0.2000,"neutral":0.5000,"positive":0.3000},"score":0.1000,"lang":"es","unsupported":true,"warning":"invalid UTF-8"}"# + "\n")
    }

    @Test("An error record in JSON Lines")
    func jsonError() {
        let record = TweetRecord(line: 4, problem: .malformedJSON(JSONError(.unexpectedEnd, at: 17)))
        #expect(format(.jsonl, [(record, nil)]) == #"{"line":4,"error":"malformed JSON: unexpected end of input at byte 17"}"# + "\n")
    }

    @Test("JSON strings escape quotes, backslashes and control characters and replace invalid UTF-8")
    func jsonEscaping() {
        let id: [UInt8] = Array("a\"b\\c\n\t\u{1}é😍".utf8) + [0xFF, 0x41]
        let line = format(.jsonl, id: id, [(TweetRecord(line: 1, problem: .noTextField), nil)])
        #expect(line == #"{"line":1,"id":"a\"b\\c\n\t\u0001é😍"# + "\u{FFFD}" + #"A","error":"no text field"}"# + "\n")
    }

    // MARK: - TSV and CSV

    @Test("TSV rows: label empty when unsupported, escapes in fields, error rows")
    func tsvRows() {
        let text = format(.tsv, id: Array("x\ty\\z".utf8), user: Array("bob".utf8), [
            (TweetRecord(line: 1), positive),
            (TweetRecord(line: 2, index: 1), spanish),
            (TweetRecord(line: 3, problem: .emptyLine), nil),
        ], header: true)
        #expect(text == """
            line\tindex\tid\tuser\tauthor_id\tlabel\tnegative\tneutral\tpositive\tscore\tlang\terror\twarning
            1\t\tx\\ty\\\\z\tbob\t\tpositive\t0.0123\t0.1034\t0.8843\t0.8720\ten\t\t
            2\t1\tx\\ty\\\\z\tbob\t\t\t0.2000\t0.5000\t0.3000\t0.1000\tes\t\t
            3\t\tx\\ty\\\\z\tbob\t\t\t\t\t\t\t\tempty line\t

            """)
    }

    @Test("CSV fields with commas, quotes or newlines are quoted, quotes doubled", arguments: [
        ("plain", "plain"), ("a,b", #""a,b""#), (#"say "hi""#, #""say ""hi""""#), ("two\nlines", "\"two\nlines\""),
        ("", ""),
    ])
    func csvQuoting(id: String, field: String) {
        let text = format(.csv, id: Array(id.utf8), [(TweetRecord(line: 1, problem: .emptyText), nil)])
        #expect(text == "1,,\(field),,,,,,,,,empty text,\n")
    }

    @Test("CSV header and a classified row")
    func csvRow() {
        #expect(format(.csv, [(TweetRecord(line: 9), positive)], header: true)
            == "line,index,id,user,author_id,label,negative,neutral,positive,score,lang,error,warning\n9,,,,,positive,0.0123,0.1034,0.8843,0.8720,en,,\n")
    }

    // MARK: - Summary

    @Test("The summary line")
    func summary() {
        var tally = Tally()
        tally.records = 1000
        tally.positive = 410
        tally.neutral = 420
        tally.negative = 160
        tally.errors = 10
        #expect(Summary.line(tally, seconds: 0.42)
            == "classified 1000 records (positive 410, neutral 420, negative 160, errors 10) in 0.42 s, 2381 tweets/s")
        tally.unsupported = 3
        #expect(Summary.line(tally, seconds: 2).contains("negative 160, unsupported 3, errors 10) in 2.00 s, 500 tweets/s"))
        #expect(Summary.line(Tally(), seconds: 0)
            == "classified 0 records (positive 0, neutral 0, negative 0, errors 0) in 0.00 s, 0 tweets/s")
    }
}
