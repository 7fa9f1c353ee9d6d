import Foundation
import Testing

/// `sentiment explain`, run as a subprocess on the shipped model.
@Suite("sentiment explain")
struct ExplainCommandTests {
    private func explain(_ arguments: [String]) async throws -> SentimentExecutable.Run {
        try await SentimentExecutable.run(["explain"] + arguments)
    }

    /// The feature lines under "towards LABEL:" (or, for `direction` "against",
    /// "against LABEL:"), by label; a list ends at the next line that is not indented.
    private func sections(_ output: String, _ direction: String = "towards") -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var current: String?
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix("\(direction) "), line.hasSuffix(":") {
                current = String(line.dropFirst("\(direction) ".count).dropLast())
                sections[current!] = []
            } else if let label = current, line.hasPrefix("  ") {
                sections[label]!.append(line)
            } else {
                current = nil
            }
        }
        return sections
    }

    @Test("explain shows the text, its marked tokens, the label and the features towards each class")
    func explainsAText() async throws {
        let run = try await explain(["the food was great but the service was NOT good :("])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.outputLines
        #expect(lines.first == "text      the food was great but the service was NOT good :(")
        let tokens = try #require(lines.first { $0.hasPrefix("tokens    ") })
        #expect(tokens.contains("word:not[CAPS,NEGATOR]"), "\(tokens)")
        #expect(tokens.contains("word:good[NEG]"), "\(tokens)")
        #expect(tokens.contains("emoticon::("), "\(tokens)")
        #expect(lines.contains("language  en"))
        #expect(!lines.contains { $0.hasPrefix("segments") }, "a tweet is read whole")
        #expect(lines.contains { $0.wholeMatch(of: #/label     (negative|neutral|positive)  \(negative 0\.\d{4}, neutral 0\.\d{4}, positive 0\.\d{4}; score [+-][01]\.\d{4}\)/#) != nil },
                "\(run.output)")
        let sections = sections(run.output)
        #expect(Set(sections.keys) == ["negative", "neutral", "positive"])
        for (label, features) in sections {
            #expect((1...8).contains(features.count), "\(label): \(features)")
            #expect(features.allSatisfy { $0.wholeMatch(of: #/  \+\d+\.\d{4}  .+/#) != nil }, "\(features)")
        }
    }

    @Test("explain shows, after the features towards each class, those that pushed against it most, with their negative pushes")
    func showsTheFeaturesAgainstEachClass() async throws {
        let run = try await explain(["the food was great but the service was awful"])
        #expect(run.status == 0, "\(run.stderr)")
        let headings = run.outputLines.filter { $0.hasPrefix("towards ") || $0.hasPrefix("against ") }
        #expect(headings == ["towards negative:", "against negative:", "towards neutral:", "against neutral:",
                             "towards positive:", "against positive:"], "\(run.output)")
        let against = sections(run.output, "against")
        #expect(Set(against.keys) == ["negative", "neutral", "positive"])
        for (label, features) in against {
            #expect((1...8).contains(features.count), "\(label): \(features)")
            #expect(features.allSatisfy { $0.wholeMatch(of: #/  -\d+\.\d{4}  .+/#) != nil }, "\(features)")
            let pushes = features.compactMap { $0.firstMatch(of: #/-\d+\.\d{4}/#).map { Double($0.0)! } }
            #expect(pushes == pushes.sorted(), "strongest first: \(features)")
        }
        #expect(against["negative"]!.contains { $0.hasSuffix("  was great") }, "\(against["negative"]!)")
        #expect(against["positive"]!.contains { $0.hasSuffix("  awful") }, "\(against["positive"]!)")
        // A dense feature against a class shows its value and training mean, as one towards it does.
        #expect(against["positive"]!.contains { $0.wholeMatch(of: #/  -\d\.\d{4}  dense:\w+ \S+ \(training mean \S+\)/#) != nil },
                "\(against["positive"]!)")
    }

    @Test("explain shows the decision rule's products, whose largest is the label even when another class is more probable")
    func showsTheDecisionRule() async throws {
        // The shipped model labels this negative although p(positive) is higher:
        // the rule weighs the rarer negative class more.
        let run = try await explain(["the food was great but the service was awful"])
        #expect(run.status == 0, "\(run.stderr)")
        let label = try #require(run.outputLines.first { $0.hasPrefix("label     ") })
        let labelMatch = try #require(label.firstMatch(of: #/label     (\w+)  \(negative (\d\.\d{4}), neutral (\d\.\d{4}), positive (\d\.\d{4})/#))
        let decision = try #require(run.outputLines.first { $0.hasPrefix("decision  ") }, "\(run.output)")
        let products = try #require(decision.wholeMatch(of: #/decision  the largest probability × class weight: negative (\d+\.\d{4}), neutral (\d+\.\d{4}), positive (\d+\.\d{4})/#))
        let values = [products.1, products.2, products.3].map { Double($0)! }
        let largest = ["negative", "neutral", "positive"][values.firstIndex(of: values.max()!)!]
        #expect(largest == String(labelMatch.1))
        let probabilities = [labelMatch.2, labelMatch.3, labelMatch.4].map { Double($0)! }
        #expect(String(labelMatch.1) == "negative" && probabilities[2] > probabilities[0],
                "the example no longer shows the rule overriding the most probable class: \(label)")
        let weights = try #require(run.outputLines.first { $0.hasPrefix("          (weights ") })
        #expect(weights.contains("macro-averaged recall"))
    }

    @Test("explain shows the scores behind the probabilities and the bias in them, so a label the listed pushes do not make is accounted for")
    func showsTheScoresAndTheBias() async throws {
        // "ok" is neutral, though no listed push towards neutral is as large as
        // the top one towards positive: the shipped model's bias leans neutral.
        let run = try await explain(["ok"])
        #expect(run.status == 0, "\(run.stderr)")
        let number = #/([+-]\d+\.\d{4})/#
        let label = try #require(run.outputLines.first { $0.hasPrefix("label     ") })
        let labelMatch = try #require(label.firstMatch(of: #/label     (\w+)  \(negative (\d\.\d{4}), neutral (\d\.\d{4}), positive (\d\.\d{4})/#))
        let scores = try #require(run.outputLines.first { $0.hasPrefix("scores    ") }, "\(run.output)")
        let scoresMatch = try #require(scores.wholeMatch(of: #/scores    negative ([+-]\d+\.\d{4}), neutral ([+-]\d+\.\d{4}), positive ([+-]\d+\.\d{4}) \(the probabilities are their softmax at temperature (\d+\.?\d*)\)/#))
        let bias = try #require(run.outputLines.first { $0.hasPrefix("          = the bias ") }, "\(run.output)")
        #expect(bias.hasSuffix("+ every feature's push, listed below or not"), "\(bias)")
        let biasValues = bias.matches(of: number).map { Double($0.1)! }
        #expect(biasValues.count == 3 && biasValues[1] > 0, "the shipped model leans neutral: \(bias)")
        let values = [scoresMatch.1, scoresMatch.2, scoresMatch.3].map { Double($0)! }
        let temperature = try #require(Double(scoresMatch.4))
        let tempered = values.map { exp($0 / temperature) }
        let shown = [labelMatch.2, labelMatch.3, labelMatch.4].map { Double($0)! }
        for c in 0..<3 {
            #expect(abs(tempered[c] / tempered.reduce(0, +) - shown[c]) < 2e-3, "class \(c): \(scores) against \(label)")
        }
        #expect(labelMatch.1 == "neutral", "\(label)")
        let sections = sections(run.output)
        let pushes = { (label: String) in (sections[label] ?? []).compactMap { $0.firstMatch(of: number).map { Double($0.1)! } } }
        #expect((pushes("neutral").max() ?? 0) < (pushes("positive").max() ?? 0),
                "the example no longer shows a label the listed pushes do not make: \(run.output)")
    }

    @Test("A dense feature is listed with its value and the training mean, so one the text lacks (no URL) reads as 0, not as present")
    func denseFeaturesShowTheirValue() async throws {
        let run = try await explain(["--limit", "100", "ok"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = sections(run.output).values.joined()
        let url = try #require(lines.first { $0.hasSuffix("dense:hasURL") || $0.contains("dense:hasURL ") }, "\(run.output)")
        #expect(url.wholeMatch(of: #/  \+\d\.\d{4}  dense:hasURL 0 \(training mean 0\.\d+\)/#) != nil, "\(url)")
        let length = try #require(lines.first { $0.contains("dense:length") })
        #expect(length.contains("dense:length 0.693 (training mean "), "log(1 + one token): \(length)")
        for line in lines where !line.contains("dense:") {
            #expect(!line.contains("training mean"), "\(line)")
        }
    }

    @Test("A model trained with a huge prior exponent shows its decision weights relative to the largest, not as inf")
    func hugeClassWeightsAreShownRelative() async throws {
        let folder = try TemporaryFolder("explain-huge-weights")
        let model = folder.appendingPathComponent("model")
        let trained = try await SentimentExecutable.run(["train", "--train", SentimentExecutable.fixture("labelled.tsv"), "--out", model.path,
                                                         "--bucket-bits", "12", "--folds", "1", "--max-iterations", "5",
                                                         "--prior-exponent", "1000000"])
        #expect(trained.status == 0, "\(trained.stderr)")
        let run = try await explain(["--model", model.path, "I love it"])
        #expect(run.status == 0, "\(run.stderr)")
        let decision = try #require(run.outputLines.first { $0.hasPrefix("decision  ") }, "\(run.output)")
        let weights = try #require(run.outputLines.first { $0.hasPrefix("          (weights ") }, "\(run.output)")
        for line in [decision, weights] {
            #expect(!line.contains("inf") && !line.contains("nan"), "\(line)")
        }
        #expect(weights.contains(" of the largest: "), "\(weights)")
    }

    @Test("--limit caps each class's lists, towards it and against it")
    func limitCapsTheLists() async throws {
        let run = try await explain(["I love this, best day ever!!!", "--limit", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        for direction in ["towards", "against"] {
            let sections = sections(run.output, direction)
            #expect(sections.count == 3, "\(direction): \(run.output)")
            for (label, features) in sections {
                #expect((1...2).contains(features.count), "\(direction) \(label): \(features)")
            }
        }
    }

    @Test("An empty or blank text or a limit below 1 is a usage error, exit 64, a negative limit read as one", arguments: [
        [""], ["  \t "], ["\u{200B}\u{200D}"], ["fine", "--limit", "0"], ["--limit", "-1", "fine"],
    ])
    func badArguments(arguments: [String]) async throws {
        let run = try await explain(arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.output.isEmpty)
        #expect(run.stderr.contains("nothing to explain") || run.stderr.contains("--limit must be at least 1"), "\(run.stderr)")
    }

    @Test("A text that starts with a dash is explained, not read as options", arguments: [
        ["-1 for this hotel"], ["-5 stars, worst service ever", "--limit", "3"], ["-_-"], ["--limit", "2", "-_- so tired"],
        ["--", "--help"], ["--- great ---"], ["---"], ["--limit", "2", "--- so tired"], ["--", "--- ok"],
        ["--- wow ---", "--limit", "3"],
    ])
    func dashLedText(arguments: [String]) async throws {
        let run = try await explain(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let text = arguments.first { $0 != "--" && $0 != "--limit" && $0 != "2" && $0 != "3" }!
        #expect(run.output.hasPrefix("text      \(text)\n"), "\(run.output)")
        #expect(!run.output.contains("USAGE"))
    }

    @Test("A text led by three dashes moves to the end after a --, the options after it staying options; a -- already given or an option's value is left alone")
    func separatingDashLedText() {
        #expect(DashLedText.separated(["explain", "--- a"]) == ["explain", "--", "--- a"])
        #expect(DashLedText.separated(["explain", "--limit", "2", "---"]) == ["explain", "--limit", "2", "--", "---"])
        #expect(DashLedText.separated(["explain", "--- a", "--limit", "2"]) == ["explain", "--limit", "2", "--", "--- a"])
        #expect(DashLedText.separated(["explain", "--", "--- a"]) == ["explain", "--", "--- a"])
        #expect(DashLedText.separated(["explain", "--model", "---m", "ok"]) == ["explain", "--model", "---m", "ok"])
        #expect(DashLedText.separated(["classify", "---"]) == ["classify", "---"])
    }

    @Test("No text, two texts or a mistyped option beside the text is a usage error that says what to do and shows one text in the usage", arguments: [
        ([], "Missing expected argument"), (["good", "bad"], "as one argument"), (["--limt", "3", "ok"], "as one argument"),
    ])
    func textArgumentMistakes(arguments: [String], message: String) async throws {
        let run = try await explain(arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.output.isEmpty)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        // One text is taken, and the usage says so (not "[<text> ...]").
        #expect(run.stderr.contains("Usage: sentiment explain [--model <dir>] [--limit <limit>] [--] <text>\n"), "\(run.stderr)")
    }

    @Test("A reader that goes away ends explain quietly with status 0, not by a signal")
    func readerGoesAway() async throws {
        let folder = try TemporaryFolder("explain-epipe")
        let input = folder.appendingPathComponent("long.txt")
        try Data(String(repeating: "what a lovely long day ", count: 10_000).utf8).write(to: input)
        let process = try SentimentExecutable.process(["explain", "-"])
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe()
        process.standardOutput = output
        let errors = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        try output.fileHandleForReading.close()  // gone before the first write: the 230 KB text line gets EPIPE
        await SentimentExecutable.exit(of: process)
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(!stderr.contains("cannot write"), "\(stderr)")
    }

    @Test("explain - reads the text from standard input and explains it as it would the same argument")
    func readsStandardInput() async throws {
        let text = "the food was great but the service was NOT good :("
        let fromArgument = try await explain([text])
        let fromInput = try await SentimentExecutable.run(["explain", "-"], input: text + "\n")
        #expect(fromInput.status == 0, "\(fromInput.stderr)")
        #expect(fromInput.output == fromArgument.output)
    }

    @Test("After --, a - is the text \"-\", not standard input; a - before a -- still reads standard input")
    func dashAfterSeparatorIsText() async throws {
        let literal = try await SentimentExecutable.run(["explain", "--", "-"], input: "I love it\n")
        #expect(literal.status == 0, "\(literal.stderr)")
        #expect(literal.output.hasPrefix("text      -\ntokens    "), "\(literal.output)")
        let fromInput = try await SentimentExecutable.run(["explain", "--limit", "2", "-", "--"], input: "I love it\n")
        #expect(fromInput.status == 0, "\(fromInput.stderr)")
        #expect(fromInput.output.hasPrefix("text      I love it\n"), "\(fromInput.output)")
    }

    @Test("explain - reads UTF-16 with a byte order mark (Windows PowerShell's pipe) as the text it holds")
    func readsUTF16StandardInput() async throws {
        let text = "café was awful 😡 but the staff were lovely"
        let fromArgument = try await explain([text])
        let units = Array((text + "\r\n").utf16)
        let fromInput = try await SentimentExecutable.run(["explain", "-"], input: Data([0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }))
        #expect(fromInput.status == 0, "\(fromInput.stderr)")
        #expect(fromInput.stderr.isEmpty, "\(fromInput.stderr)")
        #expect(fromInput.output == fromArgument.output)
    }

    @Test("explain - takes a text longer than an argument can be, shown on one line")
    func readsALongTextFromStandardInput() async throws {
        // Linux refuses a single argument over 128 KiB (MAX_ARG_STRLEN).
        let paragraph = "The staff were friendly.\nThe room was clean but the wifi kept dropping. "
        let text = String(repeating: paragraph, count: 3_000)
        #expect(text.utf8.count > 200_000)
        let run = try await SentimentExecutable.run(["explain", "-", "--limit", "3"], input: text)
        #expect(run.status == 0, "\(run.stderr)")
        let first = try #require(run.outputLines.first)
        #expect(first.hasPrefix("text      The staff were friendly. The room was clean"), "\(first.prefix(80))")
        #expect(run.outputLines.contains { $0.hasPrefix("label     ") })
        // Read in segments of at most 280 bytes: some 800 of them.
        let segments = try #require(run.outputLines.first { $0.hasPrefix("segments  ") })
        let count = try #require(segments.firstMatch(of: #/^segments  (\d+): a text over 560 bytes is read in pieces of at most 280/#))
        #expect((700...1_000).contains(Int(count.1) ?? 0), "\(segments)")
    }

    @Test("explain - with blank standard input is a usage error (64); invalid UTF-8 is explained with a warning")
    func standardInputEdges() async throws {
        let blank = try await SentimentExecutable.run(["explain", "-"], input: " \n\t\n")
        #expect(blank.status == 64, "\(blank.stderr)")
        #expect(blank.output.isEmpty)
        #expect(blank.stderr.contains("nothing to explain: standard input is empty or blank"), "\(blank.stderr)")

        let invalid = try await SentimentExecutable.run(["explain", "-"], input: Data("great day ".utf8) + Data([0xFF, 0xFE]) + Data("\n".utf8))
        #expect(invalid.status == 0, "\(invalid.stderr)")
        #expect(invalid.stderr.contains("not valid UTF-8"), "\(invalid.stderr)")
        #expect(invalid.outputLines.first == "text      great day \u{FFFD}\u{FFFD}")
    }

    @Test("explain - takes a text of 1 MiB, classify's longest line, a byte order mark before it skipped, and refuses a longer one with 65 without reading on")
    func textLimit() async throws {
        let mebibyte = 1 << 20
        // "good day" and spaces to exactly 1 MiB (few words: a debug build explains it in seconds),
        // and one final line break, which is not part of the text.
        let text = "good day" + String(repeating: " ", count: mebibyte - 8)
        let taken = try await SentimentExecutable.run(["explain", "-", "--limit", "1"], input: Data((text + "\r\n").utf8), timeLimit: .seconds(600))
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(taken.outputLines.contains { $0.hasPrefix("label     ") })

        // A byte order mark before it is skipped, as classify skips it, and counts for nothing.
        let marked = try await SentimentExecutable.run(["explain", "-", "--limit", "1"], input: Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8),
                                                       timeLimit: .seconds(600))
        #expect(marked.status == 0, "\(marked.stderr)")
        #expect(marked.output.hasPrefix("text      good day "), "\(marked.output.prefix(40))")
        #expect(!marked.output.contains("\u{FEFF}"))

        let over = try await SentimentExecutable.run(["explain", "-"], input: text + "!\n")
        #expect(over.status == 65, "\(over.stderr)")
        #expect(over.output.isEmpty)
        #expect(over.stderr.contains("nothing explained: the text on standard input is over 1 MiB (1048576 bytes)"), "\(over.stderr)")

        // An endless input: read only past the limit, then refused.
        let sentiment = try #require(SentimentExecutable.url)
        let endless = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"exec "$0" explain - < /dev/zero"#, sentiment.path], timeLimit: .seconds(120))
        #expect(endless.status == 65, "\(endless.stderr)")
        #expect(endless.stderr.contains("over 1 MiB"), "\(endless.stderr)")
    }

    @Test("explain - with a folder on standard input exits 66 saying why, as classify does")
    func folderOnStandardInput() async throws {
        let sentiment = try #require(SentimentExecutable.url)
        let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"exec "$0" explain - < /"#, sentiment.path])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.output.isEmpty)
        #expect(run.stderr.contains("cannot read standard input: Is a directory"), "\(run.stderr)")
    }

    @Test("explain - waits for a text on a non-blocking standard input, as some parent processes leave it, instead of exiting 66")
    func nonBlockingStandardInput() async throws {
        let run = try await SentimentExecutable.runWithLateNonBlockingInput(["explain", "-"], input: Data("what a lovely day\n".utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.hasPrefix("text      what a lovely day\n"), "\(run.stderr)")
    }

    @Test("A text argument that is not valid UTF-8 is explained with a warning; a real U+FFFD in the text is not warned about")
    func invalidArgument() async throws {
        let sentiment = try #require(SentimentExecutable.url)
        // A shell puts the byte 0xE9 (Latin-1 "é") into the argument: Process takes only Strings.
        let invalid = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"exec "$0" explain "$(printf 'caf\351 is great')""#, sentiment.path])
        #expect(invalid.status == 0, "\(invalid.stderr)")
        #expect(invalid.stderr.contains("warning: the text is not valid UTF-8; invalid bytes are read as U+FFFD"), "\(invalid.stderr)")
        #expect(invalid.outputLines.first == "text      caf\u{FFFD} is great")

        // The label and probabilities are those classify gives the same bytes.
        let classified = try await SentimentExecutable.run(["classify"], input: Data("caf".utf8) + Data([0xE9]) + Data(" is great\n".utf8))
        let record = try #require(classified.records().first)
        let probabilities = try #require(record["probabilities"] as? [String: Double])
        let label = try #require(record["label"] as? String)
        #expect(invalid.outputLines.contains { $0.hasPrefix("label     \(label)  (negative \(String(format: "%.4f", probabilities["negative"]!))") },
                "\(invalid.output) against \(record)")

        let replacement = try await SentimentExecutable.run(["explain", "caf\u{FFFD} is great"])
        #expect(replacement.status == 0, "\(replacement.stderr)")
        #expect(!replacement.stderr.contains("UTF-8"), "\(replacement.stderr)")
        #expect(replacement.outputLines.first == "text      caf\u{FFFD} is great")
    }
}
