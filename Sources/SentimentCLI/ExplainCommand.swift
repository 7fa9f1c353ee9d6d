import ArgumentParser
import Foundation
import Sentiment

/// `sentiment explain`: shows the tokens and the features behind a label.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show how the model sees a text and which features pushed each class.",
        // One text: the generated usage would show "[<text> ...]", the array that
        // gathers dash-led words, as if several texts were taken.
        usage: "sentiment explain [--model <dir>] [--limit <limit>] [--] <text>",
        discussion: """
            TEXT `-` reads the text from standard input, all of it (one final line \
            break dropped; at most 1 MiB, the longest line classify takes): for texts \
            too long or awkward for an argument; after `--` it is the text "-". A text \
            may start with dashes ("-1 for this hotel", "-_-", "--- wow ---"); one \
            that is also an option's name goes after `--` (sentiment explain -- "--help").

            `scores` are what the probabilities are the softmax of: the model's bias \
            (its lean before any feature) plus every feature's push, each relative to \
            the three classes' mean. For each class come the features that pushed \
            towards it most ("towards negative:", a push above 0), then those that \
            pushed away from it most ("against negative:", below 0), up to --limit \
            each; a dense feature (dense:…) shows its value in the text and \
            its mean in training, since it pushes by how far the one is from the other: \
            `dense:hasURL 0` pushes a text for having no URL.

            Exit status: 0 success; 64 usage error (an empty text, --limit below 1); \
            65 a malformed model or a text over 1 MiB; 66 a missing or unreadable model, or standard input closed or \
            unreadable; 74 standard output is closed or cannot be written (a full disk).

            Examples:
              sentiment explain "the food was great but the service was awful :("
              sentiment explain - < review.txt
              sentiment explain "-1 for this hotel, never again"
            """)

    @OptionGroup var modelOptions: ModelOptions

    /// The text, gathered with whatever dash-led words ArgumentParser does not
    /// know: a tweet that starts with "-1" or "-_-" is a text, not options
    /// (read as short flags, "-1 for this hotel" asked for help through its `h`).
    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("The text to explain, as one argument; - reads it from standard input (after --, it is the text \"-\").", valueName: "text"))
    var words: [String] = []

    /// The words given for the text, without the `--` that may come before it
    /// (which this way of parsing keeps).
    private var textWords: [String] {
        guard let end = words.firstIndex(of: "--") else { return words }
        var words = words
        words.remove(at: end)
        return words
    }

    /// The one text given.
    var text: String { textWords.first ?? "" }

    /// Whether the text is read from standard input: a `-` before any `--`
    /// (after it, `-` is the text "-", as `--` ends the special meaning of arguments).
    var readsStandardInput: Bool { words.first == "-" }

    // The next argument is the value even when it starts with "-": "--limit -1" is out of range, not missing.
    @Option(parsing: .unconditional, help: "Features to list per class, towards it and against it.")
    var limit: Int = 8

    func validate() throws {
        guard textWords.count <= 1 else {
            throw ValidationError("give the text as one argument, quoted: sentiment explain \"\(textWords.joined(separator: " "))\"")
        }
        if textWords.isEmpty { throw ValidationError("Missing expected argument '<text>'") }
        // `classify` answers a blank line with an error record; there is nothing to explain either.
        guard readsStandardInput || !BlankText.isBlank(text) else {
            throw ValidationError("nothing to explain: the text is empty or blank")
        }
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        try StandardStreams.requireOutput()
        let text = try readsStandardInput ? Self.readStandardInput() : self.text
        if !readsStandardInput, RawArguments.isInvalidUTF8(text) {
            printError("warning: the text is not valid UTF-8; invalid bytes are read as U+FFFD")
        }
        let model = try modelOptions.loadModel()
        let explanation = model.explain(text, limit: limit)
        let prediction = explanation.prediction
        var out = "text      \(TerminalText.oneLine(text))\n"
        out += "tokens    " + explanation.tokens.map { token in
            let marks = [token.flags.contains(.negated) ? "NEG" : nil, token.flags.contains(.elongated) ? "ELONG" : nil,
                         token.flags.contains(.allCaps) ? "CAPS" : nil, token.flags.contains(.negator) ? "NEGATOR" : nil]
                .compactMap { $0 }
            return "\(token.kind.rawValue):\(token.text)" + (marks.isEmpty ? "" : "[\(marks.joined(separator: ","))]")
        }.joined(separator: " ") + "\n"
        if explanation.segments > 1 {
            out += "segments  \(explanation.segments): a text over \(TextSegments.wholeLimit) bytes is read in pieces of at most \(TextSegments.segmentLimit), "
                + "and its features are their mean, each weighted by its length\n"
        }
        out += "language  \(prediction.language.tag)\(prediction.language.isSupported ? "" : " (unsupported: the label is not meaningful)")\n"
        out += String(format: "label     %@  (negative %.4f, neutral %.4f, positive %.4f; score %+.4f)\n",
                      prediction.label.rawValue, prediction.probabilities.negative, prediction.probabilities.neutral,
                      prediction.probabilities.positive, prediction.score)
        out += Self.scoresLine(explanation, temperature: model.manifest.decision.temperature)
        out += Self.decisionLines(prediction.probabilities, rule: model.manifest.decision)
        for label in SentimentLabel.allCases {
            out += "\n" + Self.contributionLines("towards \(label.rawValue)", explanation.strongest[label] ?? [], on: label)
            out += Self.contributionLines("against \(label.rawValue)", explanation.against[label] ?? [], on: label)
        }
        try StandardStreams.write(out)
    }

    /// A list of features under its heading ("towards negative:"), each with
    /// its push on `label`, or "(nothing)" when there is none.
    static func contributionLines(_ heading: String, _ contributions: [Explanation.Contribution], on label: SentimentLabel) -> String {
        var out = heading + ":\n"
        if contributions.isEmpty { out += "  (nothing)\n" }
        for contribution in contributions {
            out += String(format: "  %+.4f  %@", contribution.push[label], contribution.feature)
            // A dense feature pushes by how far its value is from the training mean, so one a text
            // lacks pushes too ("dense:hasURL" for a text with no URL): its value says which.
            if let value = contribution.value, let mean = contribution.trainingMean {
                out += String(format: " %.3g (training mean %.3g)", value, mean)
            }
            out += "\n"
        }
        return out
    }

    /// The scores behind the probabilities, each relative to the mean of the
    /// three: the model's bias (its lean before any feature, towards neutral
    /// for the shipped model, often the largest single push) plus every
    /// feature's push, so that the lists below are not the whole story.
    static func scoresLine(_ explanation: Explanation, temperature: Double) -> String {
        let s = explanation.scores, b = explanation.bias
        return String(format: "scores    negative %+.4f, neutral %+.4f, positive %+.4f (the probabilities are their softmax at temperature %.4g)\n",
                      s.negative, s.neutral, s.positive, temperature)
            + String(format: "          = the bias %+.4f, %+.4f, %+.4f (the model's lean before any feature) + every feature's push, listed below or not\n",
                     b.negative, b.neutral, b.positive)
    }

    /// Why the label is not always the most probable class: the decision
    /// rule labels by the largest p(c) × w(c), with w(c) = exp(classOffsets[c])
    /// = 1/prior(c)^α (`ModelManifest.DecisionRule`), so a rarer class can win
    /// with a lower probability. Nothing when the rule is a plain argmax.
    static func decisionLines(_ p: ClassProbabilities, rule: ModelManifest.DecisionRule) -> String {
        guard rule.classOffsets.count == 3, rule.classOffsets.contains(where: { $0 != 0 }) else { return "" }
        // A large prior exponent (train --prior-exponent) makes weights beyond a Double's range:
        // then they are shown relative to the largest, which decides alike.
        let largest = rule.classOffsets.max()!
        let relative = largest > 600
        let w = rule.classOffsets.map { exp(relative ? $0 - largest : $0) }
        let (product, weight, of) = relative ? ("%.4g", "%.3g", " of the largest") : ("%.4f", "%.2f", "")
        return String(format: "decision  the largest probability × class weight: negative \(product), neutral \(product), positive \(product)\n",
                      p.negative * w[0], p.neutral * w[1], p.positive * w[2])
            + String(format: "          (weights \(weight), \(weight), \(weight)\(of): the rarer a class in training, the more it weighs, for macro-averaged recall)\n",
                     w[0], w[1], w[2])
    }

    /// The longest text `explain -` takes, in bytes: `classify`'s longest line
    /// (it answers a longer one with an error record), so whatever `classify`
    /// labels can be explained.
    static let textLimit = ClassifyPipeline.longestLine

    /// The UTF-8 byte order mark.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The whole of standard input as the text to explain: a byte order mark
    /// at its start skipped, UTF-16 with a byte order mark read as the text it
    /// holds (as `classify` reads it), and invalid UTF-8 read as U+FFFD (said on standard
    /// error, as `classify` flags it), one final line break dropped. Exits 66 when standard input is closed or cannot be
    /// read (saying why: "Is a directory"), 64 when it holds nothing to explain,
    /// 65 when its UTF-8 is more than `textLimit` bytes, read no further than twice
    /// that (`< /dev/zero` ends at once);
    /// a non-blocking standard input is waited on, as `classify` waits on it.
    private static func readStandardInput() throws -> String {
        var data: Data
        do {
            // UTF-16 takes up to twice the bytes of the UTF-8 it is read as.
            data = try StandardStreams.readInput(atMost: 2 * (textLimit + 2) + 2)
        } catch {
            printError("cannot read standard input: \(error.reason)")
            throw ExitCode.noInput
        }
        let utf16 = UTF16Transcoder.utf8(ofMarked: data)
        if let utf16 { data = Data(utf16) }
        // A UTF-8 byte order mark at the start is no part of the text, as classify skips it.
        if data.starts(with: byteOrderMark) { data.removeFirst(byteOrderMark.count) }
        // One final line break ("\r\n" at most) is not part of the text.
        var length = data.count
        if data.last == 0x0A { length -= data.dropLast().last == 0x0D ? 2 : 1 }
        guard length <= textLimit else {
            printError("nothing explained: the text on standard input is over 1 MiB (\(textLimit) bytes), "
                + "the longest line classify takes; explain a part of it")
            throw ExitCode.dataError
        }
        let valid = String(validating: data, as: UTF8.self)
        if valid == nil {
            printError(utf16 == nil ? "warning: standard input is not valid UTF-8; invalid bytes are read as U+FFFD"
                                    : "warning: standard input is not valid UTF-16; half a surrogate pair is read as U+FFFD")
        }
        var text = valid ?? String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") || text.hasSuffix("\r\n") { text.removeLast() }
        guard !BlankText.isBlank(text) else {
            printError("nothing to explain: standard input is empty or blank")
            throw ExitCode.usage
        }
        return text
    }
}
