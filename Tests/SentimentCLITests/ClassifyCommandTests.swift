import Foundation
import Testing

/// `sentiment classify`, run as a subprocess on the fixtures: exact record
/// counts and order, ids, labels of obvious sentences, error records, formats
/// and exit statuses.
@Suite("sentiment classify", .serialized)
struct ClassifyCommandTests {
    typealias Run = SentimentExecutable.Run

    private func classify(_ arguments: [String], input: String? = nil) async throws -> Run {
        try await SentimentExecutable.run(["classify"] + arguments, input: input.map { Data($0.utf8) })
    }

    private func fixture(_ name: String) -> String { SentimentExecutable.fixture(name) }

    /// Starts `sentiment arguments…` writing to `standardOutput`, with standard
    /// error in the file `errors` (read it after `SentimentExecutable.exit(of:)`).
    private func start(_ arguments: [String], standardOutput: Any, errors: URL) throws -> Process {
        let process = try SentimentExecutable.process(arguments)
        process.standardOutput = standardOutput
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        return process
    }

    // MARK: - Input kinds

    @Test("Plain text gives one record per line with golden labels")
    func plainText() async throws {
        let run = try await classify([fixture("plain.txt")])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try run.records()
        #expect(records.map { $0["line"] as? Int } == Array(1...6))
        try #require(records.count > 1, "\(records)")
        #expect(records[0]["label"] as? String == "positive")  // I love this!!! 😍
        #expect(records[1]["label"] as? String == "negative")  // worst day ever :(
        for record in records {
            #expect(record["id"] == nil)
            #expect(record["lang"] as? String == "en")
            let probabilities = try #require(record["probabilities"] as? [String: Double])
            #expect(probabilities.keys.sorted() == ["negative", "neutral", "positive"])
            #expect(abs(probabilities.values.reduce(0, +) - 1) < 0.001)
            let score = try #require(record["score"] as? Double)
            #expect(abs(score - (probabilities["positive"]! - probabilities["negative"]!)) < 0.00015)
        }
        #expect(run.stderr.hasPrefix("classified 6 records (positive "))
        #expect(run.stderr.contains("errors 0) in "))
        #expect(run.stderr.hasSuffix(" tweets/s\n"))
    }

    @Test("A non-blocking standard input is waited on, before its first line and between lines, and every line is classified", arguments: [1, 2])
    func nonBlockingStandardInput(threads: Int) async throws {
        let first = String(repeating: "what a lovely day\n", count: 3_000)
        let run = try await SentimentExecutable.runWithLateNonBlockingInput(
            ["classify", "--threads", "\(threads)"], input: Data(first.utf8), more: Data("worst day ever :(\n".utf8))
        #expect(run.status == 0, "\(run.stderr)")
        let records = try run.records()
        #expect(records.count == 3_001)
        #expect(records.last?["line"] as? Int == 3_001)
        #expect(records.last?["label"] as? String == "negative")
        #expect(run.stderr.hasPrefix("classified 3001 records"), "\(run.stderr)")
    }

