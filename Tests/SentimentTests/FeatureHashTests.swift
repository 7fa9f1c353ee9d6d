import CTokenizer
import Testing
@testable import Sentiment

/// Feature numbers and token-table keys are part of every model file and
/// token table: the hashing must never change, and its eight-wide form
/// (`ctk_token_keys`) must agree with it.
@Suite("Feature hashing and token keys")
struct FeatureHashTests {
    @Test("The mix is splitmix64's finalizer, and features and pairs keep their published values")
    func pinnedValues() {
        // splitmix64's first output from a state of 0, as its reference code prints it.
        #expect(FeatureHash.mix(0) == 0xE220_A839_7B1D_CDAF)
        #expect(FeatureHash.combine(1, 2) == 0xC830_4A7F_6747_AB1A)
        #expect(FeatureHash.feature(.bigram, FeatureHash.combine(1, 2)) == 0x9F72_D241_85C5_8E6D)
        #expect(FeatureHash.feature(.word, 0x0123_4567_89AB_CDEF) == 0xDF50_6267_2C17_8F63)
    }

    @Test("A token's key takes its kind, negation and contrast scope, is never 0, and picks its slot")
    func pinnedKeys() {
        var token = ctk_token()
        token.hash = 0x0123_4567_89AB_CDEF
        token.kind = UInt16(CTK_WORD.rawValue)
        token.flags = UInt16(CTK_FLAG_NEGATED)
        let negated = TokenCache.key(token, contrast: false)
        #expect(negated == 0x4656_26D2_51A2_811B)
        token.kind = UInt16(CTK_HASHTAG.rawValue)
        token.flags = UInt16(CTK_FLAG_ALLCAPS)     // a flag the key ignores
        let hashtag = TokenCache.key(token, contrast: true)
        #expect(hashtag == 0xADD1_BD61_4E91_FFE7)
        // A hash that would make the key 0 gets 1, which no empty slot has.
        token.hash = 0xA076_1D64_78BD_642F
        token.kind = UInt16(CTK_WORD.rawValue)
        token.flags = 0
        #expect(TokenCache.key(token, contrast: false) == 1)

        let table = TokenTable(bits: 18)
        #expect(table.slots.capacity == 196_608)
        #expect(table.slots.slotIndex(for: negated) == 62_695)
        #expect(table.slots.slotIndex(for: hashtag) == 60_341)
    }

    /// Tokens with random hashes, kinds and flags.
    private func tokens(_ count: Int, using generator: inout some RandomNumberGenerator) -> [ctk_token] {
        (0..<count).map { _ in
            var token = ctk_token()
            token.hash = UInt64.random(in: .min ... .max, using: &generator)
            token.kind = UInt16.random(in: 1...9, using: &generator)
            token.flags = UInt16.random(in: 0...0x3F, using: &generator)
            token.text_offset = UInt32.random(in: 0...1000, using: &generator)
            return token
        }
    }

    private struct FirstPass: Equatable {
        var keys: [UInt64], slots: [Int], rows: [Int]
    }

    private func firstPass(_ tokens: [ctk_token], contrastFrom: Int, capacity: Int, mask: UInt64, bigrams: Bool,
                           portable: Bool) -> FirstPass {
        let count = tokens.count
        var pass = FirstPass(keys: .init(repeating: 0, count: count), slots: .init(repeating: -1, count: count),
                             rows: .init(repeating: -1, count: count))
        let run = portable ? ctk_token_keys_portable : ctk_token_keys
        pass.rows.withUnsafeMutableBufferPointer { rows in
            run(tokens, count, contrastFrom, capacity, FeatureHash.Namespace.bigram.rawValue, mask,
                &pass.keys, &pass.slots, bigrams ? rows.baseAddress : nil)
        }
        return pass
    }

    @Test("Keys, slots and bigram rows are the same eight at a time, one at a time, and from the Swift definitions",
          arguments: [(UInt64(1 << 20 - 1), 18), (UInt64(1 << 4 - 1), 1), (UInt64(1 << 31 - 1), 24)])
    func firstPassAgrees(mask: UInt64, tableBits: Int) {
        var generator = SystemRandomNumberGenerator()
        let capacity = TokenTable(bits: tableBits).slots.capacity
        let slots = TokenTable(bits: tableBits).slots
        // Every length from none to five groups of eight, so that every
        // remainder of the last group is met, and scopes from the start, the
        // middle and none.
        for count in 0...41 {
            let tokens = tokens(count, using: &generator)
            for contrastFrom in Set([0, count / 2, count]) {
                let expected = FirstPass(
                    keys: (0..<count).map { TokenCache.key(tokens[$0], contrast: $0 >= contrastFrom) },
                    slots: (0..<count).map { slots.slotIndex(for: TokenCache.key(tokens[$0], contrast: $0 >= contrastFrom)) },
                    rows: (0..<count).map { i in
                        i == 0 ? -1 : 3 * Int(FeatureHash.feature(.bigram, FeatureHash.combine(tokens[i - 1].hash, tokens[i].hash)) & mask)
                    })
                let mode = ctk_token_keys_vectorized() ? "eight" : "one"
                #expect(firstPass(tokens, contrastFrom: contrastFrom, capacity: capacity, mask: mask, bigrams: true, portable: false) == expected,
                        "\(count) tokens, scope from \(contrastFrom), \(mode) at a time")
                #expect(firstPass(tokens, contrastFrom: contrastFrom, capacity: capacity, mask: mask, bigrams: true, portable: true) == expected,
                        "\(count) tokens, scope from \(contrastFrom), one at a time")
                var withoutRows = expected
                withoutRows.rows = .init(repeating: -1, count: count)
                #expect(firstPass(tokens, contrastFrom: contrastFrom, capacity: capacity, mask: mask, bigrams: false, portable: false) == withoutRows,
                        "\(count) tokens without bigrams")
            }
        }
    }

    @Test("Nothing is written past the count, and no bigram row at the first token")
    func firstPassStaysInBounds() {
        var generator = SystemRandomNumberGenerator()
        let tokens = tokens(19, using: &generator)
        for run in [ctk_token_keys, ctk_token_keys_portable] {
            var keys = [UInt64](repeating: 7, count: 32), slots = [Int](repeating: -7, count: 32), rows = [Int](repeating: -7, count: 32)
            run(tokens, 11, 11, 1000, FeatureHash.Namespace.bigram.rawValue, 1 << 20 - 1, &keys, &slots, &rows)
            #expect(rows[0] == -7)
            #expect(rows[1..<11].allSatisfy { $0 >= 0 && $0 % 3 == 0 })
            #expect(slots[..<11].allSatisfy { (0..<1000).contains($0) })
            #expect(keys[11...].allSatisfy { $0 == 7 } && slots[11...].allSatisfy { $0 == -7 } && rows[11...].allSatisfy { $0 == -7 })
        }
    }
}
