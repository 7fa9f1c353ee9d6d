import Sentiment

/// What a timeline shows for one tweet: a theme, or "unsupported language".
public enum Mood: Sendable, Hashable {
    /// The tweet is in a supported language (English) and has a theme.
    case themed(Theme)
    /// The tweet is not in English; the model's label is not meaningful and no
    /// theme is shown. `language` is the tag that decided it (e.g. `"es"`).
    case unsupportedLanguage(String)

    /// The theme, or `nil` for an unsupported language.
    public var theme: Theme? {
        if case .themed(let theme) = self { return theme }
        return nil
    }

    /// `happy`, `neutral`, `sad` or `unsupported_language`.
    public var name: String {
        switch self {
        case .themed(let theme): theme.name
        case .unsupportedLanguage: "unsupported_language"
        }
    }

    /// The mood of a tweet given its prediction.
    ///
    /// The language is unsupported when the model's language test says so, or
    /// when the source tagged the tweet with a language other than English.
    /// The source's tags `und` (undetermined), `zxx` (no linguistic content),
    /// `art` and X's pseudo-tags starting with `q` (`qme` media only, `qht`
    /// hashtags only…) say nothing about the language and are ignored.
    public init(prediction: Prediction, sourceLanguage: String?, thresholds: ThemeThresholds) {
        if case .unsupported(let code) = prediction.language {
            self = .unsupportedLanguage(code)
        } else if let tag = sourceLanguage.map({ $0.lowercased() }), Self.isForeign(tag) {
            self = .unsupportedLanguage(tag)
        } else {
            self = .themed(thresholds.theme(for: prediction))
        }
    }

    static func isForeign(_ tag: String) -> Bool {
        let primary = tag.split(separator: "-").first.map(String.init) ?? tag
        if primary.isEmpty || primary == "en" || primary == "und" || primary == "zxx" || primary == "art" { return false }
        if primary.hasPrefix("q") && primary.count == 3 { return false }
        return true
    }
}
