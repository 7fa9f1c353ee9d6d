import CTokenizer
import Foundation

/// How English words are spelled: a letter 4-gram model learned from the
/// training tweets' words, which the language test (`LanguageDetector`) asks
/// how English a text's words look when it has too few function words to
/// tell.
///
/// A word is read as symbols — `a`–`z`, the apostrophe, one symbol for every
/// other letter (any other non-ASCII character: "ж", "ア") — between boundary
/// marks, and each symbol is predicted from the three before it. A Latin
/// letter with a diacritic is read as its base letter ("é" as "e", "ø" as
/// "o", "æ" as "ae"; `folded`): the training tweets spell almost none, and
/// one symbol that they never saw would cost a loanword or a name ("Déjà",
/// "Mbappé") more than the language test's margin alone. Counts are
/// smoothed by interpolating each order with the one below (add-2 towards the
/// lower order's probability, down to the uniform 1/29), and the cost of each
/// prediction, −ln p, is kept in sixteenths of a nat (0…255) in a table of
/// 29⁴ entries. A word holding a digit or other punctuation is not read.
///
/// English tweets cost about 2 nats a symbol; Tagalog, Swahili, Hungarian or
/// Welsh cost 3.5–4.5 (`LanguageDetector.lettersVerdict`).
struct LetterModel: Sendable, Hashable {
    /// Symbols: the boundary, `a`–`z`, the apostrophe, any other letter.
    static let symbols = 29
    /// Symbols predicted from the three before them.
    static let order = 4
    /// Entries in the table: one per (three-symbol context, symbol).
    static let entries = symbols * symbols * symbols * symbols
    /// Table units per nat.
    static let unitsPerNat: Float = 16
    /// The fewest training texts `sentiment train` learns a letter model
    /// from: fewer spell too few words for a model that calls what it has not
    /// seen foreign.
    static let minimumTrainingTexts = 10_000

    /// The cost of each symbol after each context, in sixteenths of a nat,
    /// indexed by `((c1·29 + c2)·29 + c3)·29 + symbol`.
    let costs: [UInt8]

    /// A model from its table (`entries` bytes).
    init?(costs: [UInt8]) {
        guard costs.count == Self.entries else { return nil }
        self.costs = costs
    }

    /// The file a model directory keeps the table in.
    static let fileName = "letters.bin"
    /// The first bytes of the file, before the table.
    static let magic = Array("SSLETTR1".utf8)

    /// The file's bytes: `magic`, then the table.
    var fileBytes: [UInt8] { Self.magic + costs }

    /// A model from a file's bytes; nil when they are not `magic` and a whole table.
    init?(fileBytes bytes: some Collection<UInt8>) {
        guard bytes.count == Self.magic.count + Self.entries, bytes.starts(with: Self.magic) else { return nil }
        self.init(costs: Array(bytes.dropFirst(Self.magic.count)))
    }

