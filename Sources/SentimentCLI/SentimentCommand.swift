import ArgumentParser
import Foundation

/// The `sentiment` command line: classify, train, evaluate and explain, and
/// keep the mood of users' timelines.
@main
struct SentimentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sentiment",
        abstract: "Sentiment analysis for English tweets.",
        discussion: """
            Data goes to standard output; progress, summaries and errors go to \
            standard error. Exit status: 0 success, 64 usage error, 65 bad data, \
            66 missing input, 67 an unknown user (tweets), 69 the X API could not \
            be reached (tweets) or the address cannot be listened on (serve), 73 a \
            file or database cannot be created (or the database opened or written), \
            74 the output cannot be written; each \
            command's help says which it uses.

            Examples:
              sentiment classify Examples/tweets.txt
              echo 'worst day ever :(' | sentiment classify --format tsv
              sentiment classify --help
            """,
        version: "1.0.0",
        subcommands: [
            ClassifyCommand.self,
            TrainCommand.self,
            EvalCommand.self,
            ExplainCommand.self,
            TweetsCommand.self,
            ImportCommand.self,
            HistoryCommand.self,
            ServeCommand.self,
        ]
    )

    /// Runs the command line, refusing `help` with a topic that names no
    /// subcommand (exit 64) instead of showing the root help, refusing an
    /// argument that is not UTF-8 (64; but `explain`'s text), and reading an
    /// `explain` text that starts with "---" as a text.
    static func main() async {
        // A reader that goes away (`| head`) makes write(2) fail with EPIPE,
        // which ends a command quietly (`StandardStreams.write`, the classify
        // pipeline), instead of SIGPIPE killing the process (status 141).
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let word = HelpTopic.unknownWord(in: arguments, root: Self.self) {
            exit(withError: ValidationError("no command named '\(word)'; 'sentiment --help' lists them"))
        }
        // A file name, model folder or --db path that is not UTF-8 would name
        // another, missing file ("no such file"); explain reads its text
        // with U+FFFD and says so.
        if arguments.first != "explain", let bad = RawArguments.invalidUTF8.first {
            exit(withError: ValidationError("the argument '\(TerminalText.oneLine(bad))' is not valid UTF-8: sentiment reads "
                + "its arguments, file names too, as UTF-8 (rename the file, or give it on standard input)"))
        }
        await main(DashLedText.separated(arguments))
    }
}
