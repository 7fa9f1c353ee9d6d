import ArgumentParser
import Foundation
import Sentiment

/// `sentiment train`: fits a model to a labelled TSV file and writes it to a directory.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a model on labelled tweets.",
        discussion: """
            Reads tab-separated files with a header naming a `label` column \
            (negative, neutral, positive, in any case, the white space around a label \
            ignored, as eval reads them) and a `text` column (or, as the SemEval task \
            files were published, without a header: id, label, text, or label, text), trains a logistic \
            regression (L-BFGS, deterministic for a seed), chooses the softmax \
            temperature and the decision rule by cross-validation on the training \
            file, evaluates on --dev if given, and writes manifest.json and \
            weights.bin to --out (and letters.bin, the language test's letter \
            model, when the training file has 10,000 tweets or more). A class no \
            training tweet is labelled with is warned about: the model never \
            predicts it. Rows that repeat an earlier row's id are counted on \
            standard error (each is still trained on, or scored), and so are \
            texts with NUL bytes (read as they are).

            Example (rebuilds the shipped model):
              sentiment train --train ../shared/data/semeval/train.tsv \\
                --dev ../shared/data/semeval/dev.tsv --out Models/default

            Exit status: 0 success; 64 usage error; 65 malformed or unusable \
            data (as eval's, UTF-16 without a byte order mark too, said so with how to convert it, and \
            a --dev text over 1 MiB, as eval refuses one); 66 a data file is missing or unreadable; 73 --out cannot be \
            written. The data files and --out are checked before training.
            """)

    @Option(help: ArgumentHelp("Training data (TSV with label and text columns; '-': standard input).", valueName: "file"))
    var train: String

    @Option(help: ArgumentHelp("Development data to evaluate on and record in the manifest ('-': standard input).", valueName: "file"))
    var dev: String?

    @Option(help: ArgumentHelp("Directory to write the model to.", valueName: "dir"))
    var out: String

    @Option(name: .customLong("fold-order"), help: "How examples are dealt into folds: chronological (blocks in tweet-id order; stratified, with a warning, when an example has no numeric id) or stratified.")
    var foldOrder: FoldOrder = TrainingOptions().foldOrder

    @Option(help: "Scores the temperature is fitted to: forward (fold k scored by a model of the folds before it; needs chronological folds, and with stratified ones is pooled, which is said on standard error) or pooled (the usual cross-validation).")
    var calibration: CalibrationScores = TrainingOptions().calibration

    @Option(parsing: .unconditional, help: "Seed of the stratified fold assignment (chronological folds are cut in tweet-id order and use it only when they fall back to stratified).")
    var seed: UInt64 = 1

    // Numeric options read the next argument as their value even when it
    // starts with "-", so that "--l2 -1" is refused for its value (validate())
    // rather than as a missing one.
    @Option(parsing: .unconditional, help: "L2 regularization strength (0 or more).")
    var l2: Double = TrainingOptions().l2

    @Option(parsing: .unconditional, help: "Cross-validation folds (lexicon cross-fitting, temperature, decision rule); below 2 turns them off.")
    var folds: Int = TrainingOptions().folds

    @Option(name: .customLong("max-iterations"), parsing: .unconditional, help: "Most L-BFGS iterations per fit (1 or more).")
    var maxIterations: Int = TrainingOptions().maxIterations

    @Option(name: .customLong("bucket-bits"), parsing: .unconditional, help: "log2 of the number of hashed feature buckets (8-26).")
    var bucketBits: Int = FeatureSettings.standard.bucketBits

    @Option(name: .customLong("word-ngrams"), parsing: .unconditional, help: "Longest word n-gram (1-3).")
    var wordNgrams: Int = FeatureSettings.standard.wordNgrams

    @Option(name: .customLong("char-ngrams"), parsing: .unconditional, help: "Character n-gram range inside words, as MIN-MAX from 1 to 8 (0 turns them off).")
    var charNgrams: String = "\(FeatureSettings.standard.charNgramMin)-\(FeatureSettings.standard.charNgramMax)"

    @Option(name: .customLong("char-weight"), parsing: .unconditional, help: "Weight of the character n-gram group against the word n-gram group (0 to 1000000).")
    var charWeight: Double = FeatureSettings.standard.charGroupWeight

    @Flag(name: .customLong("contrast-words"), inversion: .prefixedNo,
          help: "Give the words after a \"but\" features of their own (word_BUT).")
    var contrastWords = FeatureSettings.standard.contrastWords

    @Option(name: .customLong("prior-exponent"), parsing: .unconditional, help: "Fix the decision rule's prior exponent (0 to 1000000) instead of choosing it by cross-validation.")
    var priorExponent: Double?

    @Option(name: .customLong("nb-power"), parsing: .unconditional, help: "Scale sparse features in training by their naive Bayes log-count ratio to this power (NBSVM-style; 0: unscaled). Scoring is unchanged.")
    var nbPower: Double = TrainingOptions().naiveBayesPower ?? 0

    @Flag(help: "Weight classes inversely to their frequency in the loss.")
    var balanced = false

    @Option(parsing: .unconditional, help: "Threads, 1 or more (default: the cores this process may run on): featurizing uses them all, and as many fits run at once (fewer if half the memory cannot hold them). The weights are the same whatever the count.")
    var threads: Int?

    @Option(help: ArgumentHelp("The model's name, the first part of its id (name@version+fingerprint). (default: the last component of --out)",
                               valueName: "name"))
    var name: String?

    // `--version` alone is the command line's own version flag.
    @Option(name: .customLong("model-version"), help: "The model's version string.")
    var modelVersion: String = "1.0.0"

    /// The n-gram lengths of `--char-ngrams`, as written (the fit's settings
    /// check that they make a range): nil for `0` (none).
    private var charRange: (min: Int, max: Int)? {
        get throws {
            let range = charNgrams.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            if range == [0] { return nil }
            guard range.count == 2, let low = range[0], let high = range[1] else {
                throw ValidationError("--char-ngrams takes MIN-MAX (such as 3-5) or 0")
            }
            return (low, high)
        }
    }

    /// `--name`, or the last component of `--out` (`Models/default` names the model `default`).
    private var modelName: String {
        name ?? URL(fileURLWithPath: out).standardizedFileURL.lastPathComponent
    }

    func validate() throws {
        // Checked here, not in run(), so a mistake shows train's usage line, not the top level's.
        if train == "-" && dev == "-" { throw ValidationError("--train and --dev cannot both read standard input") }
        guard nbPower >= 0, nbPower.isFinite else { throw ValidationError("--nb-power must be 0 or more") }
        guard l2 >= 0, l2.isFinite else { throw ValidationError("--l2 must be 0 or more") }
        guard maxIterations >= 1 else { throw ValidationError("--max-iterations must be 1 or more") }
        guard (8...26).contains(bucketBits) else { throw ValidationError("--bucket-bits must be from 8 to 26") }
        guard (1...3).contains(wordNgrams) else { throw ValidationError("--word-ngrams must be from 1 to 3") }
        guard (0...FeatureSettings.maxCharGroupWeight).contains(charWeight) else {
            throw ValidationError("--char-weight must be from 0 to 1000000")
        }
        if let priorExponent, !(0...TrainingOptions.maxPriorExponent).contains(priorExponent) {
            throw ValidationError("--prior-exponent must be from 0 to 1000000")
        }
        if let threads, threads < 1 { throw ValidationError("--threads must be 1 or more") }
        if let range = try charRange, !((1...8).contains(range.min) && range.min <= range.max && range.max <= 8) {
            throw ValidationError("--char-ngrams takes MIN-MAX from 1 to 8, MIN not above MAX (such as 3-5), or 0")
        }
        if out.isEmpty { throw ValidationError("--out needs a directory name") }
        let name = modelName
        guard Self.isIDPart(name) else {
            throw ValidationError("the model's name \"\(name)\" must be non-empty, without white space, control characters, '@', '+' or '/' (give --name)")
        }
        guard Self.isIDPart(modelVersion) else {
            throw ValidationError("--model-version \"\(modelVersion)\" must be non-empty, without white space, control characters, '@', '+' or '/'")
        }
    }

    /// Whether `part` can stand in a model id (name@version+fingerprint), which
    /// is printed on terminals and parsed at its '@' and '+'.
    static func isIDPart(_ part: String) -> Bool {
        !part.isEmpty && !part.contains { character in
            character == "@" || character == "+" || character == "/" || character.isWhitespace || character.isNewline
                || character.unicodeScalars.contains { [.control, .format].contains($0.properties.generalCategory) }
        }
    }

    func run() throws {
        var options = TrainingOptions()
        options.seed = seed
        options.foldOrder = foldOrder
        options.calibration = calibration
        options.l2 = l2
        options.folds = folds
        options.maxIterations = maxIterations
        options.balancedClassWeights = balanced
        options.priorExponent = priorExponent
        options.naiveBayesPower = nbPower == 0 ? nil : nbPower
        options.threads = threads ?? 0
        options.features.bucketBits = bucketBits
        options.features.wordNgrams = wordNgrams
        options.features.charGroupWeight = charWeight
        options.features.contrastWords = contrastWords
        if let range = try charRange {
            options.features.charNgramMin = range.min
            options.features.charNgramMax = range.max
        } else {
            options.features.charNgramMax = 0
        }

        // Everything a run needs is checked before minutes of training.
        let (examples, trainSHA256) = try readExamplesAndDigest(train)
        let devExamples = try dev.map(readExamples)
        if let dev, let repeated = devExamples?.repeatedIDCount, let note = EvaluationReport.repeatedIDsNote(repeated) {
            printError("\(dataName(dev)): \(note)")
        }
        if let reason = OutputDirectory.problem(out) {
            printError("cannot write the model to \(out): \(reason)")
            throw ExitCode.cannotCreate
        }
        let started = Date()
        let result: Trainer.Result
        do {
            result = try Trainer(options: options).train(
                examples, name: modelName, version: modelVersion, trainFile: dataName(train), trainSHA256: trainSHA256,
                command: (["sentiment"] + CommandLine.arguments.dropFirst().map(shellQuoted)).joined(separator: " "),
                log: { printError($0) })
        } catch let error as ModelError {
            printError("\(error)")
            throw ExitCode.usage
        } catch let error as TrainingError {
            printError("\(dataName(train)): \(error)")
            throw ExitCode.dataError
        }
        var metrics: [String: ModelManifest.MetricsRecord] = [:]
        if let dev, let devExamples {
            let evaluation = Evaluation(gold: devExamples.map(\.label), predictions: result.model.classify(devExamples.map(\.text)))
            metrics["dev"] = evaluation.record(file: dataName(dev))
            printError(String(format: "dev: macro-recall %.4f, accuracy %.4f, macro-F1 %.4f, ECE %.4f",
                              evaluation.macroRecall, evaluation.accuracy, evaluation.macroF1, evaluation.expectedCalibrationError))
        }
        do {
            let saved = try result.model.save(to: URL(fileURLWithPath: out), metrics: metrics)
            printError(String(format: "wrote %@ (%@) in %.1f s", out, saved.id, Date().timeIntervalSince(started)))
        } catch {
            printError("\(error)")
            throw ExitCode.cannotCreate
        }
    }
}

