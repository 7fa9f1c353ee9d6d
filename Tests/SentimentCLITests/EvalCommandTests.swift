import Foundation
import Testing

/// `sentiment eval`, run as a subprocess on the shipped model and a small
/// labelled file of made-up tweets (`Fixtures/labelled.tsv`: 16 tweets, a few
/// of them hard, so the confusion matrix is not a diagonal).
@Suite("sentiment eval")
struct EvalCommandTests {
    typealias Run = SentimentExecutable.Run

    private let labelled = SentimentExecutable.fixture("labelled.tsv")
    private let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("sentiment-eval-tests")
    }

    private func eval(_ arguments: [String]) async throws -> Run {
        try await SentimentExecutable.run(["eval"] + arguments)
    }

    private func json(_ run: Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.output)")
    }

    @Test("eval prints macro-recall first, then accuracy, macro-F1, ECE, the classes, the confusion matrix and reliability")
    func textReport() async throws {
        let run = try await eval(["Models/default", labelled])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.outputLines
        #expect(lines.first?.hasPrefix("model default@") == true)
        #expect(lines.contains("data  \(labelled) (16 tweets)"))
        let metrics = lines.filter { $0.wholeMatch(of: #/(macro-recall|accuracy|macro-F1|ECE) +\d\.\d{4}/#) != nil }
        #expect(metrics.map { String($0.split(separator: " ")[0]) } == ["macro-recall", "accuracy", "macro-F1", "ECE"])
        for heading in ["class      precision  recall     F1  support", "confusion (rows gold, columns predicted)",
                        "reliability (top probability)"] {
            #expect(lines.contains(heading), "\(heading)")
        }
        // The confusion rows add up to each class's support (5 negative, 5 neutral, 6 positive).
        for (label, support) in [("negative", 5), ("neutral", 5), ("positive", 6)] {
            let row = try #require(lines.last { $0.hasPrefix(label) })
            let counts = row.split(separator: " ").dropFirst().compactMap { Int($0) }
            #expect(counts.count == 3 && counts.reduce(0, +) == support, "\(row)")
        }
    }

    @Test("eval --json: the metrics agree with the confusion matrix and the reliability bins, and with the table")
    func jsonMetricsAreConsistent() async throws {
        let run = try await eval(["--model", "Models/default", "--json", labelled])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try json(run)
        let confusion = try #require(object["confusion"] as? [[Int]])
        let count = try #require(object["count"] as? Int)
        #expect(count == 16)
        #expect(confusion.flatMap { $0 }.reduce(0, +) == count)
        let correct = (0..<3).map { confusion[$0][$0] }.reduce(0, +)
        #expect(abs(try #require(object["accuracy"] as? Double) - Double(correct) / Double(count)) < 1e-9)
        let recalls = (0..<3).map { Double(confusion[$0][$0]) / Double(confusion[$0].reduce(0, +)) }
        let macroRecall = try #require(object["macro_recall"] as? Double)
        #expect(abs(macroRecall - recalls.reduce(0, +) / 3) < 1e-9)
        #expect(macroRecall < 1, "the fixture's hard tweets should cost something")

        let bins = try #require(object["reliability"] as? [[String: Any]])
        let gaps = try bins.map { bin -> Double in
            let n = try #require(bin["count"] as? Int)
            guard n > 0 else {
                // An empty bin has no mean to show: null, not a measured-looking 0.
                #expect(bin["accuracy"] is NSNull && bin["confidence"] is NSNull, "\(bin)")
                return 0
            }
            return Double(n) / Double(count) * abs(try #require(bin["accuracy"] as? Double) - (try #require(bin["confidence"] as? Double)))
        }
        #expect(bins.contains { $0["count"] as? Int == 0 }, "bins below 1/3 are always empty")
        #expect(bins.compactMap { $0["count"] as? Int }.reduce(0, +) == count)
        #expect(abs(try #require(object["expected_calibration_error"] as? Double) - gaps.reduce(0, +)) < 1e-9)

        let table = try await eval(["Models/default", labelled])
        #expect(table.outputLines.contains(String(format: "macro-recall  %.4f", macroRecall)), "\(table.output)")
    }

    @Test("The reliability table prints each bin's edges to three decimals, so a fifteenth such as 0.467 is not shown as 0.47")
    func reliabilityEdgesAreThreeDecimals() async throws {
        let object = try json(try await eval(["Models/default", "--json", labelled]))
        let bins = try #require(object["reliability"] as? [[String: Any]])
        let table = try await eval(["Models/default", labelled])
        let rows = table.outputLines.drop { !$0.hasPrefix("  bin ") }.dropFirst()
        let filled = bins.filter { ($0["count"] as? Int ?? 0) > 0 }
        #expect(rows.count == filled.count, "\(table.output)")
        for (row, bin) in zip(rows, filled) {
            let lower = try #require(bin["lower"] as? Double), upper = try #require(bin["upper"] as? Double)
            let count = try #require(bin["count"] as? Int)
            #expect(row.hasPrefix(String(format: "  %.3f-%.3f %6d ", lower, upper, count)), "\(row)")
        }
        #expect(rows.contains { $0.contains("0.467") || $0.contains("0.533") || $0.contains("0.333") }, "\(table.output)")
    }

    @Test("eval --json says the confusion matrix's class order, rows gold and columns predicted, as the table's heading does")
    func jsonConfusionOrder() async throws {
        let object = try json(try await eval(["Models/default", "--json", labelled]))
        let order = try #require(object["confusion_order"] as? [String], "\(object.keys.sorted())")
        #expect(order == ["negative", "neutral", "positive"])
        let confusion = try #require(object["confusion"] as? [[Int]])
        let classes = try #require(object["classes"] as? [String: [String: Any]])
        // Row i holds the gold tweets of order[i]; column j, the tweets predicted order[j].
        for (row, label) in order.enumerated() {
            #expect(confusion[row].reduce(0, +) == classes[label]?["support"] as? Int, "\(label)")
            let predicted = (0..<3).map { confusion[$0][row] }.reduce(0, +)
            if predicted > 0, let precision = classes[label]?["precision"] as? Double {
                #expect(abs(precision - Double(confusion[row][row]) / Double(predicted)) < 1e-9, "\(label)")
            }
        }
    }

    @Test("eval --report writes a self-contained HTML page with the metrics, a confusion heatmap and a reliability diagram")
    func htmlReport() async throws {
        let report = folder.appendingPathComponent("report.html").path
        let run = try await eval(["Models/default", labelled, "--report", report])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("wrote \(report)"))
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") || html.hasPrefix("<!doctype html>"), "\(html.prefix(80))")
        #expect(html.contains(#"aria-label="confusion matrix""#))
        #expect(html.contains(#"aria-label="reliability diagram""#))
        #expect(html.components(separatedBy: #"fill="rgb("#).count - 1 == 9, "nine shaded heatmap cells")
        let macroRecall = try #require(run.outputLines.first { $0.hasPrefix("macro-recall") }?.split(separator: " ").last)
        #expect(html.contains(String(macroRecall)))
        // Nothing is fetched: no scripts, no external sheets or images; the only URL is SVG's namespace.
        #expect(!html.contains("<script"))
        #expect(!html.contains("src="))
        let urls = html.matches(of: #/https?://[^"' <>)]+/#).map { String($0.output) }
        #expect(Set(urls).isSubset(of: ["http://www.w3.org/2000/svg"]), "\(Set(urls))")
    }

    @Test("A bad label, a missing file, an empty file and too many paths each have their exit status")
    func failures() async throws {
        let bad = folder.appendingPathComponent("bad.tsv")
        try "id\tlabel\ttext\n1\tpositive\tgreat\n2\tbogus\tmeh\n".write(to: bad, atomically: false, encoding: .utf8)
        let badRun = try await eval(["Models/default", bad.path])
        #expect(badRun.status == 65)
        #expect(badRun.stderr.contains("bad.tsv:3: unknown label \"bogus\""), "\(badRun.stderr)")
        #expect(badRun.output.isEmpty)

        let empty = folder.appendingPathComponent("empty.tsv")
        try Data().write(to: empty)
        #expect(try await eval(["Models/default", empty.path]).status == 65)
        #expect(try await eval(["Models/default", folder.appendingPathComponent("missing.tsv").path]).status == 66)
        #expect(try await eval(["Models/default", labelled, labelled]).status == 64)
        #expect(try await eval(["--model", "Models/default", "Models/default", labelled]).status == 64)
    }

    @Test("A malformed data file (a tab in a text that is not the last column, a header naming a column twice, an id that is not a number) exits 65 naming the file, line and reason, instead of scoring the text cut at the tab, the first column, or the row as one without an id",
          arguments: [
              ("text-in-the-middle.tsv", "label\ttext\tid\npositive\tI love this\t1\nnegative\tworst\tday ever\t2\n",
               "text-in-the-middle.tsv:3: expected 3 tab-separated columns, found 4 (a tab in a text is only kept when text is the last column)"),
              ("two-texts.tsv", "label\ttext\ttext\npositive\tI love this\tworst day ever\n",
               "two-texts.tsv:1: header names the \"text\" column twice (columns 2 and 3): which one to read is not clear"),
              ("word-id.tsv", "id\tlabel\ttext\n1\tpositive\tI love this\nabc\tnegative\tworst day ever\n",
               "word-id.tsv:3: id \"abc\" is not a numeric tweet id"),
          ])
    func malformedDataFile(name: String, contents: String, reason: String) async throws {
        let data = folder.appendingPathComponent(name)
        try contents.write(to: data, atomically: false, encoding: .utf8)
        let run = try await eval(["Models/default", data.path])
        #expect(run.status == 65, "\(run.output)")
        #expect(run.stderr.contains(reason), "\(run.stderr)")
        #expect(run.output.isEmpty)
    }

    @Test("A text over 1 MiB, which classify answers with an error record and explain refuses, exits 65 naming the line, as a malformed row does, from a file or standard input; a text of 1 MiB is scored")
    func textOverOneMiB() async throws {
        let limit = 1 << 20
        // A multi-byte character at the end: the limit is in bytes of UTF-8, not characters.
        let over = String(repeating: "so sad ", count: (limit - 2) / 7) + String(repeating: "a", count: (limit - 2) % 7) + "é" + "!"
        let atLimit = String(over.utf8.dropLast())!
        #expect(over.utf8.count == limit + 1 && atLimit.utf8.count == limit)
        let head = "label\ttext\npositive\tI love this\nnegative\t"
        let tail = "\nneutral\tthe meeting is at 3pm\n"

        let data = folder.appendingPathComponent("long.tsv")
        try Data((head + over + tail).utf8).write(to: data)
        let run = try await eval(["Models/default", data.path])
        #expect(run.status == 65, "\(run.output)")
        #expect(run.stderr == "sentiment: \(data.path):3: text of \(limit + 1) bytes, over the limit of 1 MiB (\(limit) bytes)\n")
        #expect(run.output.isEmpty)
        let piped = try await SentimentExecutable.run(["eval", "Models/default", "-"], input: Data((head + over + tail).utf8))
        #expect(piped.status == 65)
        #expect(piped.stderr.contains("standard input:3: text of \(limit + 1) bytes, over the limit of 1 MiB"), "\(piped.stderr)")

        try Data((head + atLimit + tail).utf8).write(to: data)
        let scored = try await eval(["--json", "Models/default", data.path])
        #expect(scored.status == 0, "\(scored.stderr)")
        #expect(try json(scored)["count"] as? Int == 3)
    }

    @Test("eval - reads the data from standard input, names it so, and refuses --report - beside the metrics")
    func standardInput() async throws {
        let fromFile = try await eval(["Models/default", labelled])
        let piped = try await SentimentExecutable.run(["eval", "Models/default", "-"],
                                                      input: try Data(contentsOf: URL(fileURLWithPath: labelled)))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.outputLines.contains("data  standard input (16 tweets)"), "\(piped.output)")
        #expect(piped.output == fromFile.output.replacingOccurrences(of: "data  \(labelled) ", with: "data  standard input "))

        let bad = try await SentimentExecutable.run(["eval", "-"], input: Data("label\ttext\npositive\tgreat\nbogus\tmeh\n".utf8))
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("standard input:3: unknown label \"bogus\""), "\(bad.stderr)")

        let report = try await eval(["--report", "-", "Models/default", labelled])
        #expect(report.status == 64)
        #expect(report.stderr.contains("--report needs a file name"), "\(report.stderr)")
        #expect(!FileManager.default.fileExists(atPath: SentimentExecutable.packageRoot.appendingPathComponent("-").path))

        let empty = try await eval(["--report", "", "Models/default", labelled])
        #expect(empty.status == 64, "an empty name is a usage error, not a file that cannot be written: \(empty.stderr)")
        #expect(empty.stderr.contains("--report needs a file name, not an empty one"), "\(empty.stderr)")
    }

    @Test("eval - and train --train - with a folder on standard input exit 66 saying why, as explain does")
    func folderOnStandardInput() async throws {
        let sentiment = try #require(SentimentExecutable.url)
        let out = folder.appendingPathComponent("model").path
        for command in [#"exec "$0" eval Models/default - < /"#, #"exec "$0" train --train - --out "$1" < /"#] {
            let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
                ["-c", command, sentiment.path, out])
            #expect(run.status == 66, "\(command): \(run.stderr)")
            #expect(run.output.isEmpty, "\(command)")
            #expect(run.stderr.contains("cannot read standard input: Is a directory"), "\(command): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("eval - waits for the data on a non-blocking standard input, as some parent processes leave it, instead of exiting 66")
    func nonBlockingStandardInput() async throws {
        let run = try await SentimentExecutable.runWithLateNonBlockingInput(
            ["eval", "Models/default", "-"], input: try Data(contentsOf: URL(fileURLWithPath: labelled)))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.contains("data  standard input (16 tweets)\n"), "\(run.stderr)")
    }

    @Test("The reliability table says its accuracy is the most probable class's, not the label's, which the decision rule can make differ; so does the report")
    func reliabilityAccuracyIsTheTopClasss() async throws {
        // Labelled negative, rightly, by the rule that weighs the rarer class, though p(positive) is higher:
        // the label's accuracy is 1, the most probable class's 0.
        let file = folder.appendingPathComponent("rule.tsv")
        try "label\ttext\nnegative\tthe food was great but the service was awful\n".write(to: file, atomically: false, encoding: .utf8)
        let report = folder.appendingPathComponent("rule.html")
        let run = try await eval(["--report", report.path, "Models/default", file.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.outputLines
        #expect(lines.contains("accuracy      1.0000"), "\(run.output)")
        #expect(lines.contains { $0.hasSuffix("    0.0000") && $0.hasPrefix("  0.4") }, "the one bin's accuracy: \(run.output)")
        let heading = try #require(lines.firstIndex(of: "reliability (top probability)"))
        let note = "  accuracy here is the share whose most probable class is gold: 0.0000 in all (the labels' accuracy, by the decision rule: 1.0000)"
        #expect(lines.dropFirst(heading + 1).first == note, "\(run.output)")
        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(html.contains("Accuracy here is the share whose most probable class is gold: 0.0000 in all (the labels' accuracy, by the decision rule: 1.0000)"),
                "\(html)")
    }

    @Test("One tweet is counted as one tweet, in the table and in the report")
    func oneTweet() async throws {
        let file = folder.appendingPathComponent("one.tsv")
        try "id\tlabel\ttext\n1\tpositive\tI love this\n".write(to: file, atomically: false, encoding: .utf8)
        let report = folder.appendingPathComponent("one.html")
        let run = try await eval(["--report", report.path, "Models/default", file.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.outputLines.contains("data  \(file.path) (1 tweet)"), "\(run.output)")
        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(html.contains("(1 tweet)."))
        #expect(html.contains("<title>1 tweet, confidence"), "the reliability bar's tooltip")
        #expect(!html.contains("1 tweets"))
    }

    @Test("A report whose write fails part way (a file-size limit) exits 73 and leaves the earlier report as it was")
    func failedReportWriteKeepsTheEarlierReport() async throws {
        let report = folder.appendingPathComponent("report.html")
        let earlier = Data("<p>the earlier report</p>\n".utf8)
        try earlier.write(to: report)
        // The shell ignores SIGXFSZ (an ignored signal stays ignored across exec) and limits
        // files to 8 blocks of 512 bytes, far less than a report: its write fails with EFBIG.
        let executable = try #require(SentimentExecutable.url)
        let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"), [
            "-c", #"trap '' XFSZ; ulimit -f 8 && exec "$0" eval Models/default "$1" --report "$2""#,
            executable.path, labelled, report.path,
        ])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("cannot write \(report.path): File too large"), "\(run.stderr)")
        #expect(try Data(contentsOf: report) == earlier)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(left == ["report.html"], "no hidden half-written file is left beside it")
    }

    @Test("A report replaces an earlier one whole and keeps its permissions")
    func reportReplacesTheEarlierOne() async throws {
        let report = folder.appendingPathComponent("report.html")
        try Data(String(repeating: "x", count: 1 << 20).utf8).write(to: report)
        #expect(chmod(report.path, 0o600) == 0)
        let run = try await eval(["Models/default", labelled, "--report", report.path])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(html.hasPrefix("<!doctype html>") && html.hasSuffix("</html>\n") && !html.contains("xxx"))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: report.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test("A directory as the data file exits 66 naming it, as classify does")
    func directoryAsData() async throws {
        let run = try await eval(["Models/default", folder.url.path])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.contains("\(folder.url.path): is a directory"), "\(run.stderr)")
        #expect(run.output.isEmpty)
    }

    @Test("A data file without a header, as the SemEval task files were published (id, label, text), is evaluated as the same file with one, instead of exiting 65 for a missing header")
    func headerlessFile() async throws {
        let lines = try String(contentsOfFile: labelled, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.first == "id\tlabel\ttext")
        let headerless = folder.appendingPathComponent("headerless.tsv")
        try lines.dropFirst().joined(separator: "\n").write(to: headerless, atomically: false, encoding: .utf8)
        var metrics: [[String: Any]] = []
        for file in [labelled, headerless.path] {
            let run = try await eval(["Models/default", file, "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            #expect(object["file"] as? String == file)
            object["file"] = nil
            metrics.append(object)
        }
        try #require(metrics.count == 2 && (metrics[0]["count"] as? Int ?? 0) > 0)
        #expect(metrics[1]["count"] as? Int == lines.dropFirst().filter { !$0.isEmpty }.count)
        #expect(NSDictionary(dictionary: metrics[0]).isEqual(to: metrics[1]), "\(metrics[1])")
    }

    @Test("A data file with a header and no tweets exits 65 instead of printing zero metrics")
    func headerOnly() async throws {
        let header = folder.appendingPathComponent("header.tsv")
        try "id\tlabel\ttext\n".write(to: header, atomically: false, encoding: .utf8)
        let run = try await eval(["Models/default", header.path])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("header.tsv: no labelled tweets"), "\(run.stderr)")
        #expect(run.output.isEmpty)
    }

    @Test("A report that cannot be written exits 73 naming the file and the reason", arguments: [
        ("missing/report.html", "No such file or directory"), ("", "Is a directory"),
    ])
    func unwritableReport(name: String, reason: String) async throws {
        let report = name.isEmpty ? folder.url.path : folder.appendingPathComponent(name).path
        let run = try await eval(["Models/default", labelled, "--report", report])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("cannot write \(report): \(reason)"), "\(run.stderr)")
    }

    @Test("A report that cannot be written stops eval before it evaluates or prints anything", arguments: [
        "missing/report.html", "",
    ])
    func unwritableReportIsCheckedFirst(name: String) async throws {
        let report = name.isEmpty ? folder.url.path : folder.appendingPathComponent(name).path
        let run = try await eval(["Models/default", labelled, "--report", report])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.output.isEmpty, "no metrics before the error: \(run.output)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("missing").path))
    }

    @Test("A report named as the data file is refused, and the data file is left as it was")
    func reportOverTheDataIsRefused() async throws {
        let copy = folder.appendingPathComponent("data.tsv")
        try FileManager.default.copyItem(atPath: labelled, toPath: copy.path)
        let before = try Data(contentsOf: copy)
        let run = try await eval(["Models/default", copy.path, "--report", folder.url.path + "/./data.tsv"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("is the data file eval reads"), "\(run.stderr)")
        #expect(run.output.isEmpty)
        #expect(try Data(contentsOf: copy) == before)
    }

    @Test("A report named as the file standard input reads (eval - < data.tsv) is refused, and the data file is left as it was")
    func reportOverTheStandardInputIsRefused() async throws {
        let copy = folder.appendingPathComponent("data.tsv")
        try FileManager.default.copyItem(atPath: labelled, toPath: copy.path)
        let before = try Data(contentsOf: copy)
        let process = try SentimentExecutable.process(["eval", "Models/default", "-", "--report", copy.path])
        let input = try FileHandle(forReadingFrom: copy)
        defer { try? input.close() }
        process.standardInput = input
        let run = try await SentimentExecutable.run(prepared: process)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("is the file standard input reads: give the report another name"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(try Data(contentsOf: copy) == before)
    }

    @Test("A report named as the file standard output writes (> out.txt, or /dev/stdout into it) is refused, where it would replace or cut the metrics; into a pipe it follows them",
          arguments: [false, true])
    func reportOverTheStandardOutputIsRefused(throughDevStdout: Bool) async throws {
        let out = folder.appendingPathComponent("out.txt")
        let sentiment = try #require(SentimentExecutable.url)
        let report = throughDevStdout ? "/dev/stdout" : out.path
        let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"exec "$0" eval Models/default "$1" --report "$2" > "$3""#, sentiment.path, labelled, report, out.path])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--report \(report) is the file standard output writes the metrics to: give the report another name"), "\(run.stderr)")
        #expect(try Data(contentsOf: out).isEmpty)

        let piped = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"exec "$0" eval Models/default "$1" --report /dev/stdout | cat"#, sentiment.path, labelled])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.output.hasPrefix("model "), "\(piped.output.prefix(200))")
        #expect(piped.output.contains("<!DOCTYPE html>") || piped.output.contains("<html"), "the report follows the metrics")
    }

    @Test("A report into a named pipe reaches the pipe's reader whole, instead of an empty input for it and a wait without end for eval")
    func reportIntoANamedPipe() async throws {
        let sentiment = try #require(SentimentExecutable.url)
        let scratch = folder.appendingPathComponent("fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"mkfifo "$2/report" && { cat "$2/report" > "$2/got.html" & } && "$0" eval Models/default "$1" --report "$2/report" && wait"#,
             sentiment.path, labelled, scratch.path],
            timeLimit: .seconds(120))
        #expect(run.status == 0, "\(run.stderr)")
        let got = String(decoding: try Data(contentsOf: scratch.appendingPathComponent("got.html")), as: UTF8.self)
        #expect(got.contains("<html") && got.contains("</html>"), "\(got.prefix(200))")
    }

    @Test("A reader of the metrics that leaves early (| true) still gets the report written, exit 0; --report /dev/stdout into that pipe ends quietly")
    func reportIsWrittenWhenTheReaderLeaves() async throws {
        let sentiment = try #require(SentimentExecutable.url)
        let report = folder.appendingPathComponent("left.html")
        let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"exec "$0" eval Models/default "$1" --report "$2" | true"#, sentiment.path, labelled, report.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("wrote \(report.path)"), "\(run.stderr)")
        #expect(String(decoding: try Data(contentsOf: report), as: UTF8.self).contains("<html"))

        let piped = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"exec "$0" eval Models/default "$1" --report /dev/stdout | true"#, sentiment.path, labelled])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.stderr.contains("cannot write"), "\(piped.stderr)")
    }

    @Test("A file or folder name that is not UTF-8 is a usage error saying so, not 'no such file' for a name with U+FFFD in it", arguments: [
        #"cp "$2" "$1/$(printf 'bad\377name.tsv')" && exec "$0" eval Models/default "$1/$(printf 'bad\377name.tsv')""#,
        #"cp -r Models/default "$1/$(printf 'mod\351l')" && echo hi | "$0" classify --model "$1/$(printf 'mod\351l')""#,
    ])
    func argumentThatIsNotUTF8IsAUsageError(script: String) async throws {
        let sentiment = try #require(SentimentExecutable.url)
        let scratch = folder.appendingPathComponent("names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // $0 the executable, $1 a scratch folder, $2 a labelled file, $3 the package root.
        let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"cd "$3" && "# + script, sentiment.path, scratch.path, labelled, SentimentExecutable.packageRoot.path])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("is not valid UTF-8: sentiment reads its arguments, file names too, as UTF-8"), "\(run.stderr)")
        #expect(!run.stderr.lowercased().contains("no such file"), "\(run.stderr)")
    }

    @Test("A model or database that $SENTIMENT_MODEL or $SENTIMENT_DB names in bytes that are not UTF-8 is a usage error saying so; --model and --db pass it by", arguments: [
        (#"cp -r Models/default "$1/$(printf 'mod\351l')" && echo hi | SENTIMENT_MODEL="$1/$(printf 'mod\351l')" "$0" classify"#, "$SENTIMENT_MODEL", 64),
        (#"SENTIMENT_DB="$1/$(printf 'd\351b')/tweets.sqlite" "$0" history"#, "$SENTIMENT_DB", 64),
        (#"echo hi | SENTIMENT_MODEL="$1/$(printf 'mod\351l')" "$0" classify --model Models/default"#, "", 0),
        (#"SENTIMENT_DB="$1/$(printf 'd\351b')/tweets.sqlite" "$0" history --db "$1/tweets.sqlite""#, "", 0),
    ])
    func environmentThatIsNotUTF8IsAUsageError(script: String, variable: String, status: Int32) async throws {
        let sentiment = try #require(SentimentExecutable.url)
        let scratch = folder.appendingPathComponent("environment-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // $0 the executable, $1 a scratch folder, $2 the package root.
        let run = try await SentimentExecutable.run(executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"cd "$2" && "# + script, sentiment.path, scratch.path, SentimentExecutable.packageRoot.path])
        #expect(run.status == status, "\(run.stderr)")
        if status == 64 {
            #expect(run.stderr.contains("\(variable) '") && run.stderr.contains("' is not valid UTF-8: sentiment reads file names as UTF-8"),
                    "\(run.stderr)")
            #expect(!run.stderr.lowercased().contains("no such file"), "\(run.stderr)")
        }
    }

    @Test("A report named as one of the model's files is refused, and the model still loads", arguments: ["manifest.json", "weights.bin", "letters.bin"])
    func reportOverTheModelIsRefused(file: String) async throws {
        let model = folder.appendingPathComponent("model-\(file)")
        try FileManager.default.copyItem(atPath: SentimentExecutable.packageRoot.appendingPathComponent("Models/default").path, toPath: model.path)
        let before = try Data(contentsOf: model.appendingPathComponent(file))
        let run = try await eval([model.path, labelled, "--report", model.appendingPathComponent(file).path])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("is the model's \(file): give the report another name"), "\(run.stderr)")
        #expect(run.output.isEmpty)
        #expect(try Data(contentsOf: model.appendingPathComponent(file)) == before)
        #expect(try await eval([model.path, labelled]).status == 0)
    }

    @Test("A data file name with a line break or an escape sequence is printed on one line without control characters")
    func fileNameIsPrintedSafely() async throws {
        let name = folder.appendingPathComponent("evil\nmacro-recall  0.9999\u{1B}[2J.tsv")
        try FileManager.default.copyItem(atPath: labelled, toPath: name.path)
        let run = try await eval([name.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.output.contains("\u{1B}"))
        #expect(run.outputLines.filter { $0.hasPrefix("macro-recall") }.count == 1, "\(run.output)")
        #expect(run.outputLines.contains { $0.hasPrefix("data  ") && $0.contains("evil macro-recall  0.9999\u{FFFD}[2J.tsv (16 tweets)") },
                "\(run.output)")
    }

    @Test("A header after empty lines is found, the rows' line numbers counting the empty lines")
    func emptyLinesBeforeTheHeader() async throws {
        let data = folder.appendingPathComponent("blank-first.tsv")
        try ("\n\r\n" + (try String(contentsOfFile: labelled, encoding: .utf8))).write(to: data, atomically: false, encoding: .utf8)
        let run = try await eval([data.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.contains("(16 tweets)"), "\(run.output)")
        let bad = folder.appendingPathComponent("blank-then-bad.tsv")
        try "\n\nid\tlabel\ttext\n1\tpos\tgreat\n".write(to: bad, atomically: false, encoding: .utf8)
        let refused = try await eval([bad.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("blank-then-bad.tsv:4: unknown label \"pos\""), "\(refused.stderr)")
    }

    @Test("A class with no gold tweets or no predictions shows n/a where its metrics are undefined, says how the macro averages count it, and is null in JSON")
    func undefinedMetricsAreNotShownAsZero() async throws {
        let positives = folder.appendingPathComponent("positives.tsv")
        try "id\tlabel\ttext\n1\tpositive\tI love this so much, best day ever :)\n2\tpositive\tWhat a beautiful morning, feeling great\n"
            .write(to: positives, atomically: false, encoding: .utf8)
        let run = try await eval(["Models/default", positives.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.outputLines
        #expect(lines.contains("accuracy      1.0000"), "\(run.output)")
        for label in ["negative", "neutral"] {
            let row = try #require(lines.first { $0.hasPrefix(label) && $0.hasSuffix(" 0") }, "\(run.output)")
            #expect(row.split(separator: " ").dropFirst().map(String.init) == ["n/a", "n/a", "n/a", "0"], "\(row)")
        }
        #expect(lines.contains("positive      1.0000  1.0000  1.0000        2"), "\(run.output)")
        #expect(!run.output.contains("nan"), "\(run.output)")
        #expect(run.output.contains("no gold negative or neutral tweets") && run.output.contains("count as 0"), "\(run.output)")

        let object = try await json(try eval(["Models/default", "--json", positives.path]))
        let classes = try #require(object["classes"] as? [String: [String: Any]])
        for metric in ["precision", "recall", "f1"] {
            #expect(classes["neutral"]?[metric] is NSNull, "\(metric): \(classes)")
            #expect(classes["positive"]?[metric] as? Double == 1, "\(metric): \(classes)")
        }
        #expect(abs(try #require(object["macro_recall"] as? Double) - 1.0 / 3) < 1e-9)

        let report = folder.appendingPathComponent("positives.html")
        #expect(try await eval(["Models/default", positives.path, "--report", report.path]).status == 0)
        let html = try String(contentsOfFile: report.path, encoding: .utf8)
        #expect(html.contains("<tr><td>neutral</td><td>n/a</td><td>n/a</td><td>n/a</td><td>0</td></tr>"), "\(html)")
        #expect(html.contains("no gold negative or neutral tweets"))
    }

    @Test("The reliability diagram marks both axes from 0 to 1, so its bars and dots can be read")
    func reliabilityDiagramHasAScale() async throws {
        let report = folder.appendingPathComponent("scale.html")
        let run = try await eval(["Models/default", labelled, "--report", report.path])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOfFile: report.path, encoding: .utf8)
        let start = try #require(html.range(of: #"aria-label="reliability diagram""#))
        let diagram = html[start.upperBound...].components(separatedBy: "</svg>")[0]
        for tick in ["0", "0.25", "0.5", "0.75", "1"] {
            // One label under the confidence axis and one beside the accuracy axis.
            #expect(diagram.components(separatedBy: ">\(tick)</text>").count - 1 == 2, "tick \(tick)")
        }
    }

    @Test("A gold class with no tweets has no row shares in the heatmap, not 0% of nothing")
    func heatmapRowOfAnAbsentClassHasNoShares() async throws {
        let positives = folder.appendingPathComponent("positives.tsv")
        try "label\ttext\npositive\tI love this so much, best day ever :)\npositive\tthe meeting is at 3pm\n"
            .write(to: positives, atomically: false, encoding: .utf8)
        let report = folder.appendingPathComponent("heatmap.html")
        let run = try await eval(["Models/default", positives.path, "--report", report.path])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOfFile: report.path, encoding: .utf8)
        let heatmap = try #require(html.components(separatedBy: #"aria-label="confusion matrix""#).dropFirst().first?
            .components(separatedBy: "</svg>").first)
        let shares = heatmap.matches(of: #/>(\d+)%</text>/#).map { Int($0.output.1)! }
        #expect(shares.count == 3, "only the positive row has shares: \(shares)")
        #expect(shares.reduce(0, +) == 100, "\(shares)")
        #expect(heatmap.components(separatedBy: #"fill="rgb("#).count - 1 == 9, "nine cells all the same")
    }

    @Test("Tweets in another language are counted and said to be scored, since classify gives them no label")
    func otherLanguageTweetsAreCounted() async throws {
        let mixed = folder.appendingPathComponent("mixed.tsv")
        try "label\ttext\npositive\tI love this so much, best day ever :)\npositive\tQué día tan bonito, me encanta\nnegative\tworst day ever :(\n"
            .write(to: mixed, atomically: false, encoding: .utf8)
        let run = try await eval(["Models/default", mixed.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.outputLines.contains("data  \(mixed.path) (3 tweets)"), "\(run.output)")
        #expect(run.outputLines.contains("      1 in another language, scored all the same (classify gives such tweets no label)"),
                "\(run.output)")
        let object = try await json(try eval(["Models/default", "--json", mixed.path]))
        #expect(object["other_language"] as? Int == 1, "\(object)")

        let english = try await json(try eval(["Models/default", "--json", labelled]))
        #expect(english["other_language"] as? Int == 0, "\(english)")
        #expect(!(try await eval(["Models/default", labelled])).output.contains("another language"))
    }

    @Test("Rows that repeat an earlier id are scored, counted and said so under the data line, in JSON and in the report; data without ids says nothing")
    func repeatedIDsAreCounted() async throws {
        let lines = try String(contentsOfFile: labelled, encoding: .utf8).split(separator: "\n")
        let repeated = folder.appendingPathComponent("repeated.tsv")
        try (lines + lines[1...3]).joined(separator: "\n").appending("\n").write(to: repeated, atomically: false, encoding: .utf8)
        let report = folder.appendingPathComponent("repeated.html")
        let run = try await eval(["--report", report.path, "Models/default", repeated.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.outputLines.contains("data  \(repeated.path) (19 tweets)"), "\(run.output)")
        #expect(run.outputLines.contains("      3 rows repeat an earlier id, scored and counted all the same"), "\(run.output)")
        #expect(try String(contentsOf: report, encoding: .utf8).contains("(19 tweets). 3 rows repeat an earlier id, scored and counted all the same."))
        #expect(try await json(try eval(["Models/default", "--json", repeated.path]))["repeated_ids"] as? Int == 3)

        let once = folder.appendingPathComponent("once.tsv")
        try (lines + lines[1...1]).joined(separator: "\n").appending("\n").write(to: once, atomically: false, encoding: .utf8)
        #expect(try await eval(["Models/default", once.path]).outputLines.contains("      1 row repeats an earlier id, scored and counted all the same"))

        // Without an id column the same rows twice are nothing to say.
        let noIDs = folder.appendingPathComponent("no-ids.tsv")
        try "label\ttext\npositive\tI love this\npositive\tI love this\n".write(to: noIDs, atomically: false, encoding: .utf8)
        let plain = try await eval(["Models/default", noIDs.path])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!plain.output.contains("an earlier id"), "\(plain.output)")
        #expect(try await json(try eval(["Models/default", "--json", noIDs.path]))["repeated_ids"] as? Int == 0)
        #expect(!(try await eval(["Models/default", labelled])).output.contains("an earlier id"))
    }

    @Test("A label with a space after it (\"positive \", from a spreadsheet) is scored as the label, not refused as unknown; the metrics are those of the file without the spaces")
    func labelsWithSpaces() async throws {
        let spaced = try spacedLabelsCopy(of: labelled, in: folder)
        let run = try await eval(["Models/default", "--json", spaced.path])
        #expect(run.status == 0, "\(run.stderr)")
        let plain = try await eval(["Models/default", "--json", labelled])
        var (a, b) = (try json(run), try json(plain))
        a["file"] = nil; b["file"] = nil
        #expect(NSDictionary(dictionary: a).isEqual(to: b))
    }

    @Test("A data file in UTF-16 without a byte order mark (a Windows export) exits 65 saying so and how to convert it, from a file or standard input")
    func utf16WithoutMark() async throws {
        let units = "label\ttext\r\npositive\tI love this\r\nnegative\tworst day ever\r\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let data = folder.appendingPathComponent("utf16le.tsv")
        try Data(units).write(to: data)
        let reason = "looks like UTF-16 (little-endian) without a byte order mark, which is read only with one: "
            + "convert it to UTF-8 first, as with `iconv -f UTF-16LE -t UTF-8 in.tsv > out.tsv`"
        let run = try await eval(["Models/default", data.path])
        #expect(run.status == 65, "\(run.output)")
        #expect(run.stderr == "sentiment: \(data.path): \(reason)\n")
        #expect(run.output.isEmpty)
        let piped = try await SentimentExecutable.run(["eval", "Models/default", "-"], input: Data(units))
        #expect(piped.status == 65, "\(piped.output)")
        #expect(piped.stderr == "sentiment: standard input: \(reason)\n")
    }

    @Test("A text with NUL bytes is scored as it is and said on standard error, as classify flags such a text with \"NUL bytes\"; the metrics are those of the same rows")
    func nulBytesAreSaid() async throws {
        let rows = "label\ttext\npositive\tI love\u{0}this so much :)\nnegative\tworst\u{0}day ever :(\nneutral\tthe bus leaves at noon\n"
        let data = folder.appendingPathComponent("nul.tsv")
        try rows.write(to: data, atomically: false, encoding: .utf8)
        let run = try await eval(["Models/default", "--json", data.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "sentiment: warning: \(data.path): NUL bytes in 2 texts (UTF-16 read as UTF-8 has them), read as they are\n")
        #expect(try json(run)["count"] as? Int == 3)
        let piped = try await SentimentExecutable.run(["eval", "Models/default", "--json", "-"], input: Data(rows.utf8))
        #expect(piped.stderr == "sentiment: warning: standard input: NUL bytes in 2 texts (UTF-16 read as UTF-8 has them), read as they are\n")
        #expect(try json(piped)["macro_recall"] as? Double == json(run)["macro_recall"] as? Double)
        let classify = try await SentimentExecutable.run(["classify"], input: Data("I love\u{0}this so much :)\n".utf8))
        #expect(try classify.records().first?["warning"] as? String == "NUL bytes", "\(classify.output)")
        #expect(!(try await eval(["Models/default", labelled])).stderr.contains("NUL"))
    }
}
