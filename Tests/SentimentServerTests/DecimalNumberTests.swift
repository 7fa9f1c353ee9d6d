import Testing
@testable import SentimentServer

@Suite("Decimal number")
struct DecimalNumberTests {
    @Test("Spellings of one number read as equal", arguments: [
        ("1", "1.0"), ("100", "1e2"), ("2.5", "2.50"), ("0", "-0"), ("0", "0.000e5"), ("0.005", "5e-3"),
        ("0.0050", "50E-4"), ("-12.5", "-1.25e+1"), ("100000000000000000000", "1E20"),
    ])
    func spellingsOfOneNumberAreEqual(a: String, b: String) throws {
        #expect(try #require(DecimalNumber(a)) == DecimalNumber(b))
    }

    @Test("Different numbers read as different", arguments: [
        ("0", "1e-400"), ("12345678901234567", "12345678901234567.5"), ("1", "-1"), ("1", "10"), ("0.1", "0.01"),
    ])
    func differentNumbersDiffer(a: String, b: String) throws {
        #expect(try #require(DecimalNumber(a)) != DecimalNumber(b))
    }

    @Test("What is not a JSON number, or has an exponent beyond Int, reads as none", arguments: [
        "", "-", "1.", ".5", "1e", "1e+", "abc", "1x", "0x10", "1e99999999999999999999", "1.5e-9223372036854775808",
    ])
    func notANumber(text: String) {
        #expect(DecimalNumber(text) == nil)
    }
}