/// Reads a labelled TSV file to evaluate on (eval's data, train's --dev), or
/// standard input for `-`, turning its errors into a message and an exit
/// status; one with a header and no tweets is refused (65), since there is
/// nothing to evaluate, and so is a text over 1 MiB, which `classify` answers
/// with an error record and `explain` refuses (`ClassifyPipeline.longestLine`):
/// the metrics are of texts the command line labels.
func readExamples(_ path: String) throws -> [LabeledExample] {
    let limit = ClassifyPipeline.longestLine
    let examples = try readLabelled(path, file: { path throws(DataFileError) in try LabeledExample.readTSV(path, maxTextBytes: limit) },
                                    data: { data, name throws(DataFileError) in try LabeledExample.readTSV(data: data, name: name, maxTextBytes: limit) })
    guard !examples.isEmpty else {
        printError("\(dataName(path)): no labelled tweets, only a header: nothing to evaluate")
        throw ExitCode.dataError
    }
    warnOfNULBytes(examples, in: path)
    return examples
}

/// `readExamples` and the SHA-256 of the bytes read (a pipe cannot be read twice).
func readExamplesAndDigest(_ path: String) throws -> (examples: [LabeledExample], sha256: String) {
    let read = try readLabelled(path, file: LabeledExample.readTSVAndDigest, data: LabeledExample.readTSVAndDigest(data:name:))
    warnOfNULBytes(read.examples, in: path)
    return read
}

