import ArgumentParser
import Foundation
import Tweets

/// `sentiment history [--clear]`: the usernames searched with `sentiment tweets`.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the searched usernames, most recent first, or clear them.",
        discussion: """
            Each username shown by `sentiment tweets` is recorded once, most recent \
            first; the oldest are dropped beyond 50.

            Exit status: 0 success; 73 the database cannot be opened, read or \
            written (locked by another process past 10 s, a full disk); 74 standard \
            output is closed or cannot be written (a full disk).

            Examples:
              sentiment history
              sentiment history --clear
              sentiment history --db /tmp/dev.sqlite
            """
    )

    @Flag(help: "Forget every searched username.")
    var clear = false

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        if !clear { try StandardStreams.requireOutput() }
        // No database yet: nothing was searched, and none is made to say so.
        guard let store = try database.openExistingStore(logger: makeTweetsLogger(), forWriting: clear) else { return }
        try await database.reportingFailures {
            if clear {
                try await store.clearSearchHistory()
                return
            }
            var text = ""
            for entry in try await store.searchHistory(limit: TweetService.Options().historyLimit) {
                // A database may come from anywhere (a shared snapshot): its names are printed safe.
                text += "\(TerminalText.oneLine(entry.username))\t\(TweetDate.iso8601String(entry.searchedAt))\n"
            }
            try StandardStreams.write(text)
        }
    }
}
