import ArgumentParser
import Foundation
import Sentiment

/// The options that choose a model, shared by every command that classifies.
///
/// ```swift
/// struct MyCommand: ParsableCommand {
///     @OptionGroup var modelOptions: ModelOptions
///     func run() throws {
///         let model = try modelOptions.loadModel()
///         …
///     }
/// }
/// ```
struct ModelOptions: ParsableArguments {
    @Option(
        name: .customLong("model"),
        help: ArgumentHelp(
            "A model directory (with manifest.json). Defaults to $SENTIMENT_MODEL, then Models/default.",
            valueName: "dir"),
        completion: .directory)
    var directory: String?

    func validate() throws {
        // An empty path would be the current directory, used unsaid.
        if directory?.isEmpty == true {
            throw ValidationError("--model needs a model directory; leave it out for the default model")
        }
        if directory == nil { try RawArguments.checkEnvironment([SentimentModel.modelEnvironmentVariable], instead: "--model DIR") }
    }

    /// Loads the chosen model: `--model DIR`, otherwise `SentimentModel.loadDefault()`.
    ///
    /// - Throws: `ExitCode.noInput` (66) when the model is missing or unreadable and
    ///   `ExitCode.dataError` (65) when it is malformed, after printing a
    ///   one-line error that names the file to standard error.
    func loadModel() throws -> SentimentModel {
        do {
            if let directory {
                return try SentimentModel.load(from: URL(fileURLWithPath: directory))
            }
            return try SentimentModel.loadDefault()
        } catch {
            printError("cannot load the model: \(error)")
            throw error.isMissing ? ExitCode.noInput : ExitCode.dataError
        }
    }
}

/// Writes `sentiment: <message>` and a newline to standard error, the message
/// on one line without control characters (``TerminalText``: it may quote an
/// archive's id or a file name).
func printError(_ message: String) {
    writeToStandardError("sentiment: \(TerminalText.oneLine(message))\n")
}