    /// The symbol of a byte of a word: 1–26 for `a`–`z`, 27 for the
    /// apostrophe, 28 for the lead byte of a non-ASCII character not
    /// `folded`, and 0 for any other ASCII byte (a word holding one is not
    /// read) and for continuation bytes (which `forEachSymbol` passes over).
    @inline(__always)
    static func symbol(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 1
        case UInt8(ascii: "'"): 27
        case 0xC0...: 28
        default: 0
        }
    }

    /// Calls `body` with each symbol of `word` (lower-case UTF-8, as the
    /// tokenizer writes words) in order, then the closing boundary. Returns
    /// false, calling nothing, when the word holds a byte it is not read with
    /// (a digit, punctuation, a capital).
    @inline(__always)
    static func forEachSymbol(_ word: UnsafeRawBufferPointer, _ body: (Int) -> Void) -> Bool {
        for byte in word where byte < 0x80 && symbol(byte) == 0 { return false }
        var i = 0
        while i < word.count {
            let byte = word[i]
            guard byte >= 0xC0 else {
                if byte < 0x80 { body(symbol(byte)) }
                i += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            let letters = folded(word, at: i, length: length)
            if letters == 0 {
                body(symbol(byte))
            } else {
                body(Int(letters & 0xFF))
                if letters > 0xFF { body(Int(letters >> 8)) }
            }
            i += length
        }
        body(0)
        return true
    }

    /// The symbols of the base letters of the Latin letter with a diacritic
    /// encoded in `length` bytes at `start` of `word`: the first in the low
    /// byte, a second ("æ" is "ae") in the high byte; 0 for any other
    /// character.
    @inline(__always)
    static func folded(_ word: UnsafeRawBufferPointer, at start: Int, length: Int) -> UInt16 {
        guard start + length <= word.count else { return 0 }
        var scalar = UInt32(word[start]) & (0xFF >> (length + 1))
        for k in 1..<length { scalar = scalar << 6 | UInt32(word[start + k] & 0x3F) }
        switch scalar {
        case 0xC0..<0x250: return baseLetters[Int(scalar) - 0xC0]
        case 0x1E00..<0x1F00: return baseLetters[Int(scalar) - 0x1E00 + 0x190]
        default: return 0
        }
    }

    /// `folded`'s table for U+00C0–U+024F (Latin-1 Supplement and Latin
    /// Extended-A and -B), then U+1E00–U+1EFF (Latin Extended Additional: the
    /// letters of Vietnamese): the letters of each character's canonical
    /// decomposition that are `a`–`z`, or for the letters that have none, the
    /// ones they are written as in ASCII ("ø" "o", "ł" "l", "ı" "i", "æ" "ae").
    static let baseLetters: [UInt16] = {
        let unfolded: [Unicode.Scalar: String] = [
            "æ": "ae", "œ": "oe", "ø": "o", "ð": "d", "þ": "th", "đ": "d", "ħ": "h", "ı": "i", "ĸ": "k",
            "ł": "l", "ŋ": "n", "ŧ": "t", "ƀ": "b", "ƈ": "c", "ɍ": "r", "ɏ": "y",
        ]
        let scalars = Array(0xC0..<0x250) + Array(0x1E00..<0x1F00)
        return scalars.map { value in
            guard let scalar = Unicode.Scalar(value) else { return 0 }
            let base = unfolded[scalar] ?? String(scalar).decomposedStringWithCanonicalMapping
            let letters = base.unicodeScalars.compactMap { letter -> UInt16? in
                letter.isASCII ? UInt16(symbol(UInt8(letter.value))) : nil
            }.filter { $0 != 0 }
            guard (1...2).contains(letters.count) else { return 0 }
            return letters.count == 1 ? letters[0] : letters[0] | letters[1] << 8
        }
    }()

    /// The total cost of `word`'s symbols in nats, and how many there are
    /// (its letters and the closing boundary); nil for a word not read.
    func cost(of word: UnsafeRawBufferPointer) -> (nats: Float, symbols: Int)? {
        costs.withUnsafeBufferPointer { table in
            var context = 0, units = 0, count = 0
            let read = Self.forEachSymbol(word) { symbol in
                units += Int(table[context * Self.symbols + symbol])
                context = (context * Self.symbols + symbol) % (Self.symbols * Self.symbols * Self.symbols)
                count += 1
            }
            return read ? (Float(units) / Self.unitsPerNat, count) : nil
        }
    }

    /// Counts of the symbols in words, from which a model is made.
    struct Counter {
        /// `counts[k]`: occurrences of each (k-symbol context, symbol), k = 0…3,
        /// indexed as the table is for its last k + 1 symbols.
        private var counts: [[UInt32]] = (0..<LetterModel.order).map {
            [UInt32](repeating: 0, count: Self.power[$0 + 1])
        }

        /// `power[k]`: 29^k, the number of k-symbol sequences, k = 0…4.
        private static let power = (0...LetterModel.order).map { k in
            (0..<k).reduce(1) { result, _ in result * LetterModel.symbols }
        }

        /// Counts the words (`CTK_WORD` tokens) of `buffer`.
        mutating func add(_ buffer: TokenBuffer) {
            let word = UInt16(CTK_WORD.rawValue)
            for i in 0..<buffer.count where buffer.tokens[i].kind == word {
                add(word: buffer.textBytes(of: i))
            }
        }

        /// Counts the symbols of one word.
        mutating func add(word: UnsafeRawBufferPointer) {
            var context = 0
            _ = LetterModel.forEachSymbol(word) { symbol in
                let full = context * LetterModel.symbols + symbol
                for k in 0..<LetterModel.order {
                    counts[k][full % Self.power[k + 1]] += 1
                }
                context = full % Self.power[LetterModel.order - 1]
            }
        }

        /// The model of the counts: each order interpolated with the one below.
        func model() -> LetterModel {
            let s = LetterModel.symbols
            // Context totals for each order: the sum of its row of counts.
            let totals: [[UInt32]] = (0..<LetterModel.order).map { k in
                (0..<Self.power[k]).map { context in
                    (0..<s).reduce(0) { $0 + counts[k][context * s + $1] }
                }
            }
            var probabilities = [Double](repeating: 1 / Double(s), count: s)
            for k in 0..<LetterModel.order {
                let next = Self.power[k + 1]
                var higher = [Double](repeating: 0, count: next)
                for index in 0..<next {
                    // The same symbol after the context one symbol shorter
                    // (for k = 0 the uniform distribution, one entry for all).
                    let backoff = probabilities[index % Self.power[k]]
                    higher[index] = (Double(counts[k][index]) + 2 * backoff) / (Double(totals[k][index / s]) + 2)
                }
                probabilities = higher
            }
            let costs = probabilities.map { p in
                UInt8(min(255, (-log(p) * Double(LetterModel.unitsPerNat)).rounded()))
            }
            return LetterModel(costs: costs)!
        }
    }
}