    @Test("A first line of one character, or an empty one, is answered as it arrives while standard input stays open, as longer lines are",
          arguments: ["x\n", "\n", "what a lovely day\n"])
    func shortFirstLineIsAnsweredAtOnce(line: String) async throws {
        let process = try SentimentExecutable.process(["classify"])
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(line.utf8))
        // No more input comes until the record is out: a reader that holds the line back never answers.
        var ready = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let answered = poll(&ready, 1, 20_000) == 1
        #expect(answered, "no record within 20 s while standard input stayed open")
        try input.fileHandleForWriting.close()
        let records = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        _ = await SentimentExecutable.exit(of: process, timeLimit: .seconds(60))
        #expect(records.count == 1 && records.first?.hasPrefix(#"{"line":1,"#) == true, "\(records)")
    }

    @Test("A folder on standard input, alone or after a file, exits 66 before any output or summary, as a folder named as an input does")
    func folderOnStandardInputIsRefusedFirst() async throws {
        let sentiment = try #require(SentimentExecutable.url)
        for command in [#"exec "$0" classify < /"#, #"exec "$0" classify "$1" - < /"#] {
            let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
                ["-c", command, sentiment.path, fixture("plain.txt")])
            #expect(run.status == 66, "\(command): \(run.stderr)")
            #expect(run.output.isEmpty, "\(command)")
            #expect(run.stderr == "sentiment: cannot read standard input: Is a directory\n", "\(command): \(run.stderr)")
        }
    }

    @Test("Numbers have exactly four decimals and fields come in a fixed order")
    func recordLayout() async throws {
        let run = try await classify([], input: "I love this!!! 😍\n")
        let line = try #require(run.outputLines.first)
        let pattern = #/^\{"line":1,"label":"positive","probabilities":\{"negative":0\.\d{4},"neutral":0\.\d{4},"positive":[01]\.\d{4}\},"score":-?[01]\.\d{4},"lang":"en"\}$/#
        #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
    }

    @Test("v1.1 tweets keep 19-digit ids and user names")
    func twitterV1() async throws {
        let run = try await classify([fixture("v1.jsonl")])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try run.records()
        #expect(records.map { $0["line"] as? Int } == Array(1...7))
        #expect(records.map { $0["id"] as? String } == (1_050_118_621_198_921_728...1_050_118_621_198_921_734).map { String($0) })
        #expect(records.map { $0["user"] as? String } == [
            "happy_hanna", "grumpy_gus", "retweeter_rita", "tweet_mode", "calendar_bot", "esc\"aper", "surrogate",
        ])
        try #require(records.count > 3, "\(records)")
        #expect(records[0]["label"] as? String == "positive")
        #expect(records[1]["label"] as? String == "negative")  // extended_tweet.full_text, not the truncated text
        #expect(records[2]["label"] as? String == "positive")  // the retweeted tweet's full text
        #expect(records[3]["label"] as? String == "negative")  // full_text
        #expect(run.outputLines[4].hasPrefix(#"{"line":5,"id":"1050118621198921732","user":"calendar_bot","#))
        #expect(run.outputLines[5].contains(#""user":"esc\"aper""#))
    }

    @Test("v2 tweets carry id and author_id; note_tweet.text is the text of long posts")
    func twitterV2() async throws {
        let run = try await classify([fixture("v2.jsonl")])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try run.records()
        #expect(records.map { $0["id"] as? String } == ["1460323737035677698", "1460323737035677699", "1460323737035677700"])
        #expect(records.map { $0["author_id"] as? String } == ["2244994945", "783214", "783214"])
        #expect(records.map { $0["label"] as? String } == ["positive", "negative", "negative"])
    }

    @Test("v2 pages give one record per element with its index; empty and error pages one error record")
    func twitterV2Pages() async throws {
        let run = try await classify([fixture("v2-pages.jsonl")])
        #expect(run.status == 65)
        let records = try run.records()
        #expect(records.map { $0["line"] as? Int } == [1, 1, 1, 2, 3, 4])
        #expect(records.map { $0["index"] as? Int } == [0, 1, 2, nil, nil, nil])
        #expect(records.map { $0["id"] as? String } == [
            "1460323737035677701", "1460323737035677702", "1460323737035677703", nil, nil, "1460323737035677704",
        ])
        #expect(records.map { $0["error"] as? String } == [
            nil, nil, "no text field", "empty page",
            "API error: Could not find tweet with ids: [1460323737035677799].", nil,
        ])
        try #require(records.count > 1, "\(records)")
        #expect(records[0]["label"] as? String == "positive")
        #expect(records[1]["label"] as? String == "negative")
        #expect(run.stderr.contains("classified 6 records ("))
        #expect(run.stderr.contains("errors 3) in "))
    }

    @Test("A v1.1 timeline response, a JSON array of tweets on one line, gives one record per tweet with its index, as import reads it, not one text of its JSON")
    func twitterV1Arrays() async throws {
        let timeline = #"[{"id_str":"1050118621198921728","text":"I love this!!! 😍","user":{"screen_name":"happy_hanna"}},"#
            + #"{"id":1050118621198921729,"full_text":"worst day ever :(","user":{"screen_name":"sad_sam"}}]"#
        let run = try await classify([], input: timeline + "\n[]\n[VIDEO] so good\n")
        #expect(run.status == 65)
        let records = try run.records()
        #expect(records.map { $0["line"] as? Int } == [1, 1, 2, 3])
        #expect(records.map { $0["index"] as? Int } == [0, 1, nil, nil])
        #expect(records.map { $0["id"] as? String } == ["1050118621198921728", "1050118621198921729", nil, nil])
        #expect(records.map { $0["user"] as? String } == ["happy_hanna", "sad_sam", nil, nil])
        #expect(records.map { $0["label"] as? String } == ["positive", "negative", nil, "positive"])
        #expect(records.map { $0["error"] as? String } == [nil, nil, "empty array", nil])
        #expect(run.stderr.contains("classified 4 records (positive 2, neutral 0, negative 1, errors 1) in "), "\(run.stderr)")
    }

    @Test("Bad lines give error records in place, the rest is classified, and the exit status is 65")
    func mixedWithBadLines() async throws {
        let run = try await classify([fixture("mixed.jsonl")])
        #expect(run.status == 65)
        #expect(run.outputLines.count == 10)
        let records = try run.records()
        #expect(records.map { $0["line"] as? Int } == Array(1...10))
        #expect(records.map { $0["error"] as? String } == [
            nil,
            "malformed JSON: unexpected end of input at byte 40",
            "no text field",
            "empty line",
            "empty line",
            nil,
            "empty text",
            "malformed JSON: invalid escape at byte 25",
            "malformed JSON: unexpected character 'x' at byte 33",
            nil,
        ])
        #expect(records.map { $0["id"] as? String } == [nil, nil, "2", nil, nil, "3", "4", nil, nil, nil])
        #expect(records.map { $0["label"] as? String } == ["positive", nil, nil, nil, nil, "positive", nil, nil, nil, "negative"])
        #expect(run.outputLines[3] == #"{"line":4,"error":"empty line"}"#)
        #expect(run.stderr.contains("errors 7) in "))
    }

    @Test("Invalid UTF-8 is classified with a warning, not dropped")
    func invalidUTF8() async throws {
        let run = try await classify([fixture("invalid-utf8.txt")])
        #expect(run.status == 0)
        let records = try run.records()
        #expect(records.map { $0["line"] as? Int } == [1, 2, 3])
        #expect(records.map { $0["warning"] as? String } == ["invalid UTF-8", "invalid UTF-8", nil])
        #expect(records.allSatisfy { $0["probabilities"] != nil })
        try #require(records.count > 0, "\(records)")
        #expect(records[0]["label"] as? String == "positive")
    }

    @Test("Bad bytes score as the U+FFFD they are read as: a tweet cut inside an emoji keeps its last word")
    func invalidBytesScoreAsReplacement() async throws {
        let bad: [UInt8] = Array("so sad".utf8) + [0xF0, 0x9F, 0x98] + Array("\ncaf".utf8) + [0xE9] + Array(" was great\n".utf8)
        let run = try await SentimentExecutable.run(["classify"], input: Data(bad))
        let replaced = try await classify([], input: "so sad\u{FFFD}\ncaf\u{FFFD} was great\n")
        let records = try run.records(), expected = try replaced.records()
        try #require(records.count == 2 && expected.count == 2)
        for (record, want) in zip(records, expected) {
            #expect(record["warning"] as? String == "invalid UTF-8")
            #expect(record["label"] as? String == want["label"] as? String)
            #expect(record["probabilities"] as? [String: Double] == want["probabilities"] as? [String: Double])
        }
        #expect(records.map { $0["label"] as? String } == ["negative", "positive"])
    }

    @Test("A JSON text with a lone surrogate escape is classified with a warning, in every format", arguments: ["jsonl", "tsv"])
    func loneSurrogate(format: String) async throws {
        // What a tool that cuts tweets at 140 UTF-16 units leaves of an emoji at the end.
        let input = #"{"id":"1","text":"best day of the year \ud83d"}"# + "\n" + #"{"id":"2","text":"best day \ud83d\ude0d"}"# + "\n"
        let run = try await classify(["--format", format], input: input)
        #expect(run.status == 0, "\(run.stderr)")
        if format == "jsonl" {
            let records = try run.records()
            #expect(records.map { $0["warning"] as? String } == ["lone surrogate", nil])
            #expect(records.map { $0["label"] as? String } == ["positive", "positive"])
        } else {
            let rows = run.outputLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            #expect(rows.map { $0.last } == ["warning", "lone surrogate", ""])
        }
    }

    @Test("TSV and CSV carry the invalid UTF-8 warning in their last column", arguments: ["tsv", "csv"])
    func invalidUTF8Delimited(format: String) async throws {
        let run = try await classify(["--format", format, fixture("invalid-utf8.txt")])
        #expect(run.status == 0)
        let separator: Character = format == "tsv" ? "\t" : ","
        let rows = run.outputLines.map { $0.split(separator: separator, omittingEmptySubsequences: false) }
        try #require(rows.count == 4, "\(run.output)")
        #expect(rows[0].last == "warning")
        #expect(rows.dropFirst().map { $0.last } == ["invalid UTF-8", "invalid UTF-8", ""])
    }

    @Test("An error record whose id or user holds invalid UTF-8 or a lone surrogate carries the warning, in every format",
          arguments: ["jsonl", "tsv", "csv"])
    func errorRecordIdentifierWarnings(format: String) async throws {
        let lines: [[UInt8]] = [
            Array(#"{"id_str":"4"#.utf8) + [0xFF] + Array(#"2","text":""}"#.utf8),
            Array(#"{"id_str":"5","user":{"screen_name":"b"#.utf8) + [0xC3] + Array(#"b"},"text":7}"#.utf8),
            Array(#"{"id_str":"\ud800","text":"   "}"#.utf8),
            Array(#"{"id_str":"6","text":""}"#.utf8),
        ]
        let run = try await SentimentExecutable.run(["classify", "--format", format], input: Data(lines.joined(separator: [10]) + [10]))
        #expect(run.status == 65, "\(run.stderr)")
        let expected = ["invalid UTF-8", "invalid UTF-8", "lone surrogate", nil]
        if format == "jsonl" {
            let records = try run.records()
            #expect(records.map { $0["error"] != nil } == [true, true, true, true])
            #expect(records.map { $0["warning"] as? String } == expected)
            #expect(records.map { $0["id"] as? String } == ["4\u{FFFD}2", "5", "\u{FFFD}", "6"])
        } else {
            let rows = run.outputLines.dropFirst().map { $0.split(separator: format == "tsv" ? "\t" : ",", omittingEmptySubsequences: false) }
            #expect(rows.map { $0.last.map(String.init) } == expected.map { $0 ?? "" })
        }
    }

    @Test("A line over 1 MiB is an error record and the lines around it are kept")
    func hugeLine() async throws {
        var input = Data("I love this!!! 😍\n".utf8)
        input.append(Data(repeating: UInt8(ascii: "a"), count: 2_000_000))
        input.append(Data("\nworst day ever :(\n".utf8))
        input.append(Data(repeating: UInt8(ascii: "b"), count: 1 << 20))  // exactly the limit: kept
        input.append(Data("\r\n".utf8))
        let run = try await SentimentExecutable.run(["classify"], input: input)
        #expect(run.status == 65)
        let records = try run.records()
        #expect(records.map { $0["line"] as? Int } == [1, 2, 3, 4])
        #expect(records.map { $0["error"] as? String } == [nil, "line longer than 1048576 bytes", nil, nil])
        #expect(records.prefix(3).map { $0["label"] as? String } == ["positive", nil, "negative"])
        try #require(records.count > 3, "\(records)")
        #expect(records[3]["probabilities"] != nil)
    }

    @Test("A file whose lines end in a carriage return alone (classic Mac OS) is one line; over 1 MiB, its error says why and how to convert it")
    func carriageReturnLinesAreNamedInTheTooLongError() async throws {
        let input = Data(String(repeating: "what a lovely day\r", count: 70_000).utf8)
        let run = try await SentimentExecutable.run(["classify"], input: input)
        #expect(run.status == 65)
        let records = try run.records()
        try #require(records.count == 1, "\(run.output.prefix(500))")
        #expect(records[0]["error"] as? String
            == #"line longer than 1048576 bytes; it holds carriage returns, and lines end at \n, not at \r alone (tr '\r' '\n' converts such a file)"#)
    }

    @Test("A short file whose lines end in a carriage return alone is still one record, with one warning per such input on standard error; a CR-LF file, or a stray CR in a first line, gets none")
    func shortCarriageReturnFileIsWarnedAbout() async throws {
        let folder = try TemporaryFolder("classify-carriage-returns")
        let mac = folder.appendingPathComponent("mac.txt")
        try Data("what a lovely day\rworst day ever\rsee you soon\r".utf8).write(to: mac)
        let crlf = folder.appendingPathComponent("crlf.txt")
        try Data("what a lovely day\r\nworst day ever\r\n".utf8).write(to: crlf)
        let run = try await classify([mac.path, crlf.path, "-"], input: "so happy today\rbye\r")
        #expect(run.status == 0, "\(run.stderr)")
        let records = try run.records()
        #expect(records.map { $0["line"] as? Int } == [1, 2, 3, 4])
        #expect(records.allSatisfy { $0["label"] is String && $0["error"] == nil }, "\(records)")
        let advice = #"holds carriage returns, and lines end at \n, not at \r alone (tr '\r' '\n' converts such a file)"#
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("carriage returns") }.map(String.init)
        #expect(warnings == ["sentiment: warning: \(mac.path): line 1 \(advice)", "sentiment: warning: standard input: line 4 \(advice)"],
                "\(run.stderr)")
        // A stray \r in the first line of a file of lines is not a classic Mac file.
        let stray = folder.appendingPathComponent("stray.txt")
        try Data("what a\rlovely day\nworst day ever\n".utf8).write(to: stray)
        let windows = try await classify([crlf.path, stray.path])
        #expect(windows.status == 0, "\(windows.stderr)")
        #expect(try windows.records().count == 4)
        #expect(!windows.stderr.contains("carriage"), "\(windows.stderr)")
    }

    @Test("A JSON line over 1 MiB keeps the id and user it starts with in its error record")
    func hugeJSONLineKeepsItsID() async throws {
        var input = Data(#"{"id_str":"1001","user":{"screen_name":"bob"},"text":""#.utf8)
        input.append(Data(repeating: UInt8(ascii: "a"), count: 2_000_000))
        input.append(Data("\"}\n{\"id\":1002,\"text\":\"worst day ever :(\"}\n".utf8))
        let run = try await SentimentExecutable.run(["classify"], input: input)
        #expect(run.status == 65)
        let records = try run.records()
        try #require(records.count == 2, "\(run.output)")
        #expect(records[0]["id"] as? String == "1001")
        #expect(records[0]["user"] as? String == "bob")
        #expect(records[0]["error"] as? String == "line longer than 1048576 bytes")
        #expect(records[1]["id"] as? String == "1002")
        #expect(records[1]["label"] as? String == "negative")
    }

    @Test("Unsupported languages get label null, the language tag and unsupported true")
    func unsupportedLanguage() async throws {
        let run = try await classify([], input: "今日はとても楽しい一日でした。ありがとう！\n¡Qué día tan bonito! Me encanta el sol de la mañana y el café con mis amigos.\n")
        #expect(run.status == 0)
        let records = try run.records()
        #expect(records.count == 2)
        for record in records {
            #expect(record["label"] is NSNull)
            #expect(record["unsupported"] as? Bool == true)
            #expect(record["probabilities"] != nil)
            #expect((record["lang"] as? String).map { $0 != "en" && $0 != "und" } == true)
        }
        try #require(records.count > 1, "\(records)")
        #expect(records[1]["lang"] as? String == "es")
        #expect(run.stderr.contains("unsupported 2"))
    }

    @Test("Emoji-only text is scored with lang und")
    func undeterminedLanguage() async throws {
        let records = try await classify([], input: "😍😍😍\n").records()
        #expect(records.first?["lang"] as? String == "und")
        #expect(records.first?["label"] is String)
        #expect(records.first?["unsupported"] == nil)
    }

    // MARK: - Inputs

    @Test("Empty input gives no records, the summary and status 0", arguments: [true, false])
    func emptyInput(fromFile: Bool) async throws {
        let run = fromFile ? try await classify([fixture("empty.txt")]) : try await classify([], input: "")
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "classified 0 records (positive 0, neutral 0, negative 0, errors 0) in 0.00 s, 0 tweets/s\n"
            || run.stderr.hasPrefix("classified 0 records (positive 0, neutral 0, negative 0, errors 0) in "))
    }

    @Test("Several inputs are read in order with line numbers running on; '-' is standard input")
    func severalInputs() async throws {
        let run = try await classify([fixture("plain.txt"), "-", fixture("v2.jsonl")], input: "one more line without newline")
        #expect(run.status == 0)
        let records = try run.records()
        #expect(records.map { $0["line"] as? Int } == Array(1...10))
        #expect(records.map { $0["id"] != nil } == Array(repeating: false, count: 7) + Array(repeating: true, count: 3))
    }

    @Test("A byte order mark at the start of a file does not hide its first JSON record")
    func byteOrderMark() async throws {
        let plain = try await classify([], input: "{\"id_str\":\"1\",\"text\":\"worst day ever :(\"}\n")
        let marked = try await classify([], input: "\u{FEFF}{\"id_str\":\"1\",\"text\":\"worst day ever :(\"}\n")
        #expect(marked.status == 0)
        #expect(marked.stdout == plain.stdout)
        #expect(try marked.records().first?["id"] as? String == "1")
    }

    @Test("A UTF-16 dump with a byte order mark (what Windows PowerShell's > writes) is classified record for record as its UTF-8 twin is")
    func utf16Input() async throws {
        let text = "I love this!!! 😍\r\nworst café ever :(\r\n{\"id_str\":\"7\",\"text\":\"so happy \\ud83d\\ude00\"}\r\n"
        let plain = try await classify([], input: text)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try plain.records().count == 3)
        for bigEndian in [false, true] {
            let units = text.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let run = try await SentimentExecutable.run(["classify"], input: Data((bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + units))
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == plain.stdout, "big-endian: \(bigEndian)")
        }
        // Half an emoji (a lone surrogate) is read as U+FFFD and flagged, as a UTF-8 file's bad bytes are.
        let cut = Array("so sad ".utf16) + [0xD83D] + Array("\n".utf16)
        let flagged = try await SentimentExecutable.run(["classify"], input: Data([0xFF, 0xFE] + cut.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }))
        let record = try #require(try flagged.records().first)
        #expect(record["warning"] as? String == "invalid UTF-8")
        #expect(record["label"] as? String == "negative")
    }

    @Test("An input holding a byte order mark alone is empty, and one with a line break after it holds one empty line")
    func byteOrderMarkAlone() async throws {
        let bare = try await classify([], input: "\u{FEFF}")
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(bare.stdout.isEmpty)
        let folder = try TemporaryFolder("sentiment-bom-tests")
        let markOnly = folder.appendingPathComponent("mark.txt")
        try Data([0xEF, 0xBB, 0xBF]).write(to: markOnly)
        let two = try await classify([markOnly.path, "-"], input: "so happy today :)\n")
        #expect(two.status == 0, "\(two.stderr)")
        let records = try two.records()
        #expect(records.count == 1, "the mark does not stick to the next input's first line: \(records)")
        #expect(records.first?["label"] as? String == "positive")
        let broken = try await classify([], input: "\u{FEFF}\n")
        #expect(broken.status == 65)
        #expect(try broken.records().map { $0["error"] as? String } == ["empty line"])
    }

    @Test("Records read before an input fails are written, then the run exits 66 naming it")
    func inputFailsPartWay() async throws {
        // /proc/self/mem passes the up-front check but cannot be read (EIO).
        let run = try await classify([fixture("plain.txt"), "/proc/self/mem"])
        #expect(run.status == 66)
        #expect(try run.records().map { $0["line"] as? Int } == Array(1...6))
        #expect(run.stderr.hasPrefix("classified 6 records"))
        #expect(run.stderr.contains("cannot read /proc/self/mem: "))
    }

    @Test("A reader that goes away ends the run quietly, without a signal, and the summary counts what it was sent")
    func readerGoesAway() async throws {
        let folder = try TemporaryFolder("classify-epipe")
        let input = folder.appendingPathComponent("input.txt")
        try Data(String(repeating: "I love this so much\n", count: 50_000).utf8).write(to: input)
        let output = Pipe()
        let errors = folder.appendingPathComponent("stderr")
        let process = try start(["classify", input.path], standardOutput: output, errors: errors)
        var first = Data()
        while first.count < 2_000 {
            let chunk = output.fileHandleForReading.readData(ofLength: 2_000 - first.count)
            if chunk.isEmpty { break }
            first += chunk
        }
        try output.fileHandleForReading.close()
        await SentimentExecutable.exit(of: process)
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(first.starts(with: Data(#"{"line":1,"#.utf8)))
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(!stderr.contains("cannot write"))
        // The records this reader took in full were written in full, so they are counted
        // (the batch they were in did not reach the pipe whole).
        let taken = first.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count - 1
        let counted = try #require(stderr.firstMatch(of: #/^classified (\d+) records \(/#)?.1, "\(stderr)")
        #expect(try #require(Int(counted)) >= taken, "\(stderr)")
        #expect(taken >= 10)
        #expect(stderr.hasSuffix(" tweets/s; stopped early: the output was closed\n"), "\(stderr)")
    }

    @Test("A reader that goes away after error records were written ends the run with status 0 all the same")
    func readerGoesAwayAfterErrors() async throws {
        let folder = try TemporaryFolder("classify-epipe-errors")
        let input = folder.appendingPathComponent("input.txt")
        try Data(("{\"text\": 1}\n" + String(repeating: "I love this so much\n", count: 50_000)).utf8).write(to: input)
        let output = Pipe()
        let errors = folder.appendingPathComponent("stderr")
        let process = try start(["classify", input.path], standardOutput: output, errors: errors)
        let first = output.fileHandleForReading.readData(ofLength: 200)
        try output.fileHandleForReading.close()
        await SentimentExecutable.exit(of: process)
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(first.starts(with: Data(#"{"line":1,"error":"#.utf8)), "\(String(decoding: first, as: UTF8.self))")
        #expect(stderr.contains("errors 1)"), "\(stderr)")
        #expect(stderr.hasSuffix("stopped early: the output was closed\n"), "\(stderr)")
        #expect(process.terminationStatus == 0, "\(stderr)")
    }

    @Test("A full disk exits 74 and the summary counts only what was written")
    func outputCannotBeWritten() async throws {
        let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let folder = try TemporaryFolder("classify-full")
        let errors = folder.appendingPathComponent("stderr")
        let process = try start(["classify", fixture("plain.txt")], standardOutput: full, errors: errors)
        await SentimentExecutable.exit(of: process)
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(process.terminationStatus == 74)
        #expect(stderr.hasPrefix("classified 0 records"))
        #expect(stderr.contains("cannot write the output: No space left on device"))
    }

    @Test("Ctrl-C (SIGINT) or SIGTERM while standard input stays open leaves whole records, a summary that says after which line it stopped, and ends the run by the signal",
          arguments: [SIGINT, SIGTERM])
    func interrupted(by signal: Int32) async throws {
        let folder = try TemporaryFolder("classify-interrupted")
        let outputURL = folder.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let errors = folder.appendingPathComponent("stderr")
        let input = Pipe()
        let process = try SentimentExecutable.process(["classify", "--threads", "2"])
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        // Three lines, one a v2 page of two tweets: four records; the pipe stays open, as a long dump's would.
        try input.fileHandleForWriting.write(contentsOf: Data(("I love this so much\n"
            + #"{"data":[{"id":"7","text":"what a great day"},{"id":"8","text":"worst day ever :("}]}"# + "\n"
            + "the meeting is at 3pm\n").utf8))
        let deadline = ContinuousClock.now + .seconds(60)
        while try Data(contentsOf: outputURL).count(where: { $0 == UInt8(ascii: "\n") }) < 4, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, signal)
        let killed = await SentimentExecutable.exit(of: process, timeLimit: .seconds(30))
        try input.fileHandleForWriting.close()
        #expect(!killed)
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(process.terminationReason == .uncaughtSignal, "\(stderr)")
        #expect(process.terminationStatus == signal, "\(stderr)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(stderr.hasPrefix("classified 4 records (positive "), "\(stderr)")
        #expect(stderr.hasSuffix(" tweets/s; interrupted by \(name) after input line 3: the lines after it were not classified\n"),
                "\(stderr)")
        let output = try Data(contentsOf: outputURL)
        #expect(output.last == UInt8(ascii: "\n"))
        let records = try output.split(separator: UInt8(ascii: "\n")).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
        }
        #expect(records.map { $0["line"] as? Int } == [1, 2, 2, 3])
        #expect(records.map { $0["id"] as? String } == [nil, "7", "8", nil])
    }

    @Test("Ctrl-C (SIGINT) or SIGTERM while the model is loading ends the run by the signal after a summary that says nothing was classified, instead of killing it silently",
          .enabled(if: SlowLoadingModel.available, "needs /proc to see the model loading"), arguments: [SIGINT, SIGTERM])
    func interruptedWhileLoading(by signal: Int32) async throws {
        let model = try SlowLoadingModel()
        let folder = try TemporaryFolder("classify-interrupted-loading")
        let outputURL = folder.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let errors = folder.appendingPathComponent("stderr")
        let input = Pipe()
        let process = try SentimentExecutable.process(["classify", "--model", model.path])
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try input.fileHandleForWriting.write(contentsOf: Data("I love this so much\n".utf8))
        let signalled = await model.signal(signal, to: process.processIdentifier, onceLoading: .seconds(120))
        try #require(signalled, "classify never opened the weights file (\(process.isRunning ? "still running" : "exited \(process.terminationStatus)")): \(String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self))")
        let killed = await SentimentExecutable.exit(of: process, timeLimit: .seconds(30))
        try input.fileHandleForWriting.close()
        #expect(!killed)
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(process.terminationReason == .uncaughtSignal, "\(stderr)")
        #expect(process.terminationStatus == signal, "\(stderr)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(stderr == "classified 0 records (positive 0, neutral 0, negative 0, errors 0) in 0.00 s, 0 tweets/s; "
                    + "interrupted by \(name) while the model was loading: nothing was classified\n")
        #expect(try Data(contentsOf: outputURL).isEmpty)
    }

    @Test("Ctrl-C (SIGINT) or SIGTERM once every record is written, while the warnings and the summary are still to be said, ends the run by the signal after them, instead of killing it before its summary",
          arguments: [SIGINT, SIGTERM])
    func interruptedBeforeTheSummary(by signal: Int32) async throws {
        let folder = try TemporaryFolder("classify-interrupted-summary")
        // A file whose lines end in \r alone is one line and a warning said after the run, once per input:
        // named 1,000 times, more warnings than standard error's pipe holds, so the main
        // thread waits on the pipe past the run, with its summary to say.
        let mac = folder.appendingPathComponent("mac.txt")
        try Data("what a lovely day\rworst day ever\r".utf8).write(to: mac)
        let outputURL = folder.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let process = try SentimentExecutable.process(["classify"] + Array(repeating: mac.path, count: 1_000))
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // A thread of it waiting in write(2) to standard error: nothing is written there during the run
        // (no terminal, no progress line), so the run is over, every record written, and the summary not yet said.
        let deadline = ContinuousClock.now + .seconds(120)
        while !Self.waitsWritingToStandardError(process.processIdentifier), process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(Self.waitsWritingToStandardError(process.processIdentifier),
                     "classify never waited on its standard error (\(process.isRunning ? "still running" : "exited"))")
        kill(process.processIdentifier, signal)
        let stderr = String(decoding: try errors.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        let killed = await SentimentExecutable.exit(of: process, timeLimit: .seconds(30))
        #expect(!killed)
        #expect(process.terminationReason == .uncaughtSignal, "\(stderr.suffix(300))")
        #expect(process.terminationStatus == signal, "\(stderr.suffix(300))")
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 1_002, "\(stderr.suffix(300))")
        #expect(lines.dropLast(2).allSatisfy { $0.hasPrefix("sentiment: warning: \(mac.path): line ") && $0.hasSuffix(" converts such a file)") })
        #expect(lines.dropLast().last?.hasPrefix("classified 1000 records (positive ") == true, "\(stderr.suffix(300))")
        #expect(lines.last == "")
        #expect(try Data(contentsOf: outputURL).count(where: { $0 == UInt8(ascii: "\n") }) == 1_000)
    }

    /// Whether a thread of the process `pid` waits in write(2) to its standard
    /// error, as /proc/PID/task/TID/syscall tells (the system call's number
    /// and its first argument, the descriptor). The command runs on a thread
    /// of its own, not on the process's first.
    private static func waitsWritingToStandardError(_ pid: Int32) -> Bool {
        #if arch(x86_64)
        let write = "1"
        #elseif arch(arm64)
        let write = "64"
        #else
        let write = "?"
        #endif
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return threads.contains { thread in
            guard let call = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/syscall", encoding: .utf8) else { return false }
            let fields = call.split(separator: " ")
            return fields.count > 1 && fields[0] == write && fields[1] == "0x2"
        }
    }

    @Test("CRLF line endings are stripped")
    func crlf() async throws {
        let lf = try await classify([], input: "I love this!!! 😍\n{\"id\":\"1\",\"text\":\"worst day ever :(\"}\n")
        let crlf = try await classify([], input: "I love this!!! 😍\r\n{\"id\":\"1\",\"text\":\"worst day ever :(\"}\r\n")
        #expect(crlf.status == 0)
        #expect(crlf.stdout == lf.stdout)
    }

    @Test("A missing file exits 66 naming it, before any output")
    func missingFile() async throws {
        let run = try await classify([fixture("plain.txt"), "no/such/file.txt"])
        #expect(run.status == 66)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("no/such/file.txt"))
    }

    @Test("Standard output appending to an input file is refused with 64 before a record is read, named or as standard input",
          arguments: [true, false])
    func outputIsAnInput(asStandardInput: Bool) async throws {
        let folder = try TemporaryFolder("classify-same-file")
        let file = folder.appendingPathComponent("tweets.txt")
        let lines = String(repeating: "what a lovely day\nworst day ever :(\n", count: 2_000)
        try Data(lines.utf8).write(to: file)
        let output = try FileHandle(forWritingTo: file)
        try output.seekToEnd()  // `>> tweets.txt`
        let errors = folder.appendingPathComponent("stderr")
        let process = try SentimentExecutable.process(["classify"] + (asStandardInput ? [] : [file.path]))
        process.standardOutput = output
        process.standardInput = asStandardInput ? try FileHandle(forReadingFrom: file) : FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        // Before the check, such a run read its own records back until the disk was full.
        let deadline = Task {
            try await Task.sleep(for: .seconds(60))
            process.terminate()
        }
        await SentimentExecutable.exit(of: process)
        deadline.cancel()
        try output.close()
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(process.terminationStatus == 64, "\(stderr)")
        #expect(try Data(contentsOf: file) == Data(lines.utf8))
        #expect(stderr.contains(asStandardInput ? "standard output is the file standard input reads"
                                                : "standard output is the file \(file.path)"), "\(stderr)")
    }

    @Test("A directory as input exits 66")
    func directoryInput() async throws {
        let run = try await classify([SentimentExecutable.fixtures.path])
        #expect(run.status == 66)
        #expect(run.stdout.isEmpty)
    }

    @Test("A missing model exits 66 and a malformed one 65, naming the file")
    func modelErrors() async throws {
        let missing = try await classify(["--model", "/no/such/model"], input: "hello\n")
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/no/such/model/manifest.json"))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sentiment-bad-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent("manifest.json"))
        let malformed = try await classify(["--model", directory.path], input: "hello\n")
        #expect(malformed.status == 65)
        #expect(malformed.stderr.contains("manifest.json"))
        #expect(malformed.stderr.split(separator: "\n").count == 1)

        // A manifest whose read fails (for root too: the process's memory at address 0) is unreadable: 66.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("manifest.json"))
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("manifest.json").path,
                                                   withDestinationPath: "/proc/self/mem")
        let unreadable = try await classify(["--model", directory.path], input: "hello\n")
        #expect(unreadable.status == 66)
        #expect(unreadable.stderr.contains("manifest.json: cannot read: Input/output error"), "\(unreadable.stderr)")
    }

    @Test("An empty --model is a usage error, not the current directory", arguments: ["classify", "explain", "eval"])
    func emptyModelIsRefused(command: String) async throws {
        let arguments = [command, "--model", ""] + (command == "eval" ? ["labelled.tsv"] : command == "explain" ? ["hi"] : [])
        let run = try await SentimentExecutable.run(arguments, input: Data("hello\n".utf8))
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--model needs a model directory"), "\(run.stderr)")
    }

    @Test("Usage errors exit 64", arguments: [
        ["--format", "xml"],
        ["--threads", "0"],
        ["--threads", "257"],
        ["--threads", "many"],
        ["--no-such-option"],
    ])
    func usageErrors(arguments: [String]) async throws {
        let run = try await classify(arguments, input: "hello\n")
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
    }

    @Test("A negative --threads is refused for its range, not reported as a missing value")
    func negativeThreads() async throws {
        let run = try await classify(["--threads", "-1"], input: "hello\n")
        #expect(run.status == 64)
        #expect(run.stderr.contains("--threads must be from 1 to 256"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    // MARK: - Formats

    @Test("TSV has the header and one escaped row per record, with index, user and author_id")
    func tsv() async throws {
        let input = """
            I love this!!! 😍
            {"id_str":"a\\tb","text":"worst day ever :(","user":{"screen_name":"ana"}}
            {"id_str":"7"}
            {"data":[{"id":"8","text":"great news today","author_id":"42"},{"id":"9","text":"meh","author_id":"43"}]}

            """
        let run = try await classify(["--format", "tsv"], input: input)
        #expect(run.status == 65)
        let lines = run.outputLines
        try #require(lines.count == 6, "\(run.output)")
        #expect(lines[0] == "line\tindex\tid\tuser\tauthor_id\tlabel\tnegative\tneutral\tpositive\tscore\tlang\terror\twarning")
        #expect(lines[1].wholeMatch(of: #/1\t\t\t\t\tpositive\t0\.\d{4}\t0\.\d{4}\t[01]\.\d{4}\t-?[01]\.\d{4}\ten\t\t/#) != nil, "\(lines[1])")
        #expect(lines[2].hasPrefix("2\t\ta\\tb\tana\t\tnegative\t"), "\(lines[2])")
        #expect(lines[3] == ["3", "", "7", "", "", "", "", "", "", "", "", "no text field", ""].joined(separator: "\t"))
        #expect(lines[4].hasPrefix("4\t0\t8\t\t42\t"), "\(lines[4])")
        #expect(lines[5].hasPrefix("4\t1\t9\t\t43\t"), "\(lines[5])")
        #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 13 })
    }

    @Test("CSV has the header and quotes fields per RFC 4180")
    func csv() async throws {
        let input = "{\"id_str\":\"a,\\\"b\\\"\",\"text\":\"I love this!!! 😍\"}\n{\"text\":\"x\",,}\n"
        let run = try await classify(["--format", "csv"], input: input)
        #expect(run.status == 65)
        let lines = run.outputLines
        try #require(lines.count == 3)
        #expect(lines[0] == "line,index,id,user,author_id,label,negative,neutral,positive,score,lang,error,warning")
        #expect(lines[1].hasPrefix(#"1,,"a,""b""",,,positive,0."#), "\(lines[1])")
        #expect(lines[1].hasSuffix(",en,,"))
        #expect(lines[2] == #"2,,,,,,,,,,,"malformed JSON: unexpected character ',' at byte 12","#)
    }

    @Test("An id, user or author id that starts with =, +, - or @ is written as the input gives it in CSV and TSV, not altered for spreadsheets, and a text that does is no column",
          arguments: ["csv", "tsv"])
    func formulaLikeFieldsAreWrittenAsGiven(format: String) async throws {
        let input = #"{"id_str":"=1+2","full_text":"@ana =SUM(A1) love it","user":{"screen_name":"@HYPERLINK"}}"# + "\n"
            + #"{"id":"+5","text":"-1 for this hotel","author_id":"-3"}"# + "\n" + "@bob =cmd| this is great\n"
        let run = try await classify(["--format", format], input: input)
        #expect(run.status == 0, "\(run.stderr)")
        let separator = format == "csv" ? "," : "\t"
        let rows = run.outputLines.dropFirst().map { $0.components(separatedBy: separator) }
        try #require(rows.count == 3)
        #expect(rows.map { Array($0[2...4]) } == [["=1+2", "@HYPERLINK", ""], ["+5", "", "-3"], ["", "", ""]])
        #expect(!run.output.contains("SUM") && !run.output.contains("hotel") && !run.output.contains("cmd"), "\(run.output)")
    }

    @Test("A NUL in an id or user is written as \\0 in TSV and as U+FFFD in CSV, never as a raw NUL that ends a field for C tools")
    func nulInDelimitedFields() async throws {
        let input = #"{"id_str":"\u0000zero","text":"great news today","user":{"screen_name":"a\u0000b,c"}}"# + "\n"
        let tsv = try await classify(["--format", "tsv"], input: input)
        #expect(tsv.status == 0, "\(tsv.stderr)")
        #expect(!tsv.output.contains("\0"))
        #expect(tsv.outputLines.last?.hasPrefix("1\t\t\\0zero\ta\\0b,c\t\tpositive\t") == true, "\(tsv.output)")
        let csv = try await classify(["--format", "csv"], input: input)
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(!csv.output.contains("\0"))
        #expect(csv.outputLines.last?.hasPrefix("1,,\u{FFFD}zero,\"a\u{FFFD}b,c\",,positive,") == true, "\(csv.output)")
    }

    @Test("TSV and CSV of empty input are just the header")
    func emptyDelimited() async throws {
        #expect(try await classify(["--format", "tsv"], input: "").output == "line\tindex\tid\tuser\tauthor_id\tlabel\tnegative\tneutral\tpositive\tscore\tlang\terror\twarning\n")
        #expect(try await classify(["--format", "csv"], input: "").output == "line,index,id,user,author_id,label,negative,neutral,positive,score,lang,error,warning\n")
    }

    // MARK: - Threads

    @Test("Output is identical with one and two threads on 20,000 lines, in input order")
    func threadsDoNotChangeOutput() async throws {
        let samples = [
            "I love this!!! 😍",
            "worst day ever :(",
            #"{"id_str":"1050118621198921728","text":"GREAT game last night!!! 🏀","user":{"screen_name":"fan"}}"#,
            #"{"data":[{"id":"1","text":"thanks so much ❤️"},{"id":"2","text":"so tired of this"}]}"#,
            #"{"id":"9","text":"broken"#,
            "",
            "Meeting moved to 3pm, room 204.",
        ]
        var input = ""
        var expectedRecords = 0
        for i in 0..<20_000 {
            let sample = samples[i % samples.count]
            input += sample
            if !sample.hasPrefix("{") && i % 11 == 0 { input += " #\(i)" }
            input += "\n"
            expectedRecords += sample.hasPrefix(#"{"data""#) ? 2 : 1
        }
        let one = try await classify(["--threads", "1"], input: input)
        let two = try await classify(["--threads", "2"], input: input)
        #expect(one.status == 65)
        #expect(two.status == one.status)
        #expect(one.stdout == two.stdout)
        let records = try two.records()
        let lines = records.compactMap { $0["line"] as? Int }
        #expect(lines.count == expectedRecords)  // each page line gives two records
        #expect(lines == lines.sorted())
        #expect(Set(lines).count == 20_000)
    }

    // MARK: - Help

    @Test("classify --help describes the formats and shows examples")
    func classifyHelp() async throws {
        let run = try await classify(["--help"])
        #expect(run.status == 0)
        for expected in ["USAGE: sentiment classify", "Examples:", "sentiment classify Examples/tweets.txt",
                         "--format <format>", "--threads <n>", "--model <dir>", "Exit status"] {
            #expect(run.output.contains(expected), "\(expected)")
        }
    }

    @Test("sentiment --help lists classify")
    func rootHelp() async throws {
        let run = try await SentimentExecutable.run(["--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("USAGE: sentiment <subcommand>"))
        #expect(run.output.contains("classify"))
        #expect(run.output.contains("Examples:"))
    }

    @Test("sentiment help with a known command shows that command's help")
    func helpForCommand() async throws {
        let run = try await SentimentExecutable.run(["help", "classify"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.contains("USAGE: sentiment classify"))
    }

    @Test("sentiment help with a word that names no command is a usage error naming the word",
          arguments: [["help", "nope"], ["help", "classify", "extra"]])
    func helpForUnknownCommand(arguments: [String]) async throws {
        let run = try await SentimentExecutable.run(arguments)
        #expect(run.status == 64)
        #expect(run.output.isEmpty, "no help on standard output: \(run.output)")
        #expect(run.stderr.contains("no command named '\(arguments.last!)'"), "\(run.stderr)")
    }

    @Test("sentiment --version prints the version and nothing else")
    func version() async throws {
        let run = try await SentimentExecutable.run(["--version"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output == "1.0.0\n")
    }
}
