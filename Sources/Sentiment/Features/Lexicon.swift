import CTokenizer

/// A word-polarity lexicon learned from the training tweets: for each hashed
/// word (negated words apart from plain ones), how much more often it appears
/// in positive (and in negative) tweets than in the rest, as a smoothed
/// log-odds ratio. It feeds the dense lexicon features.
///
/// During training the lexicon of each fold is learned without that fold's
/// tweets (cross-fitting), so the model does not learn to trust scores that saw
/// the very tweet they describe.
struct Lexicon: Sendable {
    /// log2 of the table's size.
    let bits: Int
    /// Interleaved (positive, negative) scores, `2 << bits` floats.
    let scores: [Float]

    var mask: Int { (1 << bits) - 1 }

    /// The sizes a model file may hold (`ModelManifest.lexiconBits`).
    static let bitsRange = 8...24

    /// A lexicon with every score 0.
    static func empty(bits: Int) -> Lexicon {
        Lexicon(bits: bits, scores: [Float](repeating: 0, count: 2 << bits))
    }

    /// The slot of a word's hash.
    @inline(__always)
    static func slot(_ hash: UInt64, bits: Int) -> Int { Int(truncatingIfNeeded: hash >> 7) & ((1 << bits) - 1) }

    /// The (positive, negative) scores of a word's hash; (0, 0) for a word it does not score.
    @inline(__always)
    func scores(of hash: UInt64) -> (positive: Float, negative: Float) {
        let slot = Self.slot(hash, bits: bits)
        return (scores[2 * slot], scores[2 * slot + 1])
    }

    /// Starts fetching the slot `scores(of: hash)` reads.
    @inline(__always)
    func prefetchScores(of hash: UInt64) {
        let slot = Self.slot(hash, bits: bits)
        scores.withUnsafeBufferPointer { ctk_prefetch($0.baseAddress! + 2 * slot) }
    }

    /// Smallest count at which a word gets a score.
    static let minimumCount = 3
    /// Additive smoothing of the counts.
    static let smoothing = 1.0

    /// Learns a lexicon from per-slot counts of (negative, neutral, positive) tweets
    /// containing the word, and the class totals.
    static func learn(counts: [Int32], classTotals: [Int], bits: Int) -> Lexicon {
        var scores = [Float](repeating: 0, count: 2 << bits)
        let total = Double(classTotals.reduce(0, +))
        let positiveTotal = Double(classTotals[2]), negativeTotal = Double(classTotals[0])
        for slot in 0..<(1 << bits) {
            let negative = Double(counts[3 * slot]), neutral = Double(counts[3 * slot + 1]), positive = Double(counts[3 * slot + 2])
            let all = negative + neutral + positive
            guard all >= Double(minimumCount) else { continue }
            scores[2 * slot] = Float(logOdds(hits: positive, of: positiveTotal, rest: all - positive, of: total - positiveTotal))
            scores[2 * slot + 1] = Float(logOdds(hits: negative, of: negativeTotal, rest: all - negative, of: total - negativeTotal))
        }
        return Lexicon(bits: bits, scores: scores)
    }

    /// log( P(word | class) / P(word | other classes) ), smoothed.
    private static func logOdds(hits: Double, of classCount: Double, rest: Double, of restCount: Double) -> Double {
        let a = smoothing
        return log((hits + a) / (classCount + 2 * a)) - log((rest + a) / (restCount + 2 * a))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
