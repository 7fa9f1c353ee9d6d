import CTokenizer

/// Counts, per fold and lexicon slot, the tweets of each class that contain a
/// word (each word once per tweet), from which `Lexicon.learn` makes the
/// per-fold and the full lexicons.
struct LexiconCounter {
    let bits: Int
    let folds: Int
    let settings: FeatureSettings

    struct Counts {
        let bits: Int
        /// `folds × slots × 3` counts.
        let perFold: [[Int32]]
        /// `folds × 3` tweets per class.
        let classTotals: [[Int]]

        /// The lexicon learned from every fold but `excluded` (all folds when nil).
        func lexicon(excluding excluded: Int?) -> Lexicon {
            var counts = [Int32](repeating: 0, count: 3 << bits)
            var totals = [0, 0, 0]
            for k in perFold.indices where k != excluded {
                for slot in 0..<counts.count { counts[slot] += perFold[k][slot] }
                for c in 0..<3 { totals[c] += classTotals[k][c] }
            }
            return Lexicon.learn(counts: counts, classTotals: totals, bits: bits)
        }
    }

    func count(_ examples: [LabeledExample], fold: [Int]) -> Counts {
        var perFold = [[Int32]](repeating: [Int32](repeating: 0, count: 3 << bits), count: folds)
        var classTotals = [[Int]](repeating: [0, 0, 0], count: folds)
        let buffer = TokenBuffer()
        var seen = Set<Int>()
        for (i, example) in examples.enumerated() {
            var text = example.text
            text.withUTF8 { buffer.tokenize(UnsafeRawBufferPointer($0), options: settings.tokenizerOptions, seed: settings.hashSeed) }
            seen.removeAll(keepingCapacity: true)
            let label = example.label.index
            for t in 0..<buffer.count {
                guard let key = FeatureExtractor.lexiconKey(buffer.tokens[t]) else { continue }
                let slot = Lexicon.slot(key, bits: bits)
                if seen.insert(slot).inserted { perFold[fold[i]][3 * slot + label] += 1 }
            }
            classTotals[fold[i]][label] += 1
        }
        return Counts(bits: bits, perFold: perFold, classTotals: classTotals)
    }
}
