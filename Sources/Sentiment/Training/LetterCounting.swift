/// Learning the language test's letter model (`LetterModel`) from training
/// texts, and measuring it on texts it did not learn from.
extension LetterModel {
    /// The letter model of the words of `texts`, tokenized with `settings`.
    static func learn(from texts: some Sequence<String>, settings: FeatureSettings) -> LetterModel {
        var counter = Counter()
        let buffer = TokenBuffer()
        for text in texts {
            tokenize(text, settings: settings, into: buffer)
            counter.add(buffer)
        }
        return counter.model()
    }

    /// How many of `examples` step 5 of the language test puts in another
    /// language when each fold's texts are read by a letter model learned from
    /// the other folds: the English tweets it would withhold a label from.
    static func heldOutFlags(_ examples: [LabeledExample], fold: [Int], folds: Int, settings: FeatureSettings) -> Int {
        guard folds >= 2 else { return 0 }
        let plain = LanguageDetector(seed: settings.hashSeed)
        let buffer = TokenBuffer()
        var flagged = 0
        for k in 0..<folds {
            let others = examples.indices.lazy.filter { fold[$0] != k }.map { examples[$0].text }
            let detector = LanguageDetector(seed: settings.hashSeed, letters: learn(from: others, settings: settings))
            for i in examples.indices where fold[i] == k {
                tokenize(examples[i].text, settings: settings, into: buffer)
                if detector.detect(buffer) != plain.detect(buffer) { flagged += 1 }
            }
        }
        return flagged
    }

    private static func tokenize(_ text: String, settings: FeatureSettings, into buffer: TokenBuffer) {
        var text = text
        text.withUTF8 { buffer.tokenize(UnsafeRawBufferPointer($0), options: settings.tokenizerOptions, seed: settings.hashSeed) }
    }
}
