import ArgumentParser

/// The topic of `sentiment help TOPIC…`.
///
/// ArgumentParser's built-in `help` shows the root help and exits 0 when its
/// topic names no subcommand, so `sentiment help clasify` would look like an
/// answer; ``SentimentCommand/main()`` asks this first and fails as a usage
/// error instead.
enum HelpTopic {
    /// The first word after `help` that names no subcommand where it stands
    /// (`nope` in `help nope`, `x` in `help tweets x`), or `nil` when the
    /// arguments are not a `help` request or every word names one.
    static func unknownWord(in arguments: [String], root: any ParsableCommand.Type) -> String? {
        guard arguments.first == "help" else { return nil }
        var command = root
        for word in arguments.dropFirst() where !word.hasPrefix("-") {
            guard let subcommand = command.configuration.subcommands.first(where: { $0._commandName == word }) else {
                return word
            }
            command = subcommand
        }
        return nil
    }
}
