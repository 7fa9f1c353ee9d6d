import Foundation
import Testing
@testable import Sentiment

/// The language test's letter model (`LetterModel`): how English words are
/// spelled, learned from the training texts.
@Suite("Letter model")
struct LetterModelTests {
    private static func cost(_ model: LetterModel, _ word: String) -> (nats: Float, symbols: Int)? {
        Array(word.utf8).withUnsafeBytes { model.cost(of: $0) }
    }

    private static func model(learning words: [String]) -> LetterModel {
        var counter = LetterModel.Counter()
        for word in words { Array(word.utf8).withUnsafeBytes { counter.add(word: $0) } }
        return counter.model()
    }

    @Test("A spelling the counts have seen costs less a letter than one they have not")
    func seenSpellingsCostLess() throws {
        let model = Self.model(learning: Array(repeating: ["the", "there", "other", "weather", "thanks"], count: 20).flatMap { $0 })
        let seen = try #require(Self.cost(model, "the"))
        let unseen = try #require(Self.cost(model, "qxz"))
        #expect(seen.symbols == 4 && unseen.symbols == 4, "three letters and the word's end")
        #expect(seen.nats / 4 < 1)
        #expect(unseen.nats / 4 > 3)
        // Every probability is smoothed: nothing is free or impossible.
        #expect(seen.nats > 0)
        #expect(unseen.nats < 4 * 16)
    }

    @Test("A non-ASCII letter is one symbol, and a word with a digit or punctuation is not read")
    func symbols() throws {
        let model = Self.model(learning: ["cafe"])
        #expect(try #require(Self.cost(model, "café")).symbols == 5)
        #expect(try #require(Self.cost(model, "кафе")).symbols == 5)
        #expect(try #require(Self.cost(model, "don't")).symbols == 6)
        #expect(Self.cost(model, "2nd") == nil)
        #expect(Self.cost(model, "e-mail") == nil)
    }

    @Test("A Latin letter with a diacritic costs what its base letters do", arguments: [
        ("café", "cafe"), ("déjà", "deja"), ("mbappé", "mbappe"), ("ødegaard", "odegaard"), ("ælfred", "aelfred"),
        ("łódź", "lodz"), ("phở", "pho"), ("gündoğan", "gundogan"),
    ])
    func diacriticsFolded(word: String, base: String) throws {
        let model = Self.model(learning: Array(repeating: ["cafe", "the", "dog", "and"], count: 10).flatMap { $0 })
        let folded = try #require(Self.cost(model, word))
        let plain = try #require(Self.cost(model, base))
        #expect(folded.nats == plain.nats && folded.symbols == plain.symbols)
        // Letters of other scripts are not folded: one symbol the counts never saw.
        #expect(try #require(Self.cost(model, "кафе")).nats > #require(Self.cost(model, "cafe")).nats + 2)
    }

    @Test("The costs follow the counts: a letter after a context is cheaper the more often it came there")
    func costsFollowCounts() throws {
        let model = Self.model(learning: Array(repeating: "abc", count: 30) + Array(repeating: "abd", count: 10))
        let c = try #require(Self.cost(model, "abc")).nats
        let d = try #require(Self.cost(model, "abd")).nats
        #expect(c < d)
        // ln 4 ≈ 1.39 nats between 30 and 10 of 40, less the smoothing's pull.
        #expect((d - c) > 0.8 && (d - c) < 1.4, "\(d - c)")
    }

    @Test("A model's file holds its table after a mark, and other bytes are refused")
    func fileRoundTrip() throws {
        let model = Self.model(learning: ["hello", "world"])
        let bytes = model.fileBytes
        #expect(bytes.count == 8 + 29 * 29 * 29 * 29)
        #expect(LetterModel(fileBytes: bytes) == model)
        #expect(LetterModel(fileBytes: bytes.dropLast()) == nil)
        var marked = bytes
        marked[0] = UInt8(ascii: "X")
        #expect(LetterModel(fileBytes: marked) == nil)
    }
}
