import ArgumentParser
import Foundation
import Sentiment

/// `sentiment classify [FILE…]`: one record out per record in, in order.
struct ClassifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Classify tweets: one line in, one record out, in input order.",
        discussion: """
            Each line is one record. A line whose first non-blank character is '{' \
            is JSON: a Twitter API v1.1 tweet, a v2 tweet, or a v2 page \
            ({"data":[…]}, one record per element, with its "index"); so is one \
            whose first is '[' before a '{' or ']', an array of tweets (a v1.1 \
            timeline response, [{…},{…}], one record per element, with its \
            "index"; [] is an error record). Any other line is plain text.

            Text: for a v1.1 retweet, the retweeted tweet's full text \
            (retweeted_status.extended_tweet.full_text, then .full_text, then .text); \
            otherwise extended_tweet.full_text, full_text, note_tweet.text, text. \
            Ids ("id_str", then "id") are copied as text, digit for digit. \
            v1.1 user.screen_name is output as "user", v2 author_id as "author_id".

            Every record carries its line number (counted across all FILEs, as if \
            they were concatenated), the id when there is one, "label", \
            "probabilities" and "score" (p(positive) − p(negative)), and "lang". \
            For a language the model does not support, "label" is null (empty in \
            TSV/CSV), "unsupported" is true and the probabilities are kept. A line \
            with invalid UTF-8 (in a JSON line's text, id or user too) is classified \
            with the bad bytes read as U+FFFD and gets "warning":"invalid UTF-8"; a plain one with NUL bytes (UTF-16 read as UTF-8 \
            has them) gets "warning":"NUL bytes"; a JSON text with a lone surrogate \
            escape (half an emoji, as a tool that cuts text at a UTF-16 length \
            leaves; in an id or user too) reads it as U+FFFD and gets "warning":"lone \
            surrogate"; an error record gets its identifiers' warnings. \
            TSV and CSV have the fields of JSON Lines but unsupported \
            as columns: line, index, id, user, author_id, label, negative, \
            neutral, positive, score, lang, error, warning (empty where JSON \
            Lines leaves a field out; another language: an empty label and its lang). \
            Fields are written as the input gives them, never altered for \
            spreadsheets: the text is no column, and an X id, screen name or \
            author id never starts with =, +, - or @, but a made-up dump's may, \
            and a spreadsheet that opens the file runs such a field as a formula \
            (import an untrusted dump's CSV with its id, user and author_id \
            columns as text). A text over 560 bytes is scored as the \
            length-weighted mean of its pieces of at most 280 bytes (cut after \
            sentence ends), so its length alone does not make it sure.

            A line that cannot be used (malformed JSON, no text field or one that is \
            not a string, empty line, over 1 MiB) gives an error record, {"line":N,"error":"…"}, and the run \
            goes on. Lines end at \\n: a FILE whose lines end in \\r alone (classic Mac OS) is one line, \
            classified with a warning on standard error, or over 1 MiB an error record that says so \
            (tr '\\r' '\\n' converts it). A summary goes to standard error, with a progress line while \
            standard error is a terminal and the records go elsewhere.

            A UTF-8 byte order mark at the start of a FILE is ignored; a FILE that \
            starts with a UTF-16 one (FF FE or FE FF) is read as UTF-16. If a FILE \
            cannot be read part way, the records before it are written and the run \
            stops there. When the reader of the output goes away (`| head`), the \
            run stops quietly with status 0; the summary counts the records \
            written in full and says the output was closed. Ctrl-C (SIGINT) or \
            SIGTERM stops the run once the records being written are written \
            whole (none is cut): the summary counts them and names the last input \
            line they come from, whose next lines were not classified, and the \
            run then ends by the signal (a shell's status 130, or 143); a second \
            one ends it at once. One while the model is still loading ends the run \
            in the same way, its summary saying that nothing was classified.

            Exit status: 0 every record classified; 65 some records were errors \
            (the output is still complete), or a malformed model (nothing is \
            classified); 66 a FILE or the model is missing or \
            unreadable; 64 usage error (standard output the same file as an \
            input, too: the run would read its own records back); 74 the output could not be written (disk \
            full; the summary counts only the records written) or standard output \
            is closed; killed by SIGINT or SIGTERM (130, 143 in a shell), after the summary.

            Examples:
              sentiment classify Examples/tweets.txt
              echo 'I love this!!! 😍' | sentiment classify
              sentiment classify --format tsv tweets.jsonl > moods.tsv
              zcat dump.jsonl.gz | sentiment classify --threads 4 > moods.jsonl
            """
    )

    @Argument(
        help: ArgumentHelp(
            "Files of tweets, one per line. Standard input when omitted or '-'.",
            valueName: "file"),
        completion: .file())
    var files: [String] = []

    @Option(help: "Output format: jsonl (JSON Lines), tsv or csv (with a header line).")
    var format: OutputFormat = .jsonl

    // The next argument is the value even when it starts with "-": "--threads -1" is out of range, not missing.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Worker threads, 1 to \(Self.maxThreads) (default: the cores this process may run on, as taskset or a container's CPU limit leave them).",
        valueName: "n"))
    var threads: Int?

    @OptionGroup var modelOptions: ModelOptions

    /// The most worker threads: each holds two batches of some 2 MB.
    static let maxThreads = 256

    func validate() throws {
        if let threads, !(1...Self.maxThreads).contains(threads) {
            throw ValidationError("--threads must be from 1 to \(Self.maxThreads).")
        }
    }

    func run() throws {
        try StandardStreams.requireOutput()
        let inputs: [LineReader.Input] = files.isEmpty
            ? [.standardInput]
            : files.map { $0 == "-" ? .standardInput : .file($0) }
        if StandardStreams.inputWasClosed && inputs.contains(.standardInput) {
            printError("cannot read standard input: closed")
            throw ExitCode.noInput
        }
        do {
            try LineReader.check(inputs)
        } catch {
            printError("cannot read \(error)")
            throw ExitCode.noInput
        }
        if let input = inputThatIsStandardOutput(inputs) {
            printError("standard output is the file \(input == .standardInput ? "standard input reads" : input.description): "
                       + "classify would read its own records back; write them to another file")
            throw ExitCode.usage
        }
        // Ctrl-C or SIGTERM: the records written stay whole, the summary says
        // how far the run got, and the process ends by the signal. Taken before
        // the model loads, which can take a while (a model on a slow disk), so
        // that a signal then ends the run in the same way, the summary saying
        // nothing was classified. The signal's thread reads the stage and the
        // main thread steps out of it under one lock, so there is no moment
        // between the two when a signal finds neither: one as the model has
        // loaded either keeps the pipeline from being handed over or finds it,
        // and the pipeline, interrupted before it has started, does not start.
        // One once the run is over leaves the end to the main thread, which
        // says the warnings and the summary, then ends the process by it.
        let stage = LockedValue(Stage.loadingModel)
        InterruptSignals.watch { signal in
            let current: Stage = stage.update { stage in
                let current = stage
                if case .loadingModel = stage { stage = .interruptedWhileLoading }
                return current
            }
            guard case .classifying(let pipeline) = current else {
                if case .loadingModel = current {
                    writeToStandardError(Summary.line(Tally(), seconds: 0, interruptedBy: signal, whileLoadingModel: true) + "\n")
                }
                // Otherwise the run's summary has been said.
                InterruptSignals.end(by: signal)
            }
            guard let stopped = pipeline.interrupt() else {
                // The run is over, its summary on the way, unless it has been said already.
                let summarised = stage.update { stage in
                    guard case .summarised = stage else {
                        stage = .interruptedAfterTheRun(signal)
                        return false
                    }
                    return true
                }
                if summarised { InterruptSignals.end(by: signal) }
                return
            }
            if let writeError = stopped.writeError {
                // The output had failed already: that is what stopped the records.
                writeToStandardError(Summary.line(stopped.tally, seconds: stopped.seconds, outputClosed: writeError == EPIPE) + "\n")
                if writeError != EPIPE { _ = StandardStreams.writeFailed(writeError) }
            } else {
                writeToStandardError(Summary.line(stopped.tally, seconds: stopped.seconds,
                                                  interruptedBy: signal, afterLine: stopped.lastLine) + "\n")
            }
            InterruptSignals.end(by: signal)
        }
        let model = try modelOptions.loadModel()

        let pipeline = ClassifyPipeline(model: model, configuration: .init(
            threads: threads ?? min(AvailableCores.count, Self.maxThreads),
            format: format,
            // Not when the records go to a terminal too: the line would be cut into them.
            showsProgress: isatty(STDERR_FILENO) == 1 && isatty(STDOUT_FILENO) != 1))
        let handedOver = stage.update { stage in
            guard case .loadingModel = stage else { return false }
            stage = .classifying(pipeline)
            return true
        }
        // Interrupted: the signal's thread says so and ends the process.
        guard handedOver, let outcome = pipeline.run(inputs: inputs) else { Self.waitForTheEnd() }

        // Said after the run, when the progress line is gone: such an input is one line anyway.
        for (input, line) in outcome.carriageReturnLines {
            printError("warning: \(input): line \(line) holds carriage returns, and lines end at \\n, not at \\r alone "
                       + "(tr '\\r' '\\n' converts such a file)")
        }
        writeToStandardError(Summary.line(outcome.tally, seconds: outcome.seconds,
                                          outputClosed: outcome.writeError == EPIPE) + "\n")
        var failure: ExitCode?
        if let inputFailure = outcome.inputFailure {
            printError("cannot read \(inputFailure)")
            failure = .noInput
        } else if let writeError = outcome.writeError, writeError != EPIPE {
            failure = StandardStreams.writeFailed(writeError)
        } else if outcome.tally.errors > 0 && outcome.writeError != EPIPE {
            // A reader that left took what it wanted: 0, as every command ends then, whatever
            // records the pipe happened to hold when it left.
            failure = .dataError
        }
        // A signal once the run was over, everything said: the run ends by it, as it does
        // by one that comes from now on (the signal's thread ends it).
        let lateSignal: Int32? = stage.update { stage in
            if case .interruptedAfterTheRun(let signal) = stage { return signal }
            stage = .summarised
            return nil
        }
        if let lateSignal { InterruptSignals.end(by: lateSignal) }
        if let failure { throw failure }
    }
}

extension ClassifyCommand {
    /// Where the run is, for a signal's thread.
    enum Stage {
        /// Loading the model: nothing is classified yet.
        case loadingModel
        /// A signal came while the model was loading: the pipeline is not to start.
        case interruptedWhileLoading
        /// The pipeline has the run, under way or about to start: it says what it wrote.
        case classifying(ClassifyPipeline)
        /// A signal came once the run was over: the main thread says what the
        /// run did, then ends the process by it.
        case interruptedAfterTheRun(Int32)
        /// The run's warnings and summary are said: a signal ends the process at once.
        case summarised
    }

    /// Waits for the signal's thread to end the process, once it has the run's end to say.
    static func waitForTheEnd() -> Never {
        while true { DispatchSemaphore(value: 0).wait() }
    }
}

extension OutputFormat: ExpressibleByArgument {}
