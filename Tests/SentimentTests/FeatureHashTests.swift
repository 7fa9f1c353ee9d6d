import CTokenizer
import Testing
@testable import Sentiment

/// Feature numbers are part of every model file: the hashing must never
/// change, and its eight-wide form (`ctk_pair_rows`) must agree with it.
@Suite("Feature hashing")
struct FeatureHashTests {
    @Test("The mix is splitmix64's finalizer, and features and pairs keep their published values")
    func pinnedValues() {
        // splitmix64's first output from a state of 0, as its reference code prints it.
        #expect(FeatureHash.mix(0) == 0xE220_A839_7B1D_CDAF)
        #expect(FeatureHash.combine(1, 2) == 0xC830_4A7F_6747_AB1A)
        #expect(FeatureHash.feature(.bigram, FeatureHash.combine(1, 2)) == 0x9F72_D241_85C5_8E6D)
        #expect(FeatureHash.feature(.word, 0x0123_4567_89AB_CDEF) == 0xDF50_6267_2C17_8F63)
    }

    /// Tokens with random hashes (the rest of a token does not matter here).
    private func tokens(_ count: Int, using generator: inout some RandomNumberGenerator) -> [ctk_token] {
        (0..<count).map { _ in
            var token = ctk_token()
            token.hash = UInt64.random(in: .min ... .max, using: &generator)
            return token
        }
    }

    @Test("Each bigram's row is the same eight at a time, one at a time, and from FeatureHash",
          arguments: [UInt64(1 << 20 - 1), UInt64(1 << 4 - 1), UInt64(1 << 31 - 1)])
    func pairRowsAgree(mask: UInt64) {
        var generator = SystemRandomNumberGenerator()
        // Every length from none to five groups of eight, so that every
        // remainder of the last group is met.
        for count in 0...41 {
            let tokens = tokens(count, using: &generator)
            var hashes = [UInt64](repeating: 0, count: count)
            var fast = [Int](repeating: -1, count: count), portable = [Int](repeating: -1, count: count)
            ctk_pair_rows(tokens, count, FeatureHash.Namespace.bigram.rawValue, mask, &hashes, &fast)
            ctk_pair_rows_portable(tokens, count, FeatureHash.Namespace.bigram.rawValue, mask, &hashes, &portable)
            let expected = (0..<count).map { i in
                i == 0 ? -1 : 3 * Int(FeatureHash.feature(.bigram, FeatureHash.combine(tokens[i - 1].hash, tokens[i].hash)) & mask)
            }
            #expect(fast == expected, "\(count) tokens, \(ctk_pair_rows_vectorized() ? "eight" : "one") at a time")
            #expect(portable == expected, "\(count) tokens, one at a time")
        }
    }

    @Test("The rows are written only from the second token, and only as far as the count")
    func pairRowsStayInBounds() {
        var generator = SystemRandomNumberGenerator()
        let tokens = tokens(19, using: &generator)
        var hashes = [UInt64](repeating: 0, count: 32)
        for write in [ctk_pair_rows, ctk_pair_rows_portable] {
            var rows = [Int](repeating: -7, count: 32)
            write(tokens, 11, FeatureHash.Namespace.bigram.rawValue, 1 << 20 - 1, &hashes, &rows)
            #expect(rows[0] == -7)
            #expect(rows[1..<11].allSatisfy { $0 >= 0 && $0 % 3 == 0 })
            #expect(rows[11...].allSatisfy { $0 == -7 })
        }
    }
}
