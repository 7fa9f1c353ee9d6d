import Foundation
import Sentiment
import Testing

/// `sentiment train`, run as a subprocess on a small labelled file of made-up
/// tweets (`Fixtures/labelled.tsv`), with a small hashed feature space so each
/// run takes about a second.
@Suite("sentiment train")
struct TrainCommandTests {
    private let labelled = SentimentExecutable.fixture("labelled.tsv")
    private let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("sentiment-train-tests")
    }

    /// Trains on the fixture into `folder/name` (three folds, 2^14 buckets, two threads).
    private func train(_ name: String, _ extra: [String] = []) async throws -> (SentimentExecutable.Run, URL) {
        let out = folder.appendingPathComponent(name)
        let run = try await SentimentExecutable.run(["train", "--train", labelled, "--out", out.path, "--bucket-bits", "14",
                                               "--folds", "3", "--threads", "2"] + extra)
        return (run, out)
    }

    /// The model id in "wrote DIR (ID) in …".
    private func writtenID(_ run: SentimentExecutable.Run) -> String? {
        run.stderr.firstMatch(of: #/wrote .+ \(([^()@\s]+@[^)]+)\)/#).map { String($0.output.1) }
    }

    @Test("train writes a model directory that eval and classify then load")
    func trainedModelIsUsable() async throws {
        let (run, model) = try await train("model")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.isEmpty, "data goes nowhere but the model directory")
        for file in ["manifest.json", "weights.bin"] {
            #expect(FileManager.default.fileExists(atPath: model.appendingPathComponent(file).path), "\(file)")
        }
        let id = try #require(writtenID(run), "\(run.stderr)")
        #expect(id.hasPrefix("model@1.0.0+"), "named after its directory: \(id)")
        #expect(run.stderr.contains("cross-validation: macro-recall"))

        let evaluated = try await SentimentExecutable.run(["eval", model.path, labelled])
        #expect(evaluated.status == 0, "\(evaluated.stderr)")
        #expect(evaluated.outputLines.first == "model \(id)")

        let classified = try await SentimentExecutable.run(["classify", "--model", model.path], input: Data("I love this so much\n".utf8))
        #expect(classified.status == 0, "\(classified.stderr)")
        let records = try classified.records()
        #expect(records.count == 1)
        #expect(["negative", "neutral", "positive"].contains(records.first?["label"] as? String ?? ""), "\(records)")
    }

    @Test("train says each fold's macro-recall and their standard error, whose mean is the cross-validation figure")
    func foldByFoldMacroRecall() async throws {
        let (run, _) = try await train("by-fold")
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stderr.firstMatch(of: #/cross-validation by fold: macro-recall ([0-9., ]+) \(standard error ([0-9.]+)\)/#),
                                "\(run.stderr)")
        let recalls = line.output.1.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(recalls.count == 3, "one a fold: \(line.output.0)")
        #expect(recalls.allSatisfy { (0...1).contains($0) })
        let mean = recalls.reduce(0, +) / Double(recalls.count)
        let squares = recalls.map { ($0 - mean) * ($0 - mean) }.reduce(0, +)
        let standardError = (squares / 2 / 3).squareRoot()
        #expect(abs((Double(line.output.2) ?? -1) - standardError) < 0.0002, "\(line.output.0)")
    }

    @Test("--name and --model-version make the model's id; --version is the command line's own")
    func nameAndVersion() async throws {
        let (run, _) = try await train("named", ["--name", "tweets-2026", "--model-version", "2.1.0"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(writtenID(run)?.hasPrefix("tweets-2026@2.1.0+") == true, "\(run.stderr)")

        let version = try await SentimentExecutable.run(["train", "--version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.output == "1.0.0\n")

        let (badName, out) = try await train("bad-name", ["--name", "a@b"])
        #expect(badName.status == 64)
        #expect(badName.stderr.contains("without white space, control characters, '@', '+' or '/'"), "\(badName.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("A malformed --char-ngrams shows train's usage, not the top level's")
    func badCharNgramsShowsTrainUsage() async throws {
        let (run, _) = try await train("bad-range", ["--char-ngrams", "abc"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--char-ngrams takes MIN-MAX"), "\(run.stderr)")
        #expect(run.stderr.contains("Usage: sentiment train"), "\(run.stderr)")
    }

    @Test("Two runs with the same seed and threads write the same weights, byte for byte")
    func trainingIsDeterministic() async throws {
        let (first, a) = try await train("a")
        let (second, b) = try await train("b")
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\n\(second.stderr)")
        let weightsA = try Data(contentsOf: a.appendingPathComponent("weights.bin"))
        let weightsB = try Data(contentsOf: b.appendingPathComponent("weights.bin"))
        #expect(!weightsA.isEmpty && weightsA == weightsB)
        // The ids differ only by name, the directory's ("a", "b").
        #expect(writtenID(first)?.hasPrefix("a@") == true && writtenID(second)?.hasPrefix("b@") == true)
        #expect(writtenID(first)?.dropFirst() == writtenID(second)?.dropFirst())
    }

    @Test("train --train - reads standard input and writes the weights the file gives; --train and --dev cannot both be -")
    func trainFromStandardInput() async throws {
        let (fromFile, a) = try await train("file")
        let out = folder.appendingPathComponent("stdin")
        let piped = try await SentimentExecutable.run(
            ["train", "--train", "-", "--out", out.path, "--bucket-bits", "14", "--folds", "3", "--threads", "2"],
            input: try Data(contentsOf: URL(fileURLWithPath: labelled)))
        #expect(fromFile.status == 0 && piped.status == 0, "\(fromFile.stderr)\n\(piped.stderr)")
        let weights = try Data(contentsOf: a.appendingPathComponent("weights.bin"))
        let pipedWeights = try Data(contentsOf: out.appendingPathComponent("weights.bin"))
        #expect(!weights.isEmpty && weights == pipedWeights)
        func training(_ model: URL) throws -> [String: Any] {
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: model.appendingPathComponent("manifest.json")))
            return try #require((manifest as? [String: Any])?["training"] as? [String: Any])
        }
        #expect(try training(out)["trainFile"] as? String == "standard input")
        let digest = try training(a)["trainSHA256"] as? String
        let pipedDigest = try training(out)["trainSHA256"] as? String
        #expect(digest != nil && pipedDigest == digest)

        let both = try await SentimentExecutable.run(["train", "--train", "-", "--dev", "-", "--out", folder.appendingPathComponent("both").path])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--train and --dev cannot both read standard input"), "\(both.stderr)")
    }

    @Test("With --dev, train reports the dev metrics and records them in the manifest")
    func devMetricsAreRecorded() async throws {
        let (run, model) = try await train("dev", ["--dev", labelled])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("dev: macro-recall "), "\(run.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: model.appendingPathComponent("manifest.json"))) as? [String: Any])
        let dev = try #require((manifest["metrics"] as? [String: Any])?["dev"] as? [String: Any], "\(manifest)")
        #expect(dev["count"] as? Int == 16)
        let macroRecall = try #require(dev["macroRecall"] as? Double)
        #expect(run.stderr.contains(String(format: "dev: macro-recall %.4f", macroRecall)), "\(run.stderr)")
    }

    @Test("The training options reach the model's manifest")
    func optionsReachTheManifest() async throws {
        let (run, model) = try await train("options", [
            "--seed", "7", "--l2", "1e-4", "--prior-exponent", "0.3", "--nb-power", "0.5", "--word-ngrams", "3",
            "--char-ngrams", "2-4", "--char-weight", "0.5", "--contrast-words", "--max-iterations", "50",
            "--fold-order", "stratified", "--calibration", "pooled", "--balanced",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: model.appendingPathComponent("manifest.json"))) as? [String: Any])
        let training = try #require(manifest["training"] as? [String: Any])
        #expect(training["seed"] as? Int == 7)
        #expect(training["l2"] as? Double == 1e-4)
        #expect(training["priorExponent"] as? Double == 0.3)
        #expect(training["naiveBayesPower"] as? Double == 0.5)
        #expect((training["command"] as? String)?.contains("--balanced") == true)
        let features = try #require(manifest["features"] as? [String: Any])
        #expect(features["bucketBits"] as? Int == 14)
        #expect(features["wordNgrams"] as? Int == 3)
        #expect(features["charNgramMin"] as? Int == 2)
        #expect(features["charNgramMax"] as? Int == 4)
        #expect(features["charGroupWeight"] as? Double == 0.5)
        #expect(features["contrastWords"] as? Bool == true)
    }

    @Test("A training file with no examples, or with one class only, exits 65 with a message, and no model is written")
    func unusableTrainingData() async throws {
        let cases = [("header.tsv", "id\tlabel\ttext\n", "no training examples"),
                     ("one.tsv", "id\tlabel\ttext\n1\tpositive\tgreat\n2\tpositive\tlovely\n", "every training example is positive")]
        for (name, content, message) in cases {
            let file = folder.appendingPathComponent(name)
            try content.write(to: file, atomically: false, encoding: .utf8)
            let out = folder.appendingPathComponent(name + ".model")
            let run = try await SentimentExecutable.run(["train", "--train", file.path, "--out", out.path])
            #expect(run.status == 65, "\(run.stderr)")
            #expect(run.stderr.contains("\(name): ") && run.stderr.contains(message), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test("A --dev file with a header and no tweets exits 65 before training, instead of recording zero metrics")
    func emptyDevFile() async throws {
        let dev = folder.appendingPathComponent("dev-header.tsv")
        try "id\tlabel\ttext\n".write(to: dev, atomically: false, encoding: .utf8)
        let (run, out) = try await train("empty-dev", ["--dev", dev.path])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("dev-header.tsv: no labelled tweets, only a header"), "\(run.stderr)")
        #expect(!run.stderr.contains("featurizing"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("A class no training tweet is labelled with is warned about, naming it, and weighs least in the decision rule, not most")
    func missingClassIsWarnedAbout() async throws {
        let data = folder.appendingPathComponent("two-classes.tsv")
        let rows = try String(contentsOfFile: labelled, encoding: .utf8).split(separator: "\n").filter { !$0.contains("\tpositive\t") }
        try (rows.joined(separator: "\n") + "\n").write(to: data, atomically: false, encoding: .utf8)
        let out = folder.appendingPathComponent("two-classes")
        let run = try await SentimentExecutable.run(["train", "--train", data.path, "--out", out.path, "--bucket-bits", "14", "--folds", "1",
                                                     "--prior-exponent", "1", "--max-iterations", "5"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: no example is labelled positive: the model learns never to predict it"), "\(run.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let offsets = try #require((manifest["decision"] as? [String: Any])?["classOffsets"] as? [Double])
        #expect(offsets.count == 3 && offsets[2] < min(offsets[0], offsets[1]), "positive's weight is the least: \(offsets)")
        // A fit stopped early has not driven the absent class to 0: it must not take over the labels.
        let classified = try await SentimentExecutable.run(["classify", "--model", out.path, "--format", "jsonl"],
                                                           input: Data("so so\nI hate this\nthe meeting is at 3pm\n".utf8))
        #expect(try classified.records().allSatisfy { $0["label"] as? String != "positive" }, "\(classified.stdout)")
        let (full, _) = try await train("three-classes")
        #expect(!full.stderr.contains("warning: no example"), "\(full.stderr)")
    }

    @Test("The manifest's training command quotes what a shell would split or expand, so it can be run again")
    func trainingCommandIsQuoted() async throws {
        let spaced = folder.appendingPathComponent("my data's.tsv")
        try FileManager.default.copyItem(atPath: labelled, toPath: spaced.path)
        let out = folder.appendingPathComponent("quoted")
        let run = try await SentimentExecutable.run(["train", "--train", spaced.path, "--out", out.path, "--bucket-bits", "14", "--folds", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let command = try #require((manifest["training"] as? [String: Any])?["command"] as? String)
        #expect(command == "sentiment train --train '\(spaced.path.replacingOccurrences(of: "'", with: #"'\''"#))' --out \(out.path) --bucket-bits 14 --folds 1")
        // And a shell reads it back as the arguments given.
        let echo = Process()
        echo.executableURL = URL(fileURLWithPath: "/bin/sh")
        echo.arguments = ["-c", "printf '%s\\n' " + command.dropFirst("sentiment ".count)]
        let pipe = Pipe()
        echo.standardOutput = pipe
        try echo.run()
        let words = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        echo.waitUntilExit()
        #expect(words == ["train", "--train", spaced.path, "--out", out.path, "--bucket-bits", "14", "--folds", "1"])
    }

    /// A labelled file of `rows` made-up texts (words of random letters, the
    /// polar classes each with a few words of their own), the same for a seed.
    /// Unlike the sixteen fixture tweets it is big enough that BLAS kernels
    /// summing a dot product in other orders end with other weights.
    private func madeUpTrainingFile(rows: Int, seed: UInt64) throws -> URL {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let vocabulary = (0..<4_000).map { _ in String((0..<(3 + next(7))).map { _ in letters[next(26)] }) }
        let labels = ["negative", "neutral", "positive"]
        var lines = ["id\tlabel\ttext"]
        for row in 0..<rows {
            let label = next(3)
            var words = (0..<(5 + next(10))).map { _ in vocabulary[next(vocabulary.count)] }
            if label != 1 { words.insert(vocabulary[(label == 0 ? 0 : 40) + next(40)], at: next(words.count)) }
            lines.append("\(1_000 + row)\t\(labels[label])\t\(words.joined(separator: " "))")
        }
        let file = folder.appendingPathComponent("made-up-\(rows).tsv")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: false, encoding: .utf8)
        return file
    }

    /// OpenBLAS picks a kernel for the processor it finds (`OPENBLAS_CORETYPE`
    /// overrides the choice); with a BLAS other than OpenBLAS the variable is
    /// ignored and the check holds trivially. With L-BFGS's sums in BLAS, these
    /// three kernels wrote three different weight files from this data.
    @Test("Training writes the same weights whatever BLAS kernel the processor gets, so a model is reproducible on any machine")
    func trainingIgnoresTheBLASKernel() async throws {
        let data = try madeUpTrainingFile(rows: 1_000, seed: 7)
        var weights: [String: Data] = [:]
        for core in ["Haswell", "Prescott", "SkylakeX"] {
            let out = folder.appendingPathComponent("kernel-\(core)")
            // Two folds and pooled calibration: the fewest fits that still told the kernels apart (one fit did not),
            // so the test holds a test thread for seconds, not the minute that starved the serve test's polling.
            let run = try await SentimentExecutable.run(["train", "--train", data.path, "--out", out.path, "--bucket-bits", "14",
                                                   "--folds", "2", "--calibration", "pooled", "--threads", "2"],
                                                  environment: ["OPENBLAS_CORETYPE": core])
            #expect(run.status == 0, "\(run.stderr)")
            weights[core] = try Data(contentsOf: out.appendingPathComponent("weights.bin"))
        }
        #expect(weights["Haswell"]?.isEmpty == false)
        #expect(weights["Haswell"] == weights["Prescott"] && weights["Haswell"] == weights["SkylakeX"])
    }

    /// With the gradient summed in one block per thread, one, two and three
    /// threads wrote three different weight files from the same data, so a
    /// machine with another number of cores could not reproduce a model.
    @Test("Training writes the same weights with one thread or three, three running its fits side by side")
    func trainingIgnoresTheThreadCount() async throws {
        let data = try madeUpTrainingFile(rows: 1_000, seed: 11)
        var weights: [Int: Data] = [:]
        for threads in [1, 3] {
            let out = folder.appendingPathComponent("threads-\(threads)")
            let run = try await SentimentExecutable.run(["train", "--train", data.path, "--out", out.path, "--bucket-bits", "14",
                                                   "--folds", "2", "--calibration", "pooled", "--threads", "\(threads)"])
            #expect(run.status == 0, "\(run.stderr)")
            // Two folds and the final model: three fits, all at once with three threads.
            #expect(run.stderr.contains("sentiment: 3 fits, \(threads) at a time\n"), "\(run.stderr)")
            let folds = run.stderr.split(separator: "\n").filter { $0.hasPrefix("sentiment: fold ") }
            // Each fold's line comes when its fit ends, so with three threads in either order.
            #expect(folds.map { $0.prefix("sentiment: fold 1/2".count) }.sorted() == ["sentiment: fold 1/2", "sentiment: fold 2/2"])
            weights[threads] = try Data(contentsOf: out.appendingPathComponent("weights.bin"))
        }
        #expect(weights[1]?.isEmpty == false)
        #expect(weights[1] == weights[3])
    }

    @Test("Options that leave the fit unable to move exit 65 naming the reason, and no model is written")
    func stalledTraining() async throws {
        let (run, out) = try await train("stalled", ["--folds", "1", "--l2", "1e30", "--max-iterations", "5"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("training made no progress"), "\(run.stderr)")
        #expect(run.stderr.contains("options too large for floating point"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("Data whose rows no feature tells apart (one text, its classes equally split in each fold) exit 65 blaming the data, not the options, whether a fit takes no step or one of rounding's size",
          arguments: [4, 10])
    func nothingToLearn(perClass: Int) async throws {
        let same = folder.appendingPathComponent("same-\(perClass).tsv")
        try ("label\ttext\n" + String(repeating: "positive\tthe bus is here\nnegative\tthe bus is here\nneutral\tthe bus is here\n", count: perClass))
            .write(to: same, atomically: false, encoding: .utf8)
        let out = folder.appendingPathComponent("same-model-\(perClass)")
        let run = try await SentimentExecutable.run(["train", "--train", same.path, "--out", out.path, "--bucket-bits", "14",
                                                     "--folds", "3", "--threads", "2"])
        #expect(run.status == 65, "\(run.stderr)")
        let line = try #require(run.stderr.split(separator: "\n").last.map(String.init))
        #expect(line.hasPrefix("sentiment: \(same.path): training made no progress: the "), "\(run.stderr)")
        #expect(line.contains(" fit's loss is at its lowest where it starts (1.09861228866810"), "\(run.stderr)")
        #expect(line.hasSuffix(", every class 1/3), so its weights would be untrained; the data does this, not the options: "
                               + "no row's features tell the classes apart (as when every row holds the same text and the classes are equally split)"),
                "\(run.stderr)")
        #expect(!run.stderr.contains("options too large"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("A malformed --train or --dev file (a tab in a text that is not the last column, a header naming a column twice, an id that is not a number) exits 65 naming the file, line and reason, before training, and no model is written",
          arguments: [
              ("text-in-the-middle.tsv", "label\ttext\tid\npositive\tI love this\t1\nnegative\tworst\tday ever\t2\n",
               "text-in-the-middle.tsv:3: expected 3 tab-separated columns, found 4 (a tab in a text is only kept when text is the last column)"),
              ("two-labels.tsv", "label\ttext\tlabel\npositive\tI love this\tnegative\n",
               "two-labels.tsv:1: header names the \"label\" column twice (columns 1 and 3): which one to read is not clear"),
              ("word-id.tsv", "id\tlabel\ttext\n1\tpositive\tI love this\nabc\tnegative\tworst day ever\n",
               "word-id.tsv:3: id \"abc\" is not a numeric tweet id"),
          ])
    func malformedDataFile(file: String, contents: String, reason: String) async throws {
        let data = folder.appendingPathComponent(file)
        try contents.write(to: data, atomically: false, encoding: .utf8)
        for (name, arguments) in [("as-train", ["--train", data.path]), ("as-dev", ["--train", labelled, "--dev", data.path])] {
            let out = folder.appendingPathComponent("\(file)-\(name)")
            let run = try await SentimentExecutable.run(["train"] + arguments + ["--out", out.path, "--bucket-bits", "14", "--folds", "3", "--threads", "2"])
            #expect(run.status == 65, "\(name): \(run.stderr)")
            #expect(run.stderr.contains(reason), "\(name): \(run.stderr)")
            #expect(!run.stderr.contains("featurizing"), "\(name): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(name)")
        }
    }

    @Test("A --dev text over 1 MiB exits 65 naming the line before training, as eval refuses it, so the manifest records no metrics eval would not give")
    func devTextOverOneMiB() async throws {
        let dev = folder.appendingPathComponent("long-dev.tsv")
        try Data(("label\ttext\npositive\tI love this\nnegative\t" + String(repeating: "so sad ", count: 150_000) + "\n").utf8).write(to: dev)
        let out = folder.appendingPathComponent("long-dev-model")
        let run = try await SentimentExecutable.run(["train", "--train", labelled, "--dev", dev.path, "--out", out.path,
                                                     "--bucket-bits", "14", "--folds", "3", "--threads", "2"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("long-dev.tsv:3: text of 1050000 bytes, over the limit of 1 MiB (1048576 bytes)"), "\(run.stderr)")
        #expect(!run.stderr.contains("featurizing"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("Rows of --train or --dev that repeat an earlier id are said on standard error, and the model is written all the same")
    func repeatedIDsAreSaid() async throws {
        let lines = try String(contentsOfFile: labelled, encoding: .utf8).split(separator: "\n")
        let repeated = folder.appendingPathComponent("repeated.tsv")
        try (lines + lines[1...2]).joined(separator: "\n").appending("\n").write(to: repeated, atomically: false, encoding: .utf8)
        let out = folder.appendingPathComponent("repeated-train")
        let asTrain = try await SentimentExecutable.run(["train", "--train", repeated.path, "--out", out.path, "--bucket-bits", "14",
                                                         "--folds", "3", "--threads", "2"])
        #expect(asTrain.status == 0, "\(asTrain.stderr)")
        #expect(asTrain.stderr.contains("2 examples repeat an earlier one's tweet id, each trained on all the same"), "\(asTrain.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.json").path))

        let (asDev, _) = try await train("repeated-dev", ["--dev", repeated.path])
        #expect(asDev.status == 0, "\(asDev.stderr)")
        #expect(asDev.stderr.contains("\(repeated.path): 2 rows repeat an earlier id, scored and counted all the same"), "\(asDev.stderr)")
        #expect(!asDev.stderr.contains("examples repeat"), "\(asDev.stderr)")

        let (plain, _) = try await train("unique", ["--dev", labelled])
        #expect(!plain.stderr.contains("an earlier"), "\(plain.stderr)")
    }

    @Test("Labels with a space after them (\"positive \", from a spreadsheet) in --train and --dev are read as the labels, and train the weights the file without the spaces trains")
    func labelsWithSpaces() async throws {
        let spaced = try spacedLabelsCopy(of: labelled, in: folder)
        let (plain, plainOut) = try await train("plain-labels", ["--dev", labelled])
        #expect(plain.status == 0, "\(plain.stderr)")
        let out = folder.appendingPathComponent("spaced-labels")
        let run = try await SentimentExecutable.run(["train", "--train", spaced.path, "--dev", spaced.path, "--out", out.path, "--bucket-bits", "14",
                                                     "--folds", "3", "--threads", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: out.appendingPathComponent("weights.bin")) == Data(contentsOf: plainOut.appendingPathComponent("weights.bin")))
    }

    @Test("A --train or --dev file in UTF-16 without a byte order mark (a Windows export) exits 65 saying so and how to convert it, before training, and no model is written")
    func utf16WithoutMark() async throws {
        let units = try String(contentsOfFile: labelled, encoding: .utf8).utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let data = folder.appendingPathComponent("utf16be.tsv")
        try Data(units).write(to: data)
        let reason = "\(data.path): looks like UTF-16 (big-endian) without a byte order mark, which is read only with one: "
            + "convert it to UTF-8 first, as with `iconv -f UTF-16BE -t UTF-8 in.tsv > out.tsv`"
        for (name, arguments) in [("as-train", ["--train", data.path]), ("as-dev", ["--train", labelled, "--dev", data.path])] {
            let out = folder.appendingPathComponent("utf16-\(name)")
            let run = try await SentimentExecutable.run(["train"] + arguments + ["--out", out.path, "--bucket-bits", "14", "--folds", "3", "--threads", "2"])
            #expect(run.status == 65, "\(name): \(run.stderr)")
            #expect(run.stderr == "sentiment: \(reason)\n", "\(name)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(name)")
        }
    }

    @Test("Texts of --train or --dev with NUL bytes are said on standard error, as eval says them, and the model is written all the same")
    func nulBytesAreSaid() async throws {
        let nul = folder.appendingPathComponent("nul.tsv")
        try (String(contentsOfFile: labelled, encoding: .utf8) + "99\tpositive\tI love\u{0}this\n").write(to: nul, atomically: false, encoding: .utf8)
        let out = folder.appendingPathComponent("nul-train")
        let asTrain = try await SentimentExecutable.run(["train", "--train", nul.path, "--out", out.path, "--bucket-bits", "14",
                                                         "--folds", "3", "--threads", "2"])
        #expect(asTrain.status == 0, "\(asTrain.stderr)")
        #expect(asTrain.stderr.hasPrefix("sentiment: warning: \(nul.path): NUL bytes in 1 text (UTF-16 read as UTF-8 has them), read as they are\n"),
                "\(asTrain.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.json").path))

        let (asDev, _) = try await train("nul-dev", ["--dev", nul.path])
        #expect(asDev.status == 0, "\(asDev.stderr)")
        #expect(asDev.stderr.contains("sentiment: warning: \(nul.path): NUL bytes in 1 text (UTF-16 read as UTF-8 has them), read as they are\n"),
                "\(asDev.stderr)")
        #expect(!asDev.stderr.contains("\(labelled): NUL"), "\(asDev.stderr)")
    }

    @Test("A missing training file exits 66, a bad label 65, a bad option 64, and no model is written")
    func failures() async throws {
        let noFile = try await SentimentExecutable.run(["train", "--train", folder.appendingPathComponent("none.tsv").path,
                                                  "--out", folder.appendingPathComponent("m1").path])
        #expect(noFile.status == 66, "\(noFile.stderr)")

        let bad = folder.appendingPathComponent("bad.tsv")
        try "id\tlabel\ttext\n1\tgood\tgreat\n".write(to: bad, atomically: false, encoding: .utf8)
        let badLabel = try await SentimentExecutable.run(["train", "--train", bad.path, "--out", folder.appendingPathComponent("m2").path])
        #expect(badLabel.status == 65, "\(badLabel.stderr)")
        #expect(badLabel.stderr.contains("bad.tsv:2"), "\(badLabel.stderr)")

        let badOption = try await SentimentExecutable.run(["train", "--train", labelled, "--out", folder.appendingPathComponent("m3").path,
                                                     "--char-ngrams", "five"])
        #expect(badOption.status == 64, "\(badOption.stderr)")

        for name in ["m1", "m2", "m3"] {
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
    }

    @Test("An option no fit can use exits 64 naming it and its range with train's usage, before training, and no model is written", arguments: [
        ["--max-iterations", "0"], ["--l2=-1"], ["--l2", "-1"], ["--l2", "nan"], ["--prior-exponent", "nan"],
        ["--prior-exponent", "-2"], ["--prior-exponent", "1e39"], ["--threads=-1"], ["--threads", "-1"], ["--threads", "0"], ["--bucket-bits", "40"],
        ["--char-ngrams", "5-3"], ["--char-ngrams", "0-4"], ["--char-ngrams", "3-9"], ["--word-ngrams", "4"],
        ["--char-weight", "-1"], ["--char-weight", "1e39"], ["--out", ""], ["--name", "a\u{1B}[2Jb"], ["--model-version", ""],
        ["--model-version", "1 0"],
    ])
    func unusableOptions(arguments: [String]) async throws {
        let (run, out) = try await train("bad-option", arguments)
        #expect(run.status == 64, "\(run.stderr)")
        let flag = String(arguments[0].prefix { $0 != "=" })
        let named = flag == "--name" ? "Error: the model's name " : "Error: \(flag) "
        #expect(run.stderr.contains(named), "\(run.stderr)")
        #expect(run.stderr.contains("Usage: sentiment train"), "\(run.stderr)")
        #expect(!run.stderr.contains("featurizing"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("A negative --seed is an invalid value, not a missing one, exit 64")
    func negativeSeedIsInvalid() async throws {
        let (run, out) = try await train("negative-seed", ["--seed", "-1"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("'-1' is invalid for '--seed"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("Folds that cannot be cut as asked are reported: too few examples for --folds, or an example without a tweet id for chronological folds")
    func foldsNotCutAsAskedAreReported() async throws {
        let (tooFew, _) = try await train("too-few", ["--folds", "10"])
        #expect(tooFew.status == 0, "\(tooFew.stderr)")
        #expect(tooFew.stderr.contains("no cross-validation: 10 folds need at least 30 examples, the data has 16"), "\(tooFew.stderr)")

        let lines = try String(contentsOfFile: labelled, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let noID = folder.appendingPathComponent("no-id.tsv")
        try ([lines[0], lines[1].drop { $0 != "\t" }] + lines.dropFirst(2)).joined(separator: "\n")
            .write(to: noID, atomically: false, encoding: .utf8)
        let run = try await SentimentExecutable.run(["train", "--train", noID.path, "--out", folder.appendingPathComponent("no-id").path,
                                               "--bucket-bits", "14", "--folds", "3", "--threads", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("stratified folds: 1 example has no numeric tweet id"), "\(run.stderr)")
        #expect(!run.stderr.contains("forward chaining"), "\(run.stderr)")

        let (chronological, _) = try await train("chronological")
        #expect(chronological.stderr.contains("featurizing 16 examples (3 chronological folds, 2 threads)"), "\(chronological.stderr)")
    }

    @Test("--fold-order stratified with the default forward calibration says on standard error that the temperature is fitted to pooled scores")
    func stratifiedFoldsSayCalibrationIsPooled() async throws {
        let line = "stratified folds: forward calibration needs chronological ones, so the temperature is fitted to pooled scores"
        let (stratified, _) = try await train("stratified", ["--fold-order", "stratified"])
        #expect(stratified.status == 0, "\(stratified.stderr)")
        #expect(stratified.stderr.contains(line), "\(stratified.stderr)")
        #expect(!stratified.stderr.contains("forward chaining"), "\(stratified.stderr)")
        let (pooled, _) = try await train("stratified-pooled", ["--fold-order", "stratified", "--calibration", "pooled"])
        #expect(pooled.status == 0, "\(pooled.stderr)")
        #expect(!pooled.stderr.contains("forward"), "\(pooled.stderr)")
    }

    @Test("train reads its data from a pipe (a FIFO, as <(…) gives) and records the SHA-256 of what it read")
    func trainsFromAPipe() async throws {
        let content = try Data(contentsOf: URL(fileURLWithPath: labelled))
        let fifo = folder.appendingPathComponent("labelled.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(content)
            try? handle.close()
        }
        writer.start()
        let out = folder.appendingPathComponent("piped")
        let run = try await SentimentExecutable.run(["train", "--train", fifo, "--out", out.path, "--bucket-bits", "14", "--folds", "3"])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let training = try #require(manifest["training"] as? [String: Any])
        let digest = try SentimentModel.sha256(ofFile: labelled)
        #expect(training["trainSHA256"] as? String == digest, "\(training)")
    }

    @Test("A missing --dev file or an --out that is a file stops the run before training, exit 66 and 73")
    func checkedBeforeTraining() async throws {
        let (noDev, _) = try await train("m4", ["--dev", folder.appendingPathComponent("none.tsv").path])
        #expect(noDev.status == 66, "\(noDev.stderr)")
        #expect(noDev.stderr.contains("none.tsv: no such file"), "\(noDev.stderr)")
        #expect(!noDev.stderr.contains("featurizing"), "\(noDev.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("m4").path))

        let file = folder.appendingPathComponent("taken")
        try "not a model\n".write(to: file, atomically: false, encoding: .utf8)
        for out in [file.path, file.appendingPathComponent("model").path] {
            let run = try await SentimentExecutable.run(["train", "--train", labelled, "--out", out, "--bucket-bits", "14"])
            #expect(run.status == 73, "\(run.stderr)")
            #expect(run.stderr.contains("cannot write the model to \(out): \(file.path) is a file, not a directory"),
                    "\(run.stderr)")
            #expect(!run.stderr.contains("featurizing"), "\(run.stderr)")
        }
    }

    @Test("An --out where no directory can be made, though access() says it is writable (root in /proc), stops the run before training, exit 73",
          .enabled(if: getuid() == 0, "only root is told /proc is writable"))
    func unmakeableOutBeforeTraining() async throws {
        // /proc's root directory passes access(W_OK) for root, yet mkdir there fails.
        try #require(access("/proc", W_OK | X_OK) == 0 && mkdir("/proc/sentiment-check", 0o700) != 0)
        let out = "/proc/sentiment-model/m"
        let run = try await SentimentExecutable.run(["train", "--train", labelled, "--out", out, "--bucket-bits", "14"])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("cannot write the model to \(out): no directory can be made in /proc ("), "\(run.stderr)")
        #expect(!run.stderr.contains("featurizing"), "\(run.stderr)")
    }
}
