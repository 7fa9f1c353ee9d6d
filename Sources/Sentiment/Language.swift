/// What the model can say about a text's language before scoring it.
///
/// The model is trained on English tweets only. A text written mostly in
/// another script, in Latin script without English function words but with
/// another language's, or with at most one English function word and words
/// spelled unlike English (the model's letter model), is `unsupported`:
/// callers should show "unsupported language" rather than a mood. Text with
/// no letters at all (emoji, numbers) is `undetermined` and is scored as usual.
///
/// In JSON (`Codable`) a language is its `tag`: `"en"`, `"und"` or the code.
/// The tags "en", "und" and "" name `english` and `undetermined`, so an
/// `unsupported` language with one of them as its code (which the model
/// never makes) reads back as those.
public enum Language: Sendable, Hashable, Codable {
    /// English, as far as a cheap test can tell.
    case english
    /// No letters to judge by (emoji, emoticons, numbers, URLs only).
    case undetermined
    /// Not English. `code` is a short tag of what was seen: an ISO 639-1 code
    /// when the stopword test names a language ("es", "fr", "de", "pt", "it",
    /// "nl", "id", "tr", "sv", "da" for Danish and Norwegian, "fi", "pl", "cs",
    /// "ro"), "non-latin" for text mostly in another script, and "other" for
    /// Latin-script text of no listed language (by its accents, or by its
    /// spelling when the model has a letter model).
    case unsupported(code: String)

    /// Whether the model's label should be trusted for this text.
    public var isSupported: Bool {
        if case .unsupported = self { return false }
        return true
    }

    /// A tag for output formats: "en", "und", or the unsupported code.
    public var tag: String {
        switch self {
        case .english: "en"
        case .undetermined: "und"
        case .unsupported(let code): code
        }
    }

    /// The language of an output tag: "en" is `english`, "und" (or an empty
    /// tag) `undetermined`, any other tag `unsupported` with that code.
    public init(tag: String) {
        switch tag {
        case "en": self = .english
        case "und", "": self = .undetermined
        default: self = .unsupported(code: tag)
        }
    }

    /// Decodes a tag string, as `init(tag:)` reads it.
    public init(from decoder: any Decoder) throws {
        self.init(tag: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the tag string: "en", "und", or the unsupported code.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(tag)
    }
}