/// Says on standard error how many texts of the data at `path` hold NUL
/// bytes, which `classify` flags as "NUL bytes" (UTF-16 read as UTF-8 has
/// them); they are read as they are, so the metrics and the model are as
/// without the warning.
private func warnOfNULBytes(_ examples: [LabeledExample], in path: String) {
    let count = examples.count(where: { $0.text.utf8.contains(0) })
    guard count > 0 else { return }
    printError("warning: \(dataName(path)): NUL bytes in \(count) \(count == 1 ? "text" : "texts") (UTF-16 read as UTF-8 has them), read as they are")
}

/// How messages, reports and manifests name the data at `path`: "standard input" for `-`.
func dataName(_ path: String) -> String {
    path == "-" ? "standard input" : path
}

/// `file(path)`, or `data` of standard input for `-`, with a data file's
/// error printed and turned into an exit status.
private func readLabelled<T>(
    _ path: String, file: (String) throws(DataFileError) -> T, data: (Data, String) throws(DataFileError) -> T
) throws -> T {
    guard path == "-" else {
        return try reportingDataFileErrors { () throws(DataFileError) in try file(path) }
    }
    let bytes = try readStandardInput()
    return try reportingDataFileErrors { () throws(DataFileError) in try data(bytes, dataName(path)) }
}

/// All of standard input, or exit 66 saying why it cannot be read ("closed",
/// "Is a directory"); a non-blocking standard input is waited on.
private func readStandardInput() throws -> Data {
    do {
        return try StandardStreams.readInput()
    } catch {
        printError("cannot read \(dataName("-")): \(error.reason)")
        throw ExitCode.noInput
    }
}

/// `read()`, with a data file's error printed and turned into 66 (missing or
/// unreadable) or 65 (malformed).
private func reportingDataFileErrors<T>(_ read: () throws(DataFileError) -> T) throws -> T {
    do {
        return try read()
    } catch {
        printError("\(error)")
        throw error.isMissing ? ExitCode.noInput : ExitCode.dataError
    }
}

extension FoldOrder: ExpressibleByArgument {}
extension CalibrationScores: ExpressibleByArgument {}

/// `argument` as a POSIX shell reads it back: as it is when it holds only
/// characters no shell treats specially, else in single quotes, so that a
/// manifest's `training.command` can be run again as written.
func shellQuoted(_ argument: String) -> String {
    let plain = !argument.isEmpty && argument.unicodeScalars.allSatisfy {
        $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_./:=,@+%".unicodeScalars.contains($0))
    }
    return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
}
