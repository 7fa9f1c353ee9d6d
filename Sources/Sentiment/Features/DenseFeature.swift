/// The dense, per-tweet features that sit beside the hashed n-grams. They are
/// few (a BLAS-sized block, `count` columns), standardized with the training
/// set's mean and spread, and scored by `cblas_sgemm` over a whole batch.
public enum DenseFeature: Int, CaseIterable, Sendable {
    /// log(1 + words in capitals).
    case allCapsWords
    /// log(1 + elongated words).
    case elongatedWords
    /// log(1 + '!' runs).
    case exclamations
    /// log(1 + '?' runs).
    case questions
    /// log(1 + punctuation runs of 2+ characters).
    case emphasis
    /// log(1 + negation cues).
    case negators
    /// Share of tokens in a negation scope.
    case negatedShare
    /// log(1 + emoji).
    case emoji
    /// log(1 + emoticons).
    case emoticons
    /// 1 when the tweet links somewhere.
    case hasURL
    /// log(1 + @mentions).
    case mentions
    /// log(1 + hashtags).
    case hashtags
    /// log(1 + tokens).
    case length
    /// 1 when the last token is '!' or an emoji/emoticon.
    case endsEmphatic
    /// Sum of the lexicon's positive scores over the tweet's words.
    case lexiconPositiveSum
    /// Sum of the lexicon's negative scores over the tweet's words.
    case lexiconNegativeSum
    /// Largest positive lexicon score of a word.
    case lexiconPositiveMax
    /// Largest negative lexicon score of a word.
    case lexiconNegativeMax
    /// Lexicon positive score of the last scored word.
    case lexiconPositiveLast
    /// Lexicon negative score of the last scored word.
    case lexiconNegativeLast
    /// Words with a clearly positive lexicon score (log(1 + count)).
    case lexiconPositiveCount
    /// Words with a clearly negative lexicon score (log(1 + count)).
    case lexiconNegativeCount
    /// Positive minus negative lexicon sum in the clause after the last "but".
    case lexiconAfterContrast
    /// log(1 + happy emoticons) − log(1 + sad ones), by the face's shape
    /// (`EmoticonPolarity`), so faces the training data never showed, and the
    /// face emoji read as emoticons, still count; approving and disapproving
    /// gesture emoji (`EmojiPolarity`: 👍 👏 🎉 …, 👎 🤦 🤮 …) count with them.
    case emoticonPolarity

    /// Number of dense features (columns of the dense block).
    public static let count = allCases.count

    /// A stable name for manifests and `explain`.
    public var name: String { String(describing: self) }

    /// The name models written before `emoticonPolarity` gave its column,
    /// which was always 0 there (such models load with its weights zeroed).
    static let legacyReservedName = "reserved"
}
