import ArgumentParser
import Foundation
import Sentiment

/// `sentiment eval`: scores a model on a labelled TSV file.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate a model on labelled tweets.",
        discussion: """
            Reads a tab-separated file with a header naming a label and a text column \
            (and an id column, optional), or one without a header as the SemEval task \
            files were published: id, label, text (2013's: id, user id, label, text), \
            or label, text.

            Prints macro-averaged recall (the SemEval metric) first, then accuracy, \
            macro-F1, per-class precision, recall and F1, the confusion matrix, \
            and the expected calibration error with a reliability table (of the top \
            probability: its accuracy is the share whose most probable class is gold, \
            not the labels' accuracy, as the decision rule may pick a rarer class). A metric \
            with nothing to count is n/a (null in JSON): the recall of a class no \
            gold label names, the precision of one never predicted; macro-recall and \
            macro-F1 still average all three classes and count it as 0. Tweets the \
            language test puts in another language are scored with the model's \
            label (which classify withholds) and counted under the data line, \
            as are rows that repeat an earlier row's id (each is scored and \
            counted; "repeated_ids" in JSON). Texts with NUL bytes, which classify \
            flags as "NUL bytes", are scored as they are and counted on standard error.

            Examples:
              sentiment eval ../shared/data/semeval/dev.tsv
              sentiment eval Models/default ../shared/data/semeval/dev.tsv
              sentiment eval --report dev.html ../shared/data/semeval/dev.tsv
              head -n 101 ../shared/data/semeval/dev.tsv | sentiment eval -

            Exit status: 0 success; 64 usage error (a --report that would replace \
            the data file, the file standard input reads, the file standard output \
            writes, or one of the model's files, too); 65 a malformed data file (the \
            first line with too few columns, or too many when text is not the \
            last column (its text may hold a tab), an unknown label (labels are read \
            in any case, the white space around them ignored: "positive " is positive), an id that is \
            not a numeric tweet id (the white space around it ignored too: " 7" is 7), an empty or blank text, a text over 1 MiB \
            (1048576 bytes of UTF-8, the longest line classify takes: it answers a longer one with an error record, and explain \
            refuses it), or invalid UTF-8 is named, and a file in UTF-16 without a byte order mark \
            is said to be one, with how to convert it; nothing is skipped but empty lines), \
            one with no tweets, or a malformed model; 66 the data file or the model is \
            missing or unreadable; 73 the --report file cannot be written \
            (checked before the evaluation); 74 standard output is closed or cannot \
            be written (a full disk).
            """)

    @OptionGroup var modelOptions: ModelOptions

    @Argument(help: ArgumentHelp("[MODEL_DIR] FILE: an optional model directory, then a TSV file with label and text columns ('-': standard input).",
                                 valueName: "path"))
    var paths: [String]

    @Flag(help: "Print the metrics as one JSON object instead of a table (\"confusion\" is [gold][predicted], rows gold and columns predicted, both in the class order \"confusion_order\" gives: negative, neutral, positive; an empty reliability bin's confidence and accuracy are null).")
    var json = false

    @Option(help: ArgumentHelp("Also write a self-contained HTML report (metrics, confusion heatmap, reliability diagram).",
                               valueName: "file.html"))
    var report: String?

    func validate() throws {
        guard (1...2).contains(paths.count) else { throw ValidationError("give a data file, optionally preceded by a model directory") }
        if paths.count == 2, modelOptions.directory != nil { throw ValidationError("give the model either with --model or as the first argument") }
        if report == "-" { throw ValidationError("--report needs a file name: standard output carries the metrics") }
        if report == "" { throw ValidationError("--report needs a file name, not an empty one") }
    }

    func run() throws {
        try StandardStreams.requireOutput()
        if let report, isSameFile(report, paths.last!) {
            printError("--report \(report) is the data file eval reads: give the report another name")
            throw ExitCode.usage
        }
        // `eval --report data.tsv - < data.tsv`: the data is read first, so the report would replace it.
        if let report, paths.last == "-", Self.isFile(report, of: STDIN_FILENO) {
            printError("--report \(report) is the file standard input reads: give the report another name")
            throw ExitCode.usage
        }
        // `eval --report out.txt data.tsv > out.txt` (or `--report /dev/stdout`): the report
        // would replace, or cut short, the metrics just written there.
        if let report, Self.isFile(report, of: STDOUT_FILENO) {
            printError("--report \(report) is the file standard output writes the metrics to: give the report another name")
            throw ExitCode.usage
        }
        if let report, let reason = outputFileProblem(report) {
            printError("cannot write \(report): \(reason)")
            throw ExitCode.cannotCreate
        }
        var options = modelOptions
        if paths.count == 2 { options.directory = paths[0] }
        let model = try options.loadModel()
        if let report, let directory = model.directory,
           let file = SentimentModel.fileNames.first(where: { isSameFile(report, directory.appendingPathComponent($0).path) }) {
            printError("--report \(report) is the model's \(file): give the report another name")
            throw ExitCode.usage
        }
        let examples = try readExamples(paths.last!)
        let file = dataName(paths.last!)
        let repeated = examples.repeatedIDCount
        let evaluation = Evaluation(gold: examples.map(\.label), predictions: model.classify(examples.map(\.text)))
        // A reader of the metrics that left (`| head -1`) ends the command
        // quietly, but only once the report it asked for is written.
        var readerLeft = false
        do {
            try StandardStreams.write(json ? EvaluationReport.json(evaluation, model: model, file: file, repeatedIDs: repeated)
                                           : EvaluationReport.text(evaluation, model: model, file: file, repeatedIDs: repeated))
        } catch let exit as ExitCode where exit == .success {
            readerLeft = true
        }
        if let report {
            // `--report /dev/stdout` into that pipe: its reader is gone, and
            // opening it again would wait for another.
            if readerLeft, Self.isOpen(report, as: STDOUT_FILENO) { throw ExitCode.success }
            if let reason = writeOutputFile(Array(EvaluationReport.html(evaluation, model: model, file: file, repeatedIDs: repeated).utf8), to: report) {
                // `--report /dev/stdout` into a pipe whose reader left: as the metrics, quietly.
                if reason == String(cString: strerror(EPIPE)) { throw ExitCode.success }
                printError("cannot write \(report): \(reason)")
                throw ExitCode.cannotCreate
            }
            printError("wrote \(report)")
        }
        if readerLeft { throw ExitCode.success }
    }

    /// Whether `path` names the existing regular file that `descriptor`
    /// (standard input or output) reads or writes: the same device and inode.
    /// A pipe or a terminal is no file and never is (`--report /dev/stdout`
    /// into a pipe follows the metrics).
    static func isFile(_ path: String, of descriptor: Int32) -> Bool {
        var open = stat()
        guard fstat(descriptor, &open) == 0, (open.st_mode & S_IFMT) == S_IFREG else { return false }
        return isOpen(path, as: descriptor)
    }

    /// Whether `path` names what `descriptor` has open, whatever it is (a
    /// file, a pipe): the same device and inode.
    static func isOpen(_ path: String, as descriptor: Int32) -> Bool {
        var open = stat(), file = stat()
        guard fstat(descriptor, &open) == 0, stat(path, &file) == 0 else { return false }
        return open.st_dev == file.st_dev && open.st_ino == file.st_ino
    }
}
