import Testing

/// The hot-path JSON reader: validation, escapes, nesting, numbers as ids.
/// These run the scanner's source directly (see `Linked/`).
@Suite("JSON scanner and tweet fields")
struct JSONScannerTests {
    // MARK: - Escapes

    @Test("String escapes are decoded", arguments: [
        (#"{"text":"a\nb"}"#, "a\nb"),
        (#"{"text":"say \"hi\""}"#, "say \"hi\""),
        (#"{"text":"back\\slash \/ slash"}"#, "back\\slash / slash"),
        (#"{"text":"x\t\r\b\f"}"#, "x\t\r\u{8}\u{C}"),
        (#"{"text":"caf\u00e9 \u00E9"}"#, "café é"),
        (#"{"text":"\u20ac5"}"#, "€5"),
        (#"{"text":"nul\u0000byte"}"#, "nul\u{0}byte"),
        (#"{"text":"no escapes at all, just text"}"#, "no escapes at all, just text"),
    ])
    func stringEscapesAreDecoded(line: String, text: String) {
        #expect(TweetRecord.decoded(line).map(\.text) == [text])
    }

    @Test("Surrogate pairs become one scalar and lone surrogates become U+FFFD", arguments: [
        (#"{"text":"\ud83d\ude0d"}"#, "😍"),
        (#"{"text":"I love this!!! \uD83D\uDE0D!"}"#, "I love this!!! 😍!"),
        (#"{"text":"lone high \ud83d here"}"#, "lone high \u{FFFD} here"),
        (#"{"text":"lone low \ude0d here"}"#, "lone low \u{FFFD} here"),
        (#"{"text":"high then letter \ud83d\u0041"}"#, "high then letter \u{FFFD}A"),
        (#"{"text":"at the end \ud83d"}"#, "at the end \u{FFFD}"),
    ])
    func surrogates(line: String, text: String) {
        #expect(TweetRecord.decoded(line).map(\.text) == [text])
        #expect(TweetRecord.decoded(line).map(\.loneSurrogate) == [text.contains("\u{FFFD}")])
    }

    @Test("A lone surrogate in an id or user name flags the record, as invalid UTF-8 there does: both are shown as U+FFFD")
    func loneSurrogateOutsideTheText() {
        let records = TweetRecord.decoded(#"{"id_str":"7\ud83d","user":{"screen_name":"\ude0d"},"text":"fine"}"#)
        #expect(records.map(\.loneSurrogate) == [true])
        #expect(records.map(\.id) == ["7\u{FFFD}"])
        #expect(records.map(\.text) == ["fine"])
        #expect(TweetRecord.decoded(#"{"id_str":"7\ud83d\ude0d","text":"fine"}"#).map(\.loneSurrogate) == [false])
    }

    @Test("Quotes, backslashes and control characters are found at every offset in a word")
    func specialBytesAtEveryOffset() {
        // The string body is scanned eight bytes at a time: try each position.
        for length in 0..<20 {
            let prefix = String(repeating: "a", count: length)
            #expect(TweetRecord.decoded(#"{"text":"\#(prefix)\"x"}"#).map(\.text) == ["\(prefix)\"x"])
            #expect(TweetRecord.decoded(#"{"text":"\#(prefix)"}"#).map(\.error) == [length == 0 ? "empty text" : nil])
            let control = TweetRecord.decoded(#"{"text":"\#(prefix)"# + "\u{1}" + #"x"}"#)
            #expect(control.map(\.error) == ["malformed JSON: control character in string at byte \(9 + length)"])
            let highBytes = TweetRecord.decoded(#"{"text":"\#(prefix)éééé"}"#)
            #expect(highBytes.map(\.text) == ["\(prefix)éééé"])
        }
    }

    // MARK: - Malformed JSON

    @Test("Malformed lines are reported with the byte offset", arguments: [
        (#"{"text":"abc"#, "malformed JSON: unexpected end of input at byte 12"),
        (#"{"text":"abc""#, "malformed JSON: unexpected end of input at byte 13"),
        (#"{"text":"abc","#, "malformed JSON: unexpected end of input at byte 14"),
        ("{", "malformed JSON: unexpected end of input at byte 1"),
        (#"{"text" "abc"}"#, "malformed JSON: unexpected character '\"' at byte 8"),
        (#"{"text":"abc"} extra"#, "malformed JSON: unexpected character 'e' at byte 15"),
        (#"{"text":"abc",}"#, "malformed JSON: unexpected character '}' at byte 14"),
        (#"{text:"abc"}"#, "malformed JSON: unexpected character 't' at byte 1"),
        (#"{"text":'abc'}"#, "malformed JSON: unexpected character ''' at byte 8"),
        (#"{"text":"a\qb"}"#, "malformed JSON: invalid escape at byte 10"),
        (#"{"text":"a\u12G4"}"#, "malformed JSON: invalid \\u escape at byte 10"),
        (#"{"id":01,"text":"x"}"#, "malformed JSON: unexpected character '1' at byte 7"),
        (#"{"id":-,"text":"x"}"#, "malformed JSON: invalid number at byte 6"),
        (#"{"id":1.,"text":"x"}"#, "malformed JSON: invalid number at byte 6"),
        (#"{"id":1e,"text":"x"}"#, "malformed JSON: invalid number at byte 6"),
        (#"{"ok":tru,"text":"x"}"#, "malformed JSON: unexpected character ',' at byte 9"),
        (#"{"ok":nul"#, "malformed JSON: unexpected end of input at byte 9"),
        (#"{"a":[1,2}"#, "malformed JSON: unexpected character '}' at byte 9"),
        ("{\"text\":\"caf\u{E9}\"}\u{7F}", "malformed JSON: unexpected byte 0x7F at byte 16"),  // é is two bytes
    ])
    func malformedLines(line: String, error: String) {
        #expect(TweetRecord.decoded(line) == [TweetRecord.Decoded(line: 1, error: error)])
    }

    @Test("Nesting deeper than the limit is an error, not a crash")
    func deepNesting() {
        let deep = "{\"a\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        #expect(TweetRecord.decoded(deep).map(\.error) == ["malformed JSON: nesting deeper than 512 at byte 516"])
        let fine = "{\"text\":\"x\",\"a\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(TweetRecord.decoded(fine).map(\.text) == ["x"])
    }

    @Test("Whitespace is allowed around every token")
    func whitespace() {
        let line = "  \t{ \"id_str\" : \"7\" ,\t\"text\"\t:\t\"spaced\" , \"n\" : [ 1 , -2.5e+3 , true , false , null , { } , [ ] ] }  "
        #expect(TweetRecord.decoded(line) == [TweetRecord.Decoded(line: 1, text: "spaced", id: "7")])
    }

    // MARK: - Tweet fields

    @Test("v1.1 text precedence: a retweet's full text, then extended_tweet, full_text, text", arguments: [
        (#"{"text":"t"}"#, "t"),
        (#"{"text":"t","full_text":"f"}"#, "f"),
        (#"{"full_text":"f","text":"t","extended_tweet":{"full_text":"e"}}"#, "e"),
        (#"{"text":"RT t","retweeted_status":{"text":"rt"}}"#, "rt"),
        (#"{"text":"RT t","retweeted_status":{"text":"rt","full_text":"rf"}}"#, "rf"),
        (#"{"extended_tweet":{"full_text":"e"},"retweeted_status":{"extended_tweet":{"full_text":"re"},"text":"rt"},"text":"t"}"#, "re"),
        (#"{"text":"t","retweeted_status":null}"#, "t"),
        (#"{"text":"t","retweeted_status":{"id":1}}"#, "t"),
        (#"{"text":"t","note_tweet":{"text":"long"}}"#, "long"),
        (#"{"text":"t","full_text":null}"#, "t"),
    ])
    func textPrecedence(line: String, text: String) {
        #expect(TweetRecord.decoded(line).map(\.text) == [text])
    }

    @Test("Only the tweet's own user and id are read, not those of nested tweets")
    func nestedObjectsDoNotLeak() {
        let line = #"{"quoted_status":{"id_str":"9","text":"quoted","user":{"screen_name":"other"}},"#
            + #""retweeted_status":{"id_str":"8","user":{"screen_name":"author"},"text":"original"},"#
            + #""entities":{"text":"not this","user":{"screen_name":"nope"}},"#
            + #""id_str":"1","text":"RT original","user":{"name":"Me","screen_name":"me","entities":{"text":"x"}}}"#
        #expect(TweetRecord.decoded(line) == [TweetRecord.Decoded(line: 1, text: "original", id: "1", user: "me")])
    }

    @Test("Ids keep every digit: id_str first, then id as a string or a number", arguments: [
        (#"{"id":1050118621198921728,"text":"x"}"#, "1050118621198921728"),
        (#"{"id":18446744073709551615123,"text":"x"}"#, "18446744073709551615123"),
        (#"{"id":1050118621198921728,"id_str":"1050118621198921729","text":"x"}"#, "1050118621198921729"),
        (#"{"id":"1460323737035677698","text":"x"}"#, "1460323737035677698"),
        (#"{"id":-1.5e3,"text":"x"}"#, "-1.5e3"),
        (#"{"id":"a\"b","text":"x"}"#, "a\"b"),
    ])
    func idsAreKeptAsText(line: String, id: String) {
        #expect(TweetRecord.decoded(line).map(\.id) == [id])
    }

    @Test("Ids of other types are ignored")
    func idOfOtherTypes() {
        #expect(TweetRecord.decoded(#"{"id":true,"id_str":null,"text":"x"}"#).map(\.id) == [nil])
        #expect(TweetRecord.decoded(#"{"id":{"n":1},"text":"x"}"#).map(\.id) == [nil])
    }

    @Test("v2 pages give one record per element, with its index")
    func pages() {
        let line = #"{"data":[{"id":"1","text":"a","author_id":"10"},{"id":"2","text":"b"},3,{"id":"4"}],"meta":{"result_count":4}}"#
        #expect(TweetRecord.decoded(line, lineNumber: 7) == [
            TweetRecord.Decoded(line: 7, index: 0, text: "a", id: "1", authorID: "10"),
            TweetRecord.Decoded(line: 7, index: 1, text: "b", id: "2"),
            TweetRecord.Decoded(line: 7, index: 2, error: "page element is not an object"),
            TweetRecord.Decoded(line: 7, index: 3, id: "4", error: "no text field"),
        ])
    }

    @Test("A JSON array of tweets, as the v1.1 timeline and search endpoints answer, gives one record per element with its index, as a page does")
    func arraysOfTweets() {
        let line = #" [{"id_str":"1","text":"a","user":{"screen_name":"ann"}}, {"id":2,"full_text":"b"},3,{"id":"4"}] "#
        #expect(TweetRecord.decoded(line, lineNumber: 7) == [
            TweetRecord.Decoded(line: 7, index: 0, text: "a", id: "1", user: "ann"),
            TweetRecord.Decoded(line: 7, index: 1, text: "b", id: "2"),
            TweetRecord.Decoded(line: 7, index: 2, error: "array element is not an object"),
            TweetRecord.Decoded(line: 7, index: 3, id: "4", error: "no text field"),
        ])
        #expect(TweetRecord.decoded("\u{FEFF}[ {\"text\":\"c\"} ]") == [TweetRecord.Decoded(line: 1, index: 0, text: "c")])
    }

    @Test("An empty or malformed array of tweets is one error record, and a text that only starts with a bracket is a text", arguments: [
        ("[]", TweetRecord.Decoded(line: 1, error: "empty array")),
        ("[ \t]", TweetRecord.Decoded(line: 1, error: "empty array")),
        (#"[{"text":"cut"#, TweetRecord.Decoded(line: 1, error: "malformed JSON: unexpected end of input at byte 13")),
        (#"[{"text":"a"}] and more"#, TweetRecord.Decoded(line: 1, error: "malformed JSON: unexpected character 'a' at byte 15")),
        ("[VIDEO] this is great", TweetRecord.Decoded(line: 1, text: "[VIDEO] this is great")),
        ("[1/3] sad news", TweetRecord.Decoded(line: 1, text: "[1/3] sad news")),
        ("[", TweetRecord.Decoded(line: 1, text: "[")),
        ("[ \"quoted\" ]", TweetRecord.Decoded(line: 1, text: "[ \"quoted\" ]")),
    ])
    func arraysThatAreNot(line: String, record: TweetRecord.Decoded) {
        #expect(TweetRecord.decoded(line) == [record])
    }

    @Test("An empty page or a page of errors is one error record", arguments: [
        (#"{"data":[]}"#, "empty page"),
        (#"{"meta":{"result_count":0}}"#, "empty page"),
        (#"{"data":null,"meta":{"result_count":0,"newest_id":null}}"#, "empty page"),
        (#"{"data":[],"errors":[{"message":"Rate limit exceeded","code":88}]}"#, "API error: Rate limit exceeded"),
        (#"{"errors":[{"title":"Not Found Error","detail":"Could not find tweet with ids: [1]."}]}"#,
         "API error: Could not find tweet with ids: [1]."),
        (#"{"errors":[{"title":"Not Found Error"}]}"#, "API error: Not Found Error"),
        (#"{"errors":[]}"#, "API error"),
        (#"{"data":null}"#, "no text field"),
        (#"{}"#, "no text field"),
        (#"{"meta":"x"}"#, "no text field"),
        // A count of tweets with none of them is no empty page, nor is a meta without a count.
        (#"{"meta":{"result_count":5}}"#, "no text field"),
        (#"{"meta":{}}"#, "no text field"),
    ])
    func emptyPages(line: String, error: String) {
        #expect(TweetRecord.decoded(line) == [TweetRecord.Decoded(line: 1, error: error)])
    }

    @Test("A text field that is not a string is named with what it holds, and a null one as null", arguments: [
        (#"{"id":"1","text":42}"#, "text is a number, not a string"),
        (#"{"id":"1","text":{"a":1}}"#, "text is an object, not a string"),
        (#"{"id":"1","full_text":["x"],"text":null}"#, "full_text is an array, not a string"),
        (#"{"id":"1","extended_tweet":{"full_text":true}}"#, "extended_tweet.full_text is a boolean, not a string"),
        (#"{"id":"1","text":null}"#, "text is null"),
        (#"{"id":"1","full_text":null,"text":null}"#, "full_text is null"),
        (#"{"id":"1","full_text":null,"text":7}"#, "text is a number, not a string"),
    ])
    func textNotAString(line: String, error: String) {
        #expect(TweetRecord.decoded(line) == [TweetRecord.Decoded(line: 1, id: "1", error: error)])
    }

    @Test("A string text wins over another text field that is not a string")
    func stringTextWins() {
        #expect(TweetRecord.decoded(#"{"id":"1","full_text":7,"text":"hello"}"#)
            == [TweetRecord.Decoded(line: 1, text: "hello", id: "1")])
    }

    @Test("A single v2 object in data is one record without an index")
    func singleObjectInData() {
        #expect(TweetRecord.decoded(#"{"data":{"id":"5","text":"hi","author_id":"6"}}"#)
            == [TweetRecord.Decoded(line: 1, text: "hi", id: "5", authorID: "6")])
    }

    // MARK: - Plain lines

    @Test("Plain lines are the text; blank lines are errors", arguments: [
        ("hello world", TweetRecord.Decoded(line: 1, text: "hello world")),
        ("  indented { not json", TweetRecord.Decoded(line: 1, text: "  indented { not json")),
        ("[1,2,3]", TweetRecord.Decoded(line: 1, text: "[1,2,3]")),
        ("", TweetRecord.Decoded(line: 1, error: "empty line")),
        (" \t ", TweetRecord.Decoded(line: 1, error: "empty line")),
        ("\u{00A0}\u{3000} \u{2003}", TweetRecord.Decoded(line: 1, error: "empty line")),
        ("\u{200B}\u{FEFF}", TweetRecord.Decoded(line: 1, error: "empty line")),
        ("\u{0}", TweetRecord.Decoded(line: 1, error: "empty line")),
        ("\u{1}\u{7F} \u{9F}", TweetRecord.Decoded(line: 1, error: "empty line")),
        ("\u{200D}\u{FE0F}\u{00AD}", TweetRecord.Decoded(line: 1, error: "empty line")),
        ("\u{200D}❤️", TweetRecord.Decoded(line: 1, text: "\u{200D}❤️")),
        (#"{"text":"\u0000\u200d"}"#, TweetRecord.Decoded(line: 1, error: "empty text")),
        ("\u{00A0}x", TweetRecord.Decoded(line: 1, text: "\u{00A0}x")),
        (#"{"text":"\u00a0\u3000\n"}"#, TweetRecord.Decoded(line: 1, error: "empty text")),
    ])
    func plainLines(line: String, record: TweetRecord.Decoded) {
        #expect(TweetRecord.decoded(line) == [record])
    }

    @Test("A JSON line behind invisible characters is read as JSON, its errors at the byte of the whole line", arguments: [
        ("\u{FEFF}" + #"{"id":"1","text":"hi"}"#, TweetRecord.Decoded(line: 1, text: "hi", id: "1")),
        ("\u{200B}\u{00A0} " + #"{"id":"2","text":"yo"}"#, TweetRecord.Decoded(line: 1, text: "yo", id: "2")),
        ("\u{FEFF}{broken", TweetRecord.Decoded(line: 1, error: "malformed JSON: unexpected character 'b' at byte 4")),
        (" {broken", TweetRecord.Decoded(line: 1, error: "malformed JSON: unexpected character 'b' at byte 2")),
        ("\u{FEFF}" + #"{"data":[{"text":"a"},{"text":"b"}]}"#, TweetRecord.Decoded(line: 1, index: 1, text: "b")),
    ])
    func jsonBehindInvisiblePrefix(line: String, record: TweetRecord.Decoded) {
        #expect(TweetRecord.decoded(line).last == record)
    }

    @Test("Invalid UTF-8 is kept and flagged", arguments: [
        [0x61, 0xFF, 0x62],
        [0xC3, 0x28],
        [0xE0, 0x80, 0x80],  // overlong
        [0xED, 0xA0, 0x80],  // a surrogate
        [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
        [0x61, 0xE2, 0x82],  // truncated
    ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        let records = TweetRecord.decoded(line: bytes)
        #expect(records.count == 1)
        #expect(records.first?.invalidUTF8 == true)
        #expect(records.first?.error == nil)
    }

    @Test("Invalid UTF-8 in an id, user or author id is flagged as in the text", arguments: [
        (#"{"id":"1"#, #"","text":"hi"}"#),
        (#"{"id_str":"1","user":{"screen_name":"a"#, #""},"text":"hi"}"#),
        (#"{"id":"1","author_id":""#, #"9","text":"hi"}"#),
    ])
    func invalidUTF8InIdentifiers(before: String, after: String) {
        let records = TweetRecord.decoded(line: Array(before.utf8) + [0xFF] + Array(after.utf8))
        #expect(records.count == 1)
        #expect(records.first?.invalidUTF8 == true)
        #expect(records.first?.text == "hi")
        #expect(TweetRecord.decoded(before + after).first?.invalidUTF8 == false)
    }

    @Test("NUL bytes in a plain line are kept and flagged, as UTF-16 read as UTF-8 has them")
    func nulBytes() {
        let records = TweetRecord.decoded(line: Array("I\0 \0l\0o\0v\0e\0".utf8))
        #expect(records.count == 1)
        #expect(records.first?.nulBytes == true)
        #expect(records.first?.error == nil)
        #expect(TweetRecord.decoded("I love this").first?.nulBytes == false)
    }

    @Test("Member keys written with escapes are read decoded")
    func escapedKeys() {
        #expect(TweetRecord.decoded(#"{"id_str":"21","\u0074ext":"hi","\u0075ser":{"screen\u005fname":"ana"}}"#)
            == [TweetRecord.Decoded(line: 1, text: "hi", id: "21", user: "ana")])
    }

    @Test("A numeric id_str still wins over id, digit for digit")
    func numericIDString() {
        #expect(TweetRecord.decoded(#"{"id_str":12345678901234567890,"id":5,"text":"x"}"#)
            == [TweetRecord.Decoded(line: 1, text: "x", id: "12345678901234567890")])
    }

    @Test("Valid UTF-8 is not flagged")
    func validUTF8() {
        for text in ["plain ascii", "café", "😍 emoji", "今日は", "\u{10FFFF}", String(repeating: "é", count: 33)] {
            #expect(TweetRecord.decoded(text).first?.invalidUTF8 == false, "\(text)")
            #expect(TweetRecord.decoded(#"{"text":"\#(text)"}"#).first?.invalidUTF8 == false, "\(text)")
        }
    }
}
