import Foundation
import Tweets

/// Formats timelines for `sentiment tweets`: one JSON object a line, or a
/// readable list with each tweet's emoji, date and theme colour (the texts
/// from the source on one line, without control characters: ``TerminalText``).
struct TimelinePrinter {
    enum Format: String, CaseIterable {
        case pretty, jsonl
    }

    let format: Format
    /// 24-bit ANSI colours (`standardOutputWantsColor`: a terminal, not `TERM=dumb`, without `NO_COLOR`; or `FORCE_COLOR`).
    let color: Bool

    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE d MMM yyyy HH:mm"
        return formatter
    }()

    func header(_ user: User) -> String {
        guard format == .pretty else { return "" }
        var text = bold("@" + oneLine(user.username)) + " — \(oneLine(user.displayName))\n"
        if let description = user.description { text += oneLine(description) + "\n" }
        return text + "\n"
    }

    func line(_ tweet: ClassifiedTweet) throws -> String {
        switch format {
        case .jsonl:
            return TerminalText.escapingJSON(String(decoding: try encoder.encode(tweet), as: UTF8.self)) + "\n"
        case .pretty:
            let date = dateFormatter.string(from: tweet.tweet.createdAt)
            let text = oneLine(tweet.tweet.text)
            switch tweet.mood {
            case .themed(let theme):
                let mood = theme.name.padding(toLength: 8, withPad: " ", startingAt: 0)
                return "\(theme.emoji) " + paint(mood, theme.color) + " \(date)  " + paint(text, theme.color) + "\n"
            case .unsupportedLanguage(let code):
                return "🌐 " + oneLine(code).padding(toLength: 8, withPad: " ", startingAt: 0) + " \(date)  \(text)"
                    + dim("  (unsupported language)") + "\n"
            }
        }
    }

    private func oneLine(_ text: String) -> String {
        TerminalText.oneLine(text)
    }

    private func paint(_ text: String, _ rgb: RGBColor) -> String {
        color ? "\u{1B}[38;2;\(rgb.red);\(rgb.green);\(rgb.blue)m\(text)\u{1B}[0m" : text
    }

    private func bold(_ text: String) -> String { color ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    private func dim(_ text: String) -> String { color ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
}
