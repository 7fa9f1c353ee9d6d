import ArgumentParser
import Foundation

/// The command line and environment as the process got them, in bytes: the
/// Swift runtime reads an argument (or a variable) that is not UTF-8 with
/// U+FFFD in place of its bad bytes and says nothing (`CommandLine.arguments`,
/// `ProcessInfo.environment`), so a file name in another encoding
/// ("caf\xe9.tsv") would name another file, one that does not exist.
enum RawArguments {
    /// The arguments whose bytes are not UTF-8, as the runtime read them.
    static var invalidUTF8: [String] {
        (1..<Int(CommandLine.argc)).compactMap { i in
            guard let raw = CommandLine.unsafeArgv[i], String(validatingCString: raw) == nil else { return nil }
            return String(cString: raw)
        }
    }

    /// Refuses, as a usage error, the first of the environment variables
    /// `names` that is set to bytes that are not UTF-8: each names a file or
    /// folder, which would be looked for under another name. `instead` says
    /// how to name it otherwise ("--model DIR").
    static func checkEnvironment(_ names: [String], instead: String) throws {
        for name in names {
            guard let raw = getenv(name), String(validatingCString: raw) == nil else { continue }
            throw ValidationError("$\(name) '\(TerminalText.oneLine(String(cString: raw)))' is not valid UTF-8: sentiment reads "
                + "file names as UTF-8 (rename the folder, or give \(instead))")
        }
    }

    /// Whether `text`, an argument, came as bytes that are not UTF-8.
    static func isInvalidUTF8(_ text: String) -> Bool {
        text.unicodeScalars.contains("\u{FFFD}") && invalidUTF8.contains(text)
    }
}
