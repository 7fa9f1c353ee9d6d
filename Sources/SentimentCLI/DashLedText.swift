/// The text of `sentiment explain` when it starts with three dashes.
enum DashLedText {
    /// `arguments` (the command line after the program's name) with an
    /// `explain` text that starts with three dashes ("--- great ---"), which
    /// ArgumentParser refuses as a malformed option before this command sees
    /// it, moved to the end after `--`, so that options after it are still
    /// options; a `--` already given, or an option's value, is left alone.
    static func separated(_ arguments: [String]) -> [String] {
        guard arguments.first == "explain" else { return arguments }
        for index in arguments.indices.dropFirst() {
            let argument = arguments[index]
            if argument == "--" { return arguments }
            if argument.hasPrefix("---"), !["--model", "--limit"].contains(arguments[index - 1]) {
                var separated = arguments
                separated.remove(at: index)
                return separated + ["--", argument]
            }
        }
        return arguments
    }
}
