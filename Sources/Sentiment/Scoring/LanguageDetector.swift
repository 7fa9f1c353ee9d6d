import CTokenizer

/// A cheap language test run on the tokens the model already has.
///
/// 1. No letters at all (emoji, numbers, links): `.undetermined`, scored as usual.
/// 2. More letters outside the Latin script than in it: `.unsupported("non-latin")`.
/// 3. Latin script: count the words that are function words ("stopwords") of
///    English and of eight other languages written in Latin script. A text with
///    at least `minimumForeignHits` stopwords of one other language and more of
///    them than English ones is `.unsupported(<that language's code>)`.
///    A text with no English stopword at all is also `.unsupported` when its
///    foreign stopwords and its words spelled with accented Latin letters
///    ("día", "être", "für") add up to `minimumForeignHits`, so that short
///    tweets such as "Qué día tan bonito" are caught.
///    Everything else is `.english`: short texts without function words are
///    given the benefit of the doubt.
///
/// The lists are short, hand-picked, and avoid words shared with English
/// ("a", "me", "no", "son", "die", "in" …).
struct LanguageDetector: Sendable {
    /// Foreign stopwords needed before a Latin-script text is called foreign.
    static let minimumForeignHits = 2

    static let stopwords: [(code: String, words: [String])] = [
        ("en", ["the", "and", "is", "are", "was", "you", "it", "this", "that", "of", "to", "for", "with", "my",
                "i", "i'm", "have", "be", "not", "but", "just", "so", "what", "on", "at", "we", "they", "your",
                "will", "can", "don't", "all", "get", "love", "like", "day", "good", "he", "she", "from", "if",
                "about", "out", "up", "do", "how", "when", "one", "an", "or", "as", "by", "go", "really"]),
        ("es", ["el", "los", "las", "una", "es", "por", "para", "con", "pero", "muy", "que", "del", "est\u{e1}",
                "mi", "lo", "como", "m\u{e1}s", "este", "esta", "hoy", "tengo", "porque", "y", "qu\u{e9}", "yo", "tu", "ya",
                "tan", "d\u{ed}a", "hay", "tambi\u{e9}n", "gracias"]),
        ("fr", ["le", "les", "est", "une", "des", "et", "pas", "pour", "avec", "dans", "je", "tu", "nous", "vous",
                "c'est", "qui", "sur", "mais", "tr\u{e8}s", "du", "au", "ce", "cette", "j'ai", "suis", "aujourd'hui"]),
        ("de", ["der", "das", "und", "ist", "nicht", "ich", "du", "ein", "eine", "mit", "auf", "f\u{fc}r", "sehr",
                "heute", "aber", "wir", "sie", "zu", "den", "dem", "auch", "noch", "schon", "bin"]),
        ("pt", ["os", "uma", "n\u{e3}o", "com", "para", "mais", "muito", "voc\u{ea}", "eu", "meu", "minha", "hoje",
                "est\u{e1}", "que", "isso", "ele", "ela", "tem", "foi", "aqui", "obrigado", "tudo", "do", "da"]),
        ("it", ["il", "gli", "della", "che", "non", "sono", "per", "con", "una", "molto", "oggi", "questo", "ma",
                "anche", "ho", "io", "mi", "ci", "perch\u{e9}", "grazie", "tutto", "sei"]),
        ("nl", ["het", "een", "en", "van", "niet", "ik", "je", "dat", "met", "voor", "zijn", "maar", "ook", "heel",
                "vandaag", "wat", "naar", "wel", "nog", "jij"]),
        ("id", ["yang", "dan", "ini", "itu", "tidak", "aku", "kamu", "ada", "dengan", "untuk", "saya", "sudah",
                "akan", "juga", "bisa", "banget", "lagi", "sama", "gak", "nya"]),
        ("tr", ["bir", "ve", "bu", "\u{e7}ok", "ben", "sen", "ne", "de\u{11f}il", "i\u{e7}in", "gibi", "ama", "daha",
                "var", "yok", "\u{15f}u", "bug\u{fc}n", "te\u{15f}ekk\u{fc}rler", "ile"]),
    ]

    /// Language index per stopword token hash. A word listed for several
    /// languages counts for the first (English first).
    private let table: [UInt64: Int]
    private let codes: [String]

    init(seed: UInt64) {
        var table: [UInt64: Int] = [:]
        for (index, entry) in Self.stopwords.enumerated() {
            for word in entry.words {
                var bytes = Array(word.utf8)
                let hash = bytes.withUnsafeMutableBytes { ctk_hash64($0.baseAddress, $0.count, seed) }
                if table[hash] == nil { table[hash] = index }
            }
        }
        self.table = table
        self.codes = Self.stopwords.map(\.code)
    }

    /// The language of the tokens in `buffer`.
    func detect(_ buffer: TokenBuffer) -> Language {
        if let language = Self.byScript(buffer.stats) { return language }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: codes.count) { hits in
            hits.initialize(repeating: 0)
            var accented = 0
            for i in 0..<buffer.count where buffer.tokens[i].kind == UInt16(CTK_WORD.rawValue) {
                if let language = table[buffer.tokens[i].hash] {
                    hits[language] += 1
                } else if Self.hasAccentedLatinLetter(buffer.textBytes(of: i)) {
                    accented += 1
                }
            }
            return decide(hits: UnsafeBufferPointer(hits), accented: accented)
        }
    }

    /// Number of languages with stopword lists (English is index 0).
    var languageCount: Int { codes.count }

    /// The stopword language of a word's hash: an index in `stopwords`, or -1.
    func stopwordLanguage(_ hash: UInt64) -> Int8 {
        table[hash].map(Int8.init) ?? -1
    }

    /// Steps 1 and 2: the verdict of the script counts alone, or nil when the
    /// stopwords must decide.
    @inline(__always)
    static func byScript(_ stats: ctk_stats) -> Language? {
        if stats.latin_letters + stats.other_letters == 0 { return .undetermined }
        if stats.other_letters > stats.latin_letters { return .unsupported(code: "non-latin") }
        return nil
    }

    /// Step 3: the verdict of the stopword counts per language (`hits`, indexed
    /// as `stopwords`) and the count of other words with accented letters.
    func decide(hits: UnsafeBufferPointer<Int>, accented: Int) -> Language {
        var best = 0
        for language in 1..<hits.count where hits[language] > hits[best] { best = language }
        if best != 0, hits[best] >= Self.minimumForeignHits, hits[best] > hits[0] {
            return .unsupported(code: codes[best])
        }
        let foreign = hits.dropFirst().reduce(0, +)
        if hits[0] == 0, accented > 0, foreign + accented >= Self.minimumForeignHits {
            return .unsupported(code: best != 0 ? codes[best] : "other")
        }
        return .english
    }

    /// Whether a normalized word holds a letter of Latin-1 Supplement or Latin
    /// Extended-A/B (U+00C0–U+024F: lead bytes 0xC3–0xC9 in UTF-8).
    @inline(__always)
    static func hasAccentedLatinLetter(_ word: UnsafeRawBufferPointer) -> Bool {
        word.contains { (0xC3...0xC9).contains($0) }
    }
}
