/// What the model can say about a text's language before scoring it.
///
/// The model is trained on English tweets only. A text written mostly in
/// another script, or in Latin script without English function words but with
/// another language's, is `unsupported`: callers should show "unsupported
/// language" rather than a mood. Text with no letters at all (emoji, numbers)
/// is `undetermined` and is scored as usual.
public enum Language: Sendable, Hashable, Codable {
    /// English, as far as a cheap test can tell.
    case english
    /// No letters to judge by (emoji, emoticons, numbers, URLs only).
    case undetermined
    /// Not English. `code` is a short tag of what was seen: an ISO 639-1 code
    /// when the stopword test names a language ("es", "fr", "de", "pt", "it",
    /// "nl", "id", "tr"), "non-latin" for text mostly in another script, and
    /// "other" for accented Latin-script text of no listed language.
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
}
