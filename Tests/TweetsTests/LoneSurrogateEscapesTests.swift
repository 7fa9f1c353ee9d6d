import Foundation
import Testing
@testable import Tweets

@Suite("Lone surrogate escapes")
struct LoneSurrogateEscapesTests {
    func replaced(_ json: String) -> String? {
        LoneSurrogateEscapes.replaced(in: Data(json.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("A lone high or low surrogate escape becomes \\uFFFD, six bytes for six")
    func loneHalvesAreReplaced() {
        #expect(replaced(#"{"t":"a \ud83d b"}"#) == #"{"t":"a \uFFFD b"}"#)
        #expect(replaced(#"{"t":"\uDE00"}"#) == #"{"t":"\uFFFD"}"#)
        #expect(replaced(#"{"t":"\ud83d\ud83d\ude00"}"#) == #"{"t":"\uFFFD\ud83d\ude00"}"#, "the second high pairs with the low")
        #expect(replaced(#"{"t":"end \ud83d"}"#) == #"{"t":"end \uFFFD"}"#)
        #expect(replaced(#"{"t":"\ud83d"#) == #"{"t":"\uFFFD"#, "at the very end of the text")
    }

    @Test("Pairs, other escapes and an escaped backslash before a u are left alone")
    func wellFormedTextIsUnchanged() {
        #expect(replaced(#"{"t":"\ud83d\ude00 \u00e9 \n \" \\"}"#) == nil)
        #expect(replaced(#"{"t":"\\ud83d"}"#) == nil, #"\\ then "ud83d" is text, not an escape"#)
        #expect(replaced(#"{"t":"\\\ud83d"}"#) == #"{"t":"\\\uFFFD"}"#)
        #expect(replaced(#"{"t":"\u12"}"#) == nil)
        #expect(replaced("") == nil)
    }

    @Test("Foundation refuses the document with a lone surrogate, and reads it once replaced")
    func repairMakesItReadable() throws {
        struct Text: Decodable { var t: String }
        let json = Data(#"{"t":"so happy \ud83d"}"#.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Text.self, from: json) }
        #expect(try LoneSurrogateEscapes.decode(Text.self, from: json).t == "so happy \u{FFFD}")
        #expect((LoneSurrogateEscapes.jsonObject(with: json) as? [String: String])?["t"] == "so happy \u{FFFD}")
        #expect(LoneSurrogateEscapes.jsonObject(with: Data("not json".utf8)) == nil)
    }
}
