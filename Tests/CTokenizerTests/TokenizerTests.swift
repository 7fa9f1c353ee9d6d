import CTokenizer
import Dispatch
import Testing

@Suite("CTokenizer")
struct TokenizerTests {
    // MARK: - Invalid input

    @Test("Invalid UTF-8 becomes U+FFFD and is counted")
    func invalidUTF8() throws {
        // (bytes, how many U+FFFD the input holds by maximal subparts)
        let cases: [(bytes: [UInt8], invalid: Int, what: String)] = [
            ([0xE2, 0x82], 1, "truncated 3-byte sequence"),
            ([0xF0, 0x9F, 0x98], 1, "truncated 4-byte sequence at the end"),
            ([0xC0, 0xAF], 2, "overlong '/' (C0 is never valid)"),
            ([0xE0, 0x80, 0xAF], 3, "overlong 3-byte '/'"),
            ([0xED, 0xA0, 0x80], 3, "UTF-16 surrogate D800"),
            ([0x80], 1, "lone continuation byte"),
            ([0xBF, 0x80], 2, "two continuation bytes"),
            ([0xFF], 1, "0xFF"),
            ([0xFE, 0xFF], 2, "byte-order mark of UTF-16"),
            ([0xF4, 0x90, 0x80, 0x80], 4, "above U+10FFFF"),
            ([0xF5, 0x80], 2, "F5 lead byte"),
        ]
        for c in cases {
            let result = tokenize(c.bytes)
            try #require(result.code == CTK_OK, "\(c.what)")
            #expect(result.stats.invalid_sequences == c.invalid, "\(c.what)")
            let list = result.list
            #expect(list.count == c.invalid, "\(c.what): \(list)")
            for token in list {
                #expect(token.kind == Int32(CTK_SYMBOL.rawValue), "\(c.what)")
                #expect(token.text == "\u{FFFD}", "\(c.what)")
                #expect(token.flags & UInt16(CTK_FLAG_INVALID) != 0, "\(c.what)")
            }
        }
    }

    @Test("An invalid byte inside a word ends the word and is a U+FFFD symbol of its own")
    func invalidInsideWord() throws {
        // "café" in Latin-1, then valid text.
        let latin1 = tokenize(Array("caf".utf8) + [0xE9] + Array(" au lait".utf8))
        try #require(latin1.code == CTK_OK)
        #expect(latin1.list.map(\.description) == ["word:caf", "symbol:\u{FFFD}[invalid]", "word:au", "word:lait"])
        #expect(latin1.stats.invalid_sequences == 1)
        // A tweet cut in the middle of an emoji keeps its last word.
        let cut = tokenize(Array("so sad".utf8) + [0xF0, 0x9F, 0x98])
        #expect(cut.list.map(\.description) == ["word:so", "word:sad", "symbol:\u{FFFD}[invalid]"])
        let inside = tokenize(Array("gre".utf8) + [0x80] + Array("at ñu".utf8) + [0xFF] + Array("x".utf8))
        #expect(inside.list.map(\.description) == [
            "word:gre", "symbol:\u{FFFD}[invalid]", "word:at", "word:ñu", "symbol:\u{FFFD}[invalid]", "word:x",
        ])
    }

    @Test("Bytes with invalid UTF-8 give the tokens of the text a Swift String reads from them, U+FFFD for each bad sequence")
    func invalidReadsAsSwiftString() throws {
        // Pieces of tweets, and bad sequences to put between them or inside them.
        let pieces = ["great", "sad", "café", "can't", "#nice", "#tag_1", "@user", "123", "1st", ":)", ":-(", "😀", "❤️",
                      "👍🏽", "http://t.co/ab", "www.x.com", "!!!", "?!", "...", "soooo", "NOT", "&amp;", "l'été", "ДА",
                      "नमस्ते", " ", " ", ",", "'", "’", "_", "-", "\u{FFFD}"]
        let bad: [[UInt8]] = [[0xE9], [0x80], [0xFF], [0xF0, 0x9F, 0x98], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80]]
        var generator = SplitMix64(seed: 2026)
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                if Int.random(in: 0..<3, using: &generator) == 0 {
                    bytes += bad.randomElement(using: &generator)!
                } else {
                    let piece = Array(pieces.randomElement(using: &generator)!.utf8)
                    // Sometimes a bad sequence cuts the piece itself.
                    if piece.count > 1, Int.random(in: 0..<4, using: &generator) == 0 {
                        let cut = Int.random(in: 1..<piece.count, using: &generator)
                        bytes += piece[..<cut] + bad.randomElement(using: &generator)! + piece[cut...]
                    } else {
                        bytes += piece
                    }
                }
            }
            let raw = tokenize(bytes)
            let read = tokenize(String(decoding: bytes, as: UTF8.self))
            // Alike but for the flag that says a U+FFFD came from bad bytes.
            let others = ~UInt16(CTK_FLAG_INVALID)
            let rawTokens = raw.list.map { "\($0.kind):\($0.text):\($0.flags & others):\($0.raw.hash)" }
            let readTokens = read.list.map { "\($0.kind):\($0.text):\($0.flags & others):\($0.raw.hash)" }
            #expect(rawTokens == readTokens, "\(bytes): \(raw.list) against \(read.list)")
            if rawTokens != readTokens { break }
        }
    }

    @Test("Invalid arguments are rejected")
    func invalidArguments() {
        var stats = ctk_stats()
        var token = ctk_token()
        var text: [CChar] = [0]
        let byte: [UInt8] = [0x61]
        #expect(ctk_tokenize(nil, 1, Options.default, 0, &token, 1, &text, 1, &stats) == CTK_ERROR_INVALID)
        #expect(ctk_tokenize(byte, 1, Options.default, 0, &token, 1, &text, 1, nil) == CTK_ERROR_INVALID)
        #expect(ctk_tokenize(byte, 1, Options.default, 0, nil, 1, &text, 1, &stats) == CTK_ERROR_INVALID)
        #expect(ctk_tokenize(byte, 1, Options.default, 0, &token, 1, nil, 1, &stats) == CTK_ERROR_INVALID)
        // Checked before anything is read: the pointer is only one byte long.
        #expect(ctk_tokenize(byte, 1 << 32, Options.default, 0, &token, 1, &text, 1, &stats) == CTK_ERROR_TOOLARGE)
    }

    @Test("Error messages and kind names are never NULL")
    func names() {
        for code in [CTK_OK, CTK_ERROR_NOSPACE, CTK_ERROR_TOOLARGE, CTK_ERROR_INVALID, CTK_ERROR_ICU, -99] {
            #expect(!String(cString: ctk_errmsg(Int32(code))).isEmpty)
        }
        let names = (0...10).map { String(cString: ctk_kind_name(Int32($0))) }
        #expect(names == ["unknown", "word", "number", "url", "user", "hashtag", "emoji", "emoticon", "punct",
                          "symbol", "unknown"])
    }

    // MARK: - Sizes

    @Test("An empty input gives no tokens")
    func emptyInput() {
        var stats = ctk_stats()
        #expect(ctk_tokenize(nil, 0, Options.default, 0, nil, 0, nil, 0, &stats) == CTK_OK)
        #expect(stats.token_count == 0 && stats.text_length == 0)

        let result = tokenize("")
        #expect(result.code == CTK_OK && result.tokens.isEmpty && result.text.isEmpty)
        #expect(tokenize(" \t\n ").list.isEmpty)
    }

    @Test("A megabyte of mixed text tokenizes whole")
    func megabyte() throws {
        let unit = "@bob I'm sooo happy 😍👍🏽 but NOT today :( http://t.co/x #Straße ＨＥＬＬＯ… 3.14!!! "
        let one = tokenize(unit)
        try #require(one.code == CTK_OK)
        let repeats = (1 << 20) / unit.utf8.count + 1
        let big = String(repeating: unit, count: repeats)
        #expect(big.utf8.count >= 1 << 20)

        let result = tokenize(big)
        try #require(result.code == CTK_OK)
        #expect(result.calls == 1)
        #expect(result.tokens.count == one.tokens.count * repeats)
        #expect(result.stats.latin_letters == one.stats.latin_letters * repeats)
        let first = one.list.map(\.description)
        let all = result.list.map(\.description)
        #expect(Array(all.prefix(first.count)) == first)
        #expect(Array(all.suffix(first.count)) == first)
    }

    @Test("A megabyte-long non-ASCII word is normalized in chunks exactly")
    func longNonASCIIWord() throws {
        // Decomposed "é" (e + U+0301) 200 000 times: every chunk boundary must
        // fall between two characters, never between a letter and its accent.
        let count = 200_000
        let input = String(repeating: "e\u{301}", count: count)
        let result = tokenize(input, options: Options.negation)  // no elongation: keep the run
        try #require(result.code == CTK_OK)
        let list = result.list
        try #require(list.count == 1)
        #expect(list[0].text == String(repeating: "\u{E9}", count: count))
        #expect(list[0].text.unicodeScalars.count == count)
        #expect(result.stats.latin_letters == count)

        // Full-width capitals fold to ASCII across chunks; the run is ALLCAPS.
        let wide = String(repeating: "ＡＢＣ", count: 100_000)
        let folded = tokenize(wide)
        try #require(folded.code == CTK_OK)
        #expect(folded.list.first?.text == String(repeating: "abc", count: 100_000))
        #expect(folded.list.first?.flags == UInt16(CTK_FLAG_ALLCAPS))
    }

    @Test("Marks outside the BMP that fill a chunk right after its only boundary are normalized whole")
    func supplementaryMarksAfterEarlyBoundary() throws {
        // "xa" then U+1D167 (a combining mark, two UTF-16 units): the 128-unit chunk fills with
        // its only boundary before the "a", so normalizing up to it frees a single unit and the
        // next mark needs two. (The write past the buffer stays in the struct's padding: the
        // fuzz seeds, built with -fstrict-flex-arrays=3, catch it; here the text is checked.)
        for count in [63, 64, 65, 127, 200] {
            let input = "xa" + String(repeating: "\u{1D167}", count: count)
            let result = tokenize(input, options: Options.negation)
            try #require(result.code == CTK_OK)
            #expect(result.list.map(\.text) == [input], "\(count) marks")
        }
    }

    @Test("NOSPACE reports the sizes needed, and growing to them succeeds")
    func noSpace() throws {
        let input = Array("I don't like it!!! 😍 http://x.co \u{FDFA} ＨＥＬＬＯ".utf8)
        let reference = tokenize(input)
        try #require(reference.code == CTK_OK)

        // A size query: no buffers at all.
        var stats = ctk_stats()
        #expect(ctk_tokenize(input, input.count, Options.default, 0, nil, 0, nil, 0, &stats) == CTK_ERROR_NOSPACE)
        #expect(stats.token_count == reference.tokens.count)
        #expect(stats.text_length == reference.text.count)

        // Each buffer one short in turn.
        for (tokenCap, textCap) in [(stats.token_count - 1, stats.text_length), (stats.token_count, stats.text_length - 1)] {
            var tokens = [ctk_token](repeating: ctk_token(), count: tokenCap)
            var text = [CChar](repeating: 0, count: textCap)
            var s = ctk_stats()
            let code = ctk_tokenize(input, input.count, Options.default, 0, &tokens, tokenCap, &text, textCap, &s)
            #expect(code == CTK_ERROR_NOSPACE)
            #expect(s.token_count == stats.token_count && s.text_length == stats.text_length)
        }

        // Exactly the sizes reported.
        var tokens = [ctk_token](repeating: ctk_token(), count: stats.token_count)
        var text = [CChar](repeating: 0, count: stats.text_length)
        var s = ctk_stats()
        #expect(ctk_tokenize(input, input.count, Options.default, 0, &tokens, tokens.count, &text, text.count, &s) == CTK_OK)
        #expect(s.token_count == stats.token_count && s.text_length == stats.text_length)
        #expect(tokens.map(\.hash) == reference.tokens.map(\.hash))
        #expect(text.map { UInt8(bitPattern: $0) } == reference.text)
    }

    @Test("Hangul fillers are skipped like other invisible characters, never words with no text")
    func hangulFillers() {
        for filler in ["\u{115F}", "\u{1160}", "\u{3164}", "\u{FFA0}"] {
            #expect(tokenize(filler).list.isEmpty, "\(filler.unicodeScalars.first!)")
            #expect(tokenize("#" + filler).list.allSatisfy { !$0.text.isEmpty })
            #expect(tokenize("so\(filler)good").list.map(\.text) == ["so", "good"])
        }
    }

    @Test("Text that expands past the first guess is grown and retried")
    func expansionPastFirstGuess() throws {
        // Each invalid byte becomes three bytes of U+FFFD: more than 2 × count + 16.
        let input = [UInt8](repeating: 0xFF, count: 100)
        let result = tokenize(input)
        try #require(result.code == CTK_OK)
        #expect(result.calls == 2)
        #expect(result.text.count == 300)
        #expect(result.stats.invalid_sequences == 100)
    }

    // MARK: - Hash

    @Test("ctk_hash64 is pinned: model files depend on its values")
    func hashIsStable() {
        let pinned: [(String, UInt64, UInt64)] = [
            ("", 0xBC62_3FE8_E03B_DB2F, 0xA275_4BBB_1B5D_A7CD),
            ("a", 0x84EC_79D9_BB83_A10A, 0x72E1_2E9B_E398_E964),
            ("not", 0xC0EA_CB9A_7C0F_1883, 0xA455_E1FF_8F3C_BF6A),
            ("hello", 0x1BBA_038E_2697_9696, 0x49D6_41C2_68A1_2D45),
            ("don't", 0xD507_7DBB_BE47_FC18, 0xACFB_B09D_749B_A3A8),
            ("<url>", 0x1C60_EF04_013E_B1B3, 0xA050_FFE2_D2DC_3183),
            ("0123456789abcdef", 0xF9A9_2926_8ADA_25CC, 0xF352_9BCC_248C_BFD8),
            ("0123456789abcdefg", 0x0B67_AEBA_D20D_B35B, 0x49F6_A8E4_5178_C2D0),
            ("The quick brown fox jumps over the lazy dog", 0xE1A9_6405_EEC6_9294, 0xBF6B_7FD7_BDA7_C0C5),
        ]
        for (text, seed0, seed42) in pinned {
            let bytes = Array(text.utf8)
            #expect(ctk_hash64(bytes, bytes.count, 0) == seed0, "\(text)")
            #expect(ctk_hash64(bytes, bytes.count, 42) == seed42, "\(text)")
        }
        let ramp = (0..<256).map { UInt8($0) }
        #expect(ctk_hash64(ramp, 256, 7) == 0x9D2F_1091_03ED_F74C)
        #expect(ctk_hash64(ramp, 100, 0x1_2345_6789) == 0x0924_B569_8985_F31F)
    }

    @Test("ctk_hash64 of every length from 0 to 64 bytes, at four offsets, folds to a pinned value")
    func hashIsStableAtEveryShortLength() {
        // Each length takes its own path through the short hash (0, 1–3, 4–7,
        // 8–15, 16 bytes) and the long one; the value was computed with the
        // implementation before the short path was inlined (3dd0a6b).
        let bytes = (0..<256).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
        var folded: UInt64 = 0
        for length in 0...64 {
            for offset in 0..<4 {
                let hash = bytes.withUnsafeBufferPointer { ctk_hash64($0.baseAddress! + offset, length, 0x5EED_5E47_1ACE_2026) }
                folded = (folded ^ hash) &* 0x100_0000_01B3
            }
        }
        #expect(folded == 0x5BCB_F93E_1912_FC23)
    }

    @Test("Each token's hash is ctk_hash64 of its text with the seed given")
    func tokenHashes() throws {
        for seed: UInt64 in [0, 1, 0xDEAD_BEEF] {
            let result = tokenize("Not bad :) 😍 #Win http://x.co @me ＨＩ", seed: seed)
            try #require(result.code == CTK_OK)
            for t in result.tokens {
                let expected = result.text.withUnsafeBytes {
                    ctk_hash64($0.baseAddress! + Int(t.text_offset), Int(t.text_length), seed)
                }
                #expect(t.hash == expected)
            }
        }
        // Same text, same hash, whatever the token's source looked like.
        let a = tokenize("HELLO").tokens[0].hash
        let b = tokenize("ｈｅｌｌｏ").tokens[0].hash
        #expect(a == b)
    }

    // MARK: - Offsets and stats

    @Test("Source offsets point at each token's input")
    func sourceOffsets() throws {
        let input = "I’m 😍 http://x.co! &lt;3"
        let bytes = Array(input.utf8)
        let result = tokenize(bytes)
        try #require(result.code == CTK_OK)
        let sources = result.tokens.map {
            String(decoding: bytes[Int($0.source_offset)..<Int($0.source_offset + $0.source_length)], as: UTF8.self)
        }
        #expect(sources == ["I’m", "😍", "http://x.co", "!", "&lt;3"])
    }

    @Test("Letters are counted by script in words and hashtags only")
    func letterStats() throws {
        let result = tokenize("Hello мир 日本 #tag http://abc.com @user 123 :D")
        try #require(result.code == CTK_OK)
        #expect(result.stats.latin_letters == 8)  // Hello + tag
        #expect(result.stats.other_letters == 5)  // мир + 日本
        #expect(result.stats.invalid_sequences == 0)
    }

    @Test("A stretched negation cue still negates what follows, but a stretched \"no\" is an exclamation", arguments: [
        ("nooooot good", "word:noot[elong,negator]"),
        ("NOTTTT cool", "word:nott[elong,caps,negator]"),
        ("nevvvverrrr good", "word:nevverr[elong,negator]"),
        ("cannoooot good", "word:cannoot[elong,negator]"),
        ("dooon't good", "word:doon't[elong,negator]"),
    ])
    func stretchedNegator(text: String, cue: String) throws {
        let result = tokenize(text)
        try #require(result.code == CTK_OK)
        #expect(result.list.map(\.description).first == cue)
        #expect(result.list.last?.description.hasSuffix("[neg]") == true, "\(result.list)")
    }

    @Test("A stretched \"no\" or a word that only looks like a stretched cue negates nothing", arguments: [
        "noooo my phone died", "nooo good", "nottingham good", "knooot good",
    ])
    func stretchedNonNegator(text: String) throws {
        let result = tokenize(text)
        try #require(result.code == CTK_OK)
        #expect(result.list.allSatisfy { !$0.description.contains("neg") }, "\(result.list)")
    }

    @Test("Fancy-font letters count in the script of the letters they stand for")
    func fancyFontLetterStats() throws {
        // Mathematical bold and italic Latin (with the letterlike "ℎ" for italic h),
        // double-struck "ℍ", then mathematical bold Greek and the katakana "ー".
        let result = tokenize("𝐈 𝐥𝐨𝐯𝐞 𝑡ℎ𝑖𝑠 ℍ 𝛂𝛃 ラーメン")
        try #require(result.code == CTK_OK)
        #expect(result.list.map(\.description).prefix(4) == ["word:i", "word:love", "word:this", "word:h"])
        #expect(result.stats.latin_letters == 10)  // I love this H
        #expect(result.stats.other_letters == 6)   // 𝛂𝛃 ラーメン
    }

    @Test("Dropped punctuation still ends the negation scope")
    func dropPunctEndsNegation() throws {
        let result = tokenize("not good. fine", options: Options.default | Options.dropPunct)
        try #require(result.code == CTK_OK)
        #expect(result.list.map(\.description) == ["word:not[negator]", "word:good[neg]", "word:fine"])
    }

    @Test("Punctuation ends a negation scope exactly when the text it normalizes to does")
    func clauseByNormalizedText() throws {
        // Every non-ASCII punctuation character read after "not": "good" after it is negated
        // or not as it is after the punctuation token's own text ("﹒" is ".", U+037E is ";",
        // "‥" is "..").
        let negated = UInt16(CTK_FLAG_NEGATED)
        let punctuation: Set<Unicode.GeneralCategory> = [
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
        ]
        var checked = 0
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), punctuation.contains(scalar.properties.generalCategory) else { continue }
            let tokens = tokenize("not \(Character(scalar)) good").list
            guard tokens.count == 3, tokens[1].kind == Int32(CTK_PUNCT.rawValue) else { continue }
            let text = tokens[1].text
            let again = tokenize("not \(text) good").list
            // (The text may be two tokens: "″" is "′′".) "good" is the last token either way.
            #expect(tokens[2].flags & negated == again.last!.flags & negated,
                    "U+\(String(value, radix: 16, uppercase: true)) (\(text)): \(tokens) against \(again)")
            checked += 1
        }
        #expect(checked > 500)
    }

    // MARK: - Links

    @Test("A bare \"co.uk\" names no site, so it is words, while a host before it makes a link", arguments: [
        ("co.uk", ["word:co", "punct:.", "word:uk"]),
        ("go to co.uk", ["word:go", "word:to", "word:co", "punct:.", "word:uk"]),
        ("CO.UK.", ["word:co[caps]", "punct:.", "word:uk[caps]", "punct:."]),
        (".co.uk", ["punct:.", "word:co", "punct:.", "word:uk"]),
        ("bbc.co.uk", ["url:<url>"]),
        ("amazon.co.uk.", ["url:<url>", "punct:."]),
    ])
    func bareCoUK(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    @Test("A possessive \"'s\" after a bare link is part of the link, not a quote and a word \"s\"", arguments: [
        ("NFL.com's best", ["url:<url>", "word:best"]),
        ("NFL.com\u{2019}s", ["url:<url>"]),
        ("ESPN.com's.", ["url:<url>", "punct:."]),
        ("NFL.com&#39;s", ["url:<url>"]),
        ("NFL.com' fans", ["url:<url>", "punct:'", "word:fans"]),
        ("NFL.com'sx", ["url:<url>", "punct:'", "word:sx"]),
    ])
    func barePossessive(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    // MARK: - Emoji

    @Test("A keycap emoji after digits or a word is a whole emoji, not a number or word and a stray keycap mark", arguments: [
        ("10\u{FE0F}\u{20E3}", ["number:1", "emoji:0\u{20E3}"]),
        ("3.5\u{FE0F}\u{20E3}", ["number:3", "punct:.", "emoji:5\u{20E3}"]),
        ("10\u{20E3}", ["number:1", "emoji:0\u{20E3}"]),
        ("day1\u{FE0F}\u{20E3} ok", ["word:day", "emoji:1\u{20E3}", "word:ok"]),
        ("GOAL1\u{20E3}", ["word:goal[caps]", "emoji:1\u{20E3}"]),
        ("#tag1\u{FE0F}\u{20E3}", ["hashtag:tag", "emoji:1\u{20E3}"]),
        ("1\u{FE0F}\u{20E3}0\u{FE0F}\u{20E3}", ["emoji:1\u{20E3}", "emoji:0\u{20E3}"]),
    ])
    func keycapAfterDigits(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    @Test("A possessive \"'s\" after a mention is part of the mention, not a quote and a word \"s\"", arguments: [
        ("@user's tweet", ["user:<user>", "word:tweet"]),
        ("@user\u{2019}s", ["user:<user>"]),
        ("@USER'S day", ["user:<user>", "word:day"]),
        ("@user&#39;s!", ["user:<user>", "punct:!"]),
        ("@user' x", ["user:<user>", "punct:'", "word:x"]),
        ("@user'sx", ["user:<user>", "punct:'", "word:sx"]),
    ])
    func mentionPossessive(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    @Test("A possessive \"'s\" after a number is part of the number, not a quote and a word \"s\"", arguments: [
        ("Channel 5's show", ["word:channel", "number:5", "word:show"]),
        ("2013\u{2019}s planner", ["number:2013", "word:planner"]),
        ("3.5's!", ["number:3.5", "punct:!"]),
        ("5&#39;s", ["number:5"]),
        ("90' s", ["number:90", "punct:'", "word:s"]),
        ("90'sx", ["number:90", "punct:'", "word:sx"]),
        ("the 90s", ["word:the", "word:90s"]),
    ])
    func numberPossessive(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    @Test("A possessive \"'s\" after a hashtag is part of the hashtag, not a quote and a word \"s\"", arguments: [
        ("#Yankees's win", ["hashtag:yankees", "word:win"]),
        ("#Yankees\u{2019}s", ["hashtag:yankees"]),
        ("#NFL&#39;s.", ["hashtag:nfl[caps]", "punct:."]),
        ("#tag' x", ["hashtag:tag", "punct:'", "word:x"]),
        ("#tag'sx", ["hashtag:tag", "punct:'", "word:sx"]),
    ])
    func hashtagPossessive(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    @Test("A mention right after the word RT is a mention, as Twitter links it", arguments: [
        ("RT@user great", ["word:rt[caps]", "user:<user>", "word:great"]),
        ("rt@user", ["word:rt", "user:<user>"]),
        ("RT\u{FF20}user", ["word:rt[caps]", "user:<user>"]),
        ("ART@user", ["word:art[caps]", "punct:@", "word:user"]),
        ("x_RT@user", ["word:x", "punct:_", "word:rt[caps]", "punct:@", "word:user"]),
        ("sort@user.com", ["word:sort", "punct:@", "word:user", "punct:.", "word:com"]),
    ])
    func retweetMention(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    @Test("Numeric character references and &nbsp; are decoded as the named entities are", arguments: [
        ("don&#039;t go", ["word:don't[negator]", "word:go[neg]"]),
        ("don&#x2019;t", ["word:don't[negator]"]),
        ("a&nbsp;b", ["word:a", "word:b"]),
        ("1&#8211;2", ["number:1", "punct:\u{2013}", "number:2"]),
        ("a &#45; b", ["word:a", "punct:-", "word:b"]),
        ("not&#46; good", ["word:not[negator]", "punct:.", "word:good"]),
        ("http://x.co/a&#45;b", ["url:<url>"]),
        ("http://x.co/a&#8211;b", ["url:<url>", "punct:\u{2013}", "word:b"]),
        ("&#0; &#;", ["punct:&", "punct:#", "number:0", "punct:;", "punct:&", "punct:#", "punct:;"]),
    ])
    func numericEntities(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    @Test("\"No.\" before a digit is the abbreviation of number, not a negation cue", arguments: [
        ("No.1 fan", ["word:no", "punct:.", "number:1", "word:fan"]),
        ("No. 1 fan", ["word:no", "punct:.", "number:1", "word:fan"]),
        ("NO.1", ["word:no[caps]", "punct:.", "number:1"]),
        ("not no.2", ["word:not[negator]", "word:no[neg]", "punct:.", "number:2"]),
        ("No. I don't", ["word:no[negator]", "punct:.", "word:i", "word:don't[negator]"]),
        ("No 1 fan", ["word:no[negator]", "number:1[neg]", "word:fan[neg]"]),
        ("no.", ["word:no[negator]", "punct:."]),
    ])
    func numberSign(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    @Test("A letter written as a numeric character reference is part of the word, as the letter written plainly is", arguments: [
        ("caf&#233; au lait", ["word:caf\u{E9}", "word:au", "word:lait"]),
        ("CAF&#201;", ["word:caf\u{E9}[caps]"]),
        ("&#201;t&#233; x", ["word:\u{E9}t\u{E9}", "word:x"]),
        ("cafe&#769;", ["word:caf\u{E9}"]),
        ("&#65;BC abc&#49;", ["word:abc[caps]", "word:abc1"]),
        ("n&#111;t good", ["word:not[negator]", "word:good[neg]"]),
        ("#caf&#233;", ["hashtag:caf\u{E9}"]),
        ("caf&#233;#tag caf&#233;@x", ["word:caf\u{E9}", "punct:#", "word:tag", "word:caf\u{E9}", "punct:@", "word:x"]),
        ("&#233;&#8211;", ["word:\u{E9}", "punct:\u{2013}"]),
        ("&amp;#233;", ["punct:&", "punct:#", "number:233", "punct:;"]),
        ("l'&#233;t&#233; a'&#69;", ["word:l'\u{E9}t\u{E9}", "word:a'e"]),
    ])
    func letterReferencesJoinWords(text: String, expected: [String]) throws {
        let result = tokenize(text)
        try #require(result.code == CTK_OK)
        #expect(result.list.map(\.description) == expected)
        // A size query (no buffers, the general word path) counts the same tokens and text.
        var stats = ctk_stats()
        let bytes = Array(text.utf8)
        let code = bytes.withUnsafeBytes { ctk_tokenize($0.baseAddress, $0.count, Options.default, 0, nil, 0, nil, 0, &stats) }
        #expect(code == CTK_ERROR_NOSPACE)
        #expect(stats.token_count == result.tokens.count && stats.text_length == result.text.count)
        // The same text with the letters written plainly reads the same.
        let plain = text.replacingOccurrences(of: "&#233;", with: "\u{E9}").replacingOccurrences(of: "&#201;", with: "\u{C9}")
        if plain != text, !text.contains("&amp;") {
            #expect(tokenize(plain).list.map(\.description) == expected, "\(plain)")
        }
        // Without CTK_OPT_ENTITIES the reference stays literal.
        #expect(!tokenize(text, options: Options.negation).list.map(\.text).contains("caf\u{E9}"))
    }

    @Test("A variation selector between word characters is ignored inside the word, but not after an emoji's base", arguments: [
        ("lov\u{FE0F}e you", ["word:love", "word:you"]),
        ("LOV\u{FE0F}E", ["word:love[caps]"]),
        ("n\u{FE0F}ot good", ["word:not[negator]", "word:good[neg]"]),
        ("caf\u{E9}\u{FE0E}x", ["word:caf\u{E9}x"]),
        ("#lov\u{FE0F}e", ["hashtag:love"]),
        ("a1\u{FE0F}b", ["word:a1b"]),
        ("ok\u{FE0F}!", ["word:ok", "punct:!"]),
        ("x\u{2139}\u{FE0F}y", ["word:xi", "word:y"]),
        ("\u{2139}\u{FE0F} info", ["emoji:\u{2139}", "word:info"]),
        ("day1\u{FE0F}\u{20E3}", ["word:day", "emoji:1\u{20E3}"]),
    ])
    func variationSelectorInsideWord(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    @Test("A possessive \"'s\" after a mention or a hashtag and a space, as a client that completes them writes it, is part of it", arguments: [
        ("@rihanna 's new show", ["user:<user>", "word:new", "word:show"]),
        ("@user \u{2019}s dad", ["user:<user>", "word:dad"]),
        ("@user  's", ["user:<user>"]),
        ("@user &#39;s x", ["user:<user>", "word:x"]),
        ("#DonaldTrump 's pageant", ["hashtag:donaldtrump", "word:pageant"]),
        ("@user 'sup", ["user:<user>", "punct:'", "word:sup"]),
        ("#tag 'so'", ["hashtag:tag", "punct:'", "word:so", "punct:'"]),
        ("the 90 's", ["word:the", "number:90", "punct:'", "word:s"]),
    ])
    func spacedTagPossessive(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    @Test("The slash abbreviations w/, w/o and b/c are words, w/o a negation cue, while other letters around a slash, dates and links are read as before", arguments: [
        ("w/o you", ["word:w/o[negator]", "word:you[neg]"]),
        ("W/O NBA", ["word:w/o[caps,negator]", "word:nba[neg,caps]"]),
        ("w/out NFL games", ["word:w/out[negator]", "word:nfl[neg,caps]", "word:games[neg]"]),
        ("not w/o you", ["word:not[negator]", "word:w/o[negator]", "word:you[neg]"]),
        ("w/ friends", ["word:w/", "word:friends"]),
        ("w/the team", ["word:w/", "word:the", "word:team"]),
        ("w/our banner", ["word:w/", "word:our", "word:banner"]),
        ("w/@user.", ["word:w/", "user:<user>", "punct:."]),
        ("b/c it", ["word:b/c", "word:it"]),
        ("B/C", ["word:b/c[caps]"]),
        ("b/cuz", ["word:b", "punct:/", "word:cuz"]),
        ("x/y", ["word:x", "punct:/", "word:y"]),
        ("a/w/o", ["word:a", "punct:/", "word:w", "punct:/", "word:o"]),
        ("bw/o", ["word:bw", "punct:/", "word:o"]),
        ("1/2", ["number:1", "punct:/", "number:2"]),
        ("http://x.co/w/o", ["url:<url>"]),
    ])
    func slashAbbreviations(text: String, expected: [String]) throws {
        let result = tokenize(text)
        try #require(result.code == CTK_OK)
        #expect(result.list.map(\.description) == expected)
        // A size query (no buffers, the general word path) counts the same tokens.
        var stats = ctk_stats()
        let bytes = Array(text.utf8)
        let code = bytes.withUnsafeBytes { ctk_tokenize($0.baseAddress, $0.count, Options.default, 0, nil, 0, nil, 0, &stats) }
        #expect(code == CTK_ERROR_NOSPACE)
        #expect(stats.token_count == result.tokens.count)
    }

    @Test("A clitic written apart from its word, as pre-tokenized dumps write it, is part of the word as written together", arguments: [
        ("it 's great", ["word:it's", "word:great"]),
        ("Sam Smith 's song", ["word:sam", "word:smith's", "word:song"]),
        ("Mackenzie  's house", ["word:mackenzie's", "word:house"]),
        ("they 're here", ["word:they're", "word:here"]),
        ("we 'll see", ["word:we'll", "word:see"]),
        ("I 've been", ["word:i've", "word:been"]),
        ("I 'm koolin", ["word:i'm", "word:koolin"]),
        ("Ban it I 'd say.", ["word:ban", "word:it", "word:i'd", "word:say", "punct:."]),
        ("IT 'S", ["word:it's[caps]"]),
        ("he \u{2019}s", ["word:he's"]),
        ("it &#39;s ok", ["word:it's", "word:ok"]),
        ("caf\u{E9} 's", ["word:caf\u{E9}'s"]),
        ("sooo 's", ["word:soo's[elong]"]),
        ("not it 's", ["word:not[negator]", "word:it's[neg]"]),
        ("he said 'sorry'", ["word:he", "word:said", "punct:'", "word:sorry", "punct:'"]),
        ("'s fine", ["punct:'", "word:s", "word:fine"]),
        ("some good 'd' right", ["word:some", "word:good", "punct:'", "word:d", "punct:'", "word:right"]),
        ("it 'sup", ["word:it", "punct:'", "word:sup"]),
        ("it 's_", ["word:it", "punct:'", "word:s", "punct:_"]),
        ("it's 's", ["word:it's", "punct:'", "word:s"]),
        ("O'Rilley 's show", ["word:o'rilley's", "word:show"]),
        ("don&#39;t &apos;s", ["word:don't[negator]", "punct:'[neg]", "word:s[neg]"]),
        ("do n't", ["word:do", "word:n't[negator]"]),
        ("don 't", ["word:don", "punct:'", "word:t"]),
        ("the 90 's", ["word:the", "number:90", "punct:'", "word:s"]),
        ("w/ 's", ["word:w/", "punct:'", "word:s"]),
        ("@user 's", ["user:<user>"]),
    ])
    func spacedClitic(text: String, expected: [String]) throws {
        let result = tokenize(text)
        try #require(result.code == CTK_OK)
        #expect(result.list.map(\.description) == expected)
        // A word that spans its spaced clitic is the same token, hash included, as the word written with it.
        for joined in result.list where joined.kind == Int32(CTK_WORD.rawValue) {
            let source = Array(text.utf8)[Int(joined.raw.source_offset)..<Int(joined.raw.source_offset + joined.raw.source_length)]
            guard source.contains(UInt8(ascii: " ")) else { continue }
            let plain = tokenize(joined.text).list
            #expect(plain.count == 1 && plain[0].raw.hash == joined.raw.hash, "\(joined.text)")
        }
        expectSizeQueryAgrees(text)
    }

    @Test("The slash abbreviations w/e, w/b, w/end, b/w, s/o and and/or are words, w/u is w/ and u, and none is a negation cue", arguments: [
        ("w/e.", ["word:w/e", "punct:."]),
        ("4th of July w/e it", ["word:4th", "word:of", "word:july", "word:w/e", "word:it"]),
        ("next w/end.", ["word:next", "word:w/end", "punct:."]),
        ("w/b on Sun", ["word:w/b", "word:on", "word:sun"]),
        ("B/w us", ["word:b/w", "word:us"]),
        ("S/O to @user", ["word:s/o[caps]", "word:to", "user:<user>"]),
        ("s/o", ["word:s/o"]),
        ("not s/o", ["word:not[negator]", "word:s/o[neg]"]),
        ("and/or Traci", ["word:and/or", "word:traci"]),
        ("AND/OR", ["word:and/or[caps]"]),
        ("agreed w/u,his", ["word:agreed", "word:w/", "word:u", "punct:,", "word:his"]),
        ("w/every", ["word:w/", "word:every"]),
        ("w/ending", ["word:w/", "word:ending"]),
        ("w/bff", ["word:w/", "word:bff"]),
        ("s/of", ["word:s", "punct:/", "word:of"]),
        ("x/s/o", ["word:x", "punct:/", "word:s", "punct:/", "word:o"]),
        ("s/o/x", ["word:s", "punct:/", "word:o", "punct:/", "word:x"]),
        ("his/her", ["word:his", "punct:/", "word:her"]),
        ("sand/or", ["word:sand", "punct:/", "word:or"]),
        ("and/orange", ["word:and", "punct:/", "word:orange"]),
        ("and/ or", ["word:and", "punct:/", "word:or"]),
    ])
    func slashAbbreviationsRevision5(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
        expectSizeQueryAgrees(text)
    }

    @Test("Named references to Latin-1 letters, typographic punctuation and common symbols are decoded, a letter as part of its word", arguments: [
        ("caf&eacute; &hellip; &mdash;", ["word:caf\u{E9}", "punct:...", "punct:\u{2014}"]),
        ("CAF&Eacute;", ["word:caf\u{E9}[caps]"]),
        ("&Eacute;t&eacute; x", ["word:\u{E9}t\u{E9}", "word:x"]),
        ("Espa&ntilde;a &uuml;ber", ["word:espa\u{F1}a", "word:\u{FC}ber"]),
        ("stra&szlig;e", ["word:strasse"]),
        ("don&rsquo;t go", ["word:don't[negator]", "word:go[neg]"]),
        ("it &rsquo;s", ["word:it's"]),
        ("&ldquo;hi&rdquo; &lsquo;x&rsquo;", ["punct:\u{201C}", "word:hi", "punct:\u{201D}", "punct:'", "word:x", "punct:'"]),
        ("1&ndash;2 &bull; x", ["number:1", "punct:\u{2013}", "number:2", "punct:\u{2022}", "word:x"]),
        ("wait&hellip;&hellip;", ["word:wait", "punct:..."]),
        ("not &hellip; good", ["word:not[negator]", "punct:...", "word:good"]),
        ("&euro;5 &pound;3 20&deg;", ["symbol:\u{20AC}", "number:5", "symbol:\u{A3}", "number:3", "number:20", "symbol:\u{B0}"]),
        ("&copy; &reg; &trade;", ["symbol:\u{A9}", "symbol:\u{AE}", "symbol:tm"]),
        ("I &hearts; NY", ["word:i", "emoji:\u{2665}", "word:ny[caps]"]),
        ("&#128512;&spades;", ["emoji:\u{1F600}", "emoji:\u{2660}"]),
        ("caf&eacute;@x caf&eacute;#x", ["word:caf\u{E9}", "punct:@", "word:x", "word:caf\u{E9}", "punct:#", "word:x"]),
        ("#caf&eacute;", ["hashtag:caf\u{E9}"]),
        ("http://t.co/ab&hellip;", ["url:<url>", "punct:..."]),
        ("http://x.com/caf&eacute; x", ["url:<url>", "word:x"]),
        ("http://x.com/?a=1&amp;b=2", ["url:<url>"]),
        ("&eacute", ["punct:&", "word:eacute"]),
        ("&EACUTE;", ["punct:&", "word:eacute[caps]", "punct:;"]),
        ("&eacutex;", ["punct:&", "word:eacutex", "punct:;"]),
        ("&amp;eacute;", ["punct:&", "word:eacute", "punct:;"]),
        ("&;", ["punct:&", "punct:;"]),
    ])
    func namedReferences(text: String, expected: [String]) throws {
        let result = tokenize(text)
        try #require(result.code == CTK_OK)
        #expect(result.list.map(\.description) == expected)
        expectSizeQueryAgrees(text)
        // An emoji so written draws its emoticon as the emoji does ("♥" is "<3").
        let faces = Options.default | Options.emojiFaces
        #expect(tokenize(text, options: faces).list.map(\.description)
                == tokenize(text.replacingOccurrences(of: "&hearts;", with: "\u{2665}"), options: faces).list.map(\.description))
        // Without CTK_OPT_ENTITIES every reference stays literal.
        #expect(!tokenize(text, options: Options.negation).list.map(\.text).contains("caf\u{E9}"))
    }

    /// The HTML 4 names of the Latin-1 characters (U+00A0–U+00FF), of the
    /// typographic punctuation and of the symbols that entities.c decodes,
    /// from Python's html.entities.name2codepoint.
    static let namedReferences: [(name: String, scalar: UInt32)] = [
        ("AElig", 0xC6),
        ("Aacute", 0xC1),
        ("Acirc", 0xC2),
        ("Agrave", 0xC0),
        ("Aring", 0xC5),
        ("Atilde", 0xC3),
        ("Auml", 0xC4),
        ("Ccedil", 0xC7),
        ("Dagger", 0x2021),
        ("ETH", 0xD0),
        ("Eacute", 0xC9),
        ("Ecirc", 0xCA),
        ("Egrave", 0xC8),
        ("Euml", 0xCB),
        ("Iacute", 0xCD),
        ("Icirc", 0xCE),
        ("Igrave", 0xCC),
        ("Iuml", 0xCF),
        ("Ntilde", 0xD1),
        ("OElig", 0x152),
        ("Oacute", 0xD3),
        ("Ocirc", 0xD4),
        ("Ograve", 0xD2),
        ("Oslash", 0xD8),
        ("Otilde", 0xD5),
        ("Ouml", 0xD6),
        ("Prime", 0x2033),
        ("Scaron", 0x160),
        ("THORN", 0xDE),
        ("Uacute", 0xDA),
        ("Ucirc", 0xDB),
        ("Ugrave", 0xD9),
        ("Uuml", 0xDC),
        ("Yacute", 0xDD),
        ("Yuml", 0x178),
        ("aacute", 0xE1),
        ("acirc", 0xE2),
        ("acute", 0xB4),
        ("aelig", 0xE6),
        ("agrave", 0xE0),
        ("aring", 0xE5),
        ("atilde", 0xE3),
        ("auml", 0xE4),
        ("bdquo", 0x201E),
        ("brvbar", 0xA6),
        ("bull", 0x2022),
        ("ccedil", 0xE7),
        ("cedil", 0xB8),
        ("cent", 0xA2),
        ("circ", 0x2C6),
        ("clubs", 0x2663),
        ("copy", 0xA9),
        ("curren", 0xA4),
        ("dagger", 0x2020),
        ("darr", 0x2193),
        ("deg", 0xB0),
        ("diams", 0x2666),
        ("divide", 0xF7),
        ("eacute", 0xE9),
        ("ecirc", 0xEA),
        ("egrave", 0xE8),
        ("emsp", 0x2003),
        ("ensp", 0x2002),
        ("eth", 0xF0),
        ("euml", 0xEB),
        ("euro", 0x20AC),
        ("fnof", 0x192),
        ("frac12", 0xBD),
        ("frac14", 0xBC),
        ("frac34", 0xBE),
        ("harr", 0x2194),
        ("hearts", 0x2665),
        ("hellip", 0x2026),
        ("iacute", 0xED),
        ("icirc", 0xEE),
        ("iexcl", 0xA1),
        ("igrave", 0xEC),
        ("iquest", 0xBF),
        ("iuml", 0xEF),
        ("laquo", 0xAB),
        ("larr", 0x2190),
        ("ldquo", 0x201C),
        ("lsaquo", 0x2039),
        ("lsquo", 0x2018),
        ("macr", 0xAF),
        ("mdash", 0x2014),
        ("micro", 0xB5),
        ("middot", 0xB7),
        ("nbsp", 0xA0),
        ("ndash", 0x2013),
        ("not", 0xAC),
        ("ntilde", 0xF1),
        ("oacute", 0xF3),
        ("ocirc", 0xF4),
        ("oelig", 0x153),
        ("ograve", 0xF2),
        ("ordf", 0xAA),
        ("ordm", 0xBA),
        ("oslash", 0xF8),
        ("otilde", 0xF5),
        ("ouml", 0xF6),
        ("para", 0xB6),
        ("permil", 0x2030),
        ("plusmn", 0xB1),
        ("pound", 0xA3),
        ("prime", 0x2032),
        ("raquo", 0xBB),
        ("rarr", 0x2192),
        ("rdquo", 0x201D),
        ("reg", 0xAE),
        ("rsaquo", 0x203A),
        ("rsquo", 0x2019),
        ("sbquo", 0x201A),
        ("scaron", 0x161),
        ("sect", 0xA7),
        ("shy", 0xAD),
        ("spades", 0x2660),
        ("sup1", 0xB9),
        ("sup2", 0xB2),
        ("sup3", 0xB3),
        ("szlig", 0xDF),
        ("thinsp", 0x2009),
        ("thorn", 0xFE),
        ("tilde", 0x2DC),
        ("times", 0xD7),
        ("trade", 0x2122),
        ("uacute", 0xFA),
        ("uarr", 0x2191),
        ("ucirc", 0xFB),
        ("ugrave", 0xF9),
        ("uml", 0xA8),
        ("uuml", 0xFC),
        ("yacute", 0xFD),
        ("yen", 0xA5),
        ("yuml", 0xFF),
    ]

    @Test("Every named reference reads as its character written plainly, inside a word and alone, and a misspelled one stays literal")
    func everyNamedReference() throws {
        for (name, scalar) in Self.namedReferences {
            let character = String(UnicodeScalar(scalar)!)
            for (written, plain) in [("x&\(name);y", "x\(character)y"), ("a &\(name); b", "a \(character) b"), ("&\(name);", character)] {
                let result = tokenize(written)
                try #require(result.code == CTK_OK, "\(written)")
                #expect(result.list.map(\.description) == tokenize(plain).list.map(\.description), "\(written)")
                expectSizeQueryAgrees(written)
            }
            // Misspelled: cut, or with a letter more, it is no reference.
            for wrong in ["&\(name.dropLast());", "&\(name)q;", "&\(name)"] where !Self.namedReferences.contains(where: { "&\($0.name);" == wrong }) {
                #expect(!tokenize(wrong).list.map(\.text).contains(character) || character.allSatisfy(\.isASCII), "\(wrong)")
            }
        }
    }

    @Test("A decade or a round number with an apostrophe and an s is the same word as without the apostrophe", arguments: [
        ("the 90's", ["word:the", "word:90s"]),
        ("1970\u{2019}s music", ["word:1970s", "word:music"]),
        ("100's of fans", ["word:100s", "word:of", "word:fans"]),
        ("90&#39;s", ["word:90s"]),
        ("90'S", ["word:90s"]),
        ("not the 80's", ["word:not[negator]", "word:the[neg]", "word:80s[neg]"]),
        ("Channel 5's", ["word:channel", "number:5"]),
        ("2013's planner", ["number:2013", "word:planner"]),
        ("0's", ["number:0"]),
        ("1,000's", ["number:1,000"]),
        ("90' s", ["number:90", "punct:'", "word:s"]),
    ])
    func decadePlural(text: String, expected: [String]) throws {
        let result = tokenize(text)
        try #require(result.code == CTK_OK)
        #expect(result.list.map(\.description) == expected)
        if let plural = result.list.first(where: { $0.text.hasSuffix("0s") }) {
            // The same token, hash included, as the word written without the apostrophe.
            let plain = tokenize(plural.text).list
            #expect(plain.count == 1 && plain[0].raw.hash == plural.raw.hash && plain[0].kind == plural.kind)
        }
    }

    @Test("The idioms can't wait, no doubt, nothing but and not only negate nothing after their cue", arguments: [
        ("I can't wait for Friday", ["word:i", "word:can't", "word:wait", "word:for", "word:friday"]),
        ("CANT WAIT!!", ["word:cant[caps]", "word:wait[caps]", "punct:!![emph]"]),
        ("can\u{2019}t waaait", ["word:can't", "word:waait[elong]"]),
        ("I cannot wait to see", ["word:i", "word:cannot", "word:wait", "word:to", "word:see"]),
        ("I can not wait", ["word:i", "word:can", "word:not", "word:wait"]),
        ("no doubt about it", ["word:no", "word:doubt", "word:about", "word:it"]),
        ("No doubts.", ["word:no", "word:doubts", "punct:."]),
        ("nothing but love", ["word:nothing", "word:but", "word:love"]),
        ("not only fun but also cheap", ["word:not", "word:only", "word:fun", "word:but", "word:also", "word:cheap"]),
        ("can't wait, not happy", ["word:can't", "word:wait", "punct:,", "word:not[negator]", "word:happy[neg]"]),
        ("not can't wait", ["word:not[negator]", "word:can't[neg]", "word:wait[neg]"]),
        ("not wait", ["word:not[negator]", "word:wait[neg]"]),
        ("pecan not wait", ["word:pecan", "word:not[negator]", "word:wait[neg]"]),
        ("can't waiting", ["word:can't[negator]", "word:waiting[neg]"]),
        ("no doubtful", ["word:no[negator]", "word:doubtful[neg]"]),
        ("don't wait", ["word:don't[negator]", "word:wait[neg]"]),
        ("nothing good", ["word:nothing[negator]", "word:good[neg]"]),
    ])
    func negationIdioms(text: String, expected: [String]) throws {
        try expectTokens(text, expected)
    }

    // MARK: - Robustness

    @Test("Many threads tokenizing at once get identical results")
    func concurrentTokenizing() {
        let inputs = [
            "I don't like it!!! 😍 http://x.co",
            "ＨＥＬＬＯ Straße café 👨‍👩‍👧 #日本",
            "worst day ever :( &lt;3 soooo GOOD",
            String(repeating: "e\u{301}x ", count: 500),
        ]
        let expected = inputs.map { tokenize($0).list.map(\.description) }
        let threads = 8
        let rounds = 200
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds {
                let k = (thread + round) % inputs.count
                if tokenize(inputs[k]).list.map(\.description) != expected[k] {
                    mismatches.withLock { $0 += 1 }
                }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }

    @Test("ASCII words of any length tokenize the same whether sixteen bytes follow them or the input ends")
    func wordsAcrossSixteenByteChunks() throws {
        // The word fast path reads sixteen bytes at a time while sixteen remain,
        // and byte by byte near the end of the input: both must agree with each
        // other and with the word rules (lower-cased; a letter three times in a
        // row is elongation, kept twice; ALLCAPS from two letters, none lower).
        var rng = SplitMix64(seed: 0x16_B17E)
        let pieces: [String] = ["a", "b", "E", "Z", "o", "O", "1", "9", "'"]
        for iteration in 0..<4000 {
            var word = ""
            let length = 1 + Int(rng.next() % 40)
            while word.count < length {
                var piece = pieces[Int(rng.next() % UInt64(pieces.count))]
                if rng.next() % 5 == 0 { piece = String(repeating: piece, count: 3 + Int(rng.next() % 3)) }
                word += piece
            }
            let expected = Self.expectedWords(word)
            for context in [word, word + String(repeating: " ", count: 17) + "x", "go " + word + ". " + String(repeating: "y", count: 20)] {
                let words = tokenize(context).list.filter { $0.kind == Int32(CTK_WORD.rawValue) || $0.kind == Int32(CTK_NUMBER.rawValue) }
                    .map(\.description).filter { !["word:go", "word:x"].contains($0) && !$0.hasPrefix("word:yy") }
                #expect(words == expected, "iteration \(iteration): \(context.debugDescription)")
            }
        }
    }

    /// The tokens the word rules make of `text` (ASCII letters, digits and
    /// apostrophes, tokenized with the default options), in case-file spelling.
    static func expectedWords(_ text: String) -> [String] {
        // An apostrophe joins two runs when a letter follows it and the run
        // before it is a word (not digits alone, which end as a number); other
        // apostrophes are punctuation (not listed here).
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        let bytes = Array(text.utf8)
        var words: [[UInt8]] = [], current: [UInt8] = []
        for (k, b) in bytes.enumerated() {
            guard b == UInt8(ascii: "'") else { current.append(b); continue }
            if current.contains(where: isLetter), k + 1 < bytes.count, isLetter(bytes[k + 1]) {
                current.append(b)
                continue
            }
            if !current.isEmpty { words.append(current) }
            current = []
        }
        if !current.isEmpty { words.append(current) }
        return words.map { w in
            let letters = w.filter(isLetter)
            if letters.isEmpty { return "number:" + String(decoding: w, as: UTF8.self) }
            var out: [UInt8] = [], elongated = false
            for b in w {
                let l = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                let isLetter = l >= 0x61 && l <= 0x7A
                if isLetter, out.count >= 2, out[out.count - 1] == l, out[out.count - 2] == l {
                    elongated = true
                    continue
                }
                out.append(l)
            }
            var flags: [String] = []
            if elongated { flags.append("elong") }
            if letters.count >= 2 && !letters.contains(where: { $0 >= 0x61 }) { flags.append("caps") }
            let text = "word:" + String(decoding: out, as: UTF8.self)
            return flags.isEmpty ? text : text + "[" + flags.joined(separator: ",") + "]"
        }
    }

    @Test("Random bytes never break bounds, and every result is consistent")
    func fuzz() throws {
        var rng = SplitMix64(seed: 0x5EED_CAFE)
        // Bytes that exercise the scanner's branches.
        let alphabet: [UInt8] = Array("aZx:;=-()<>3D/#@&!?.…’'_ \t0123456789httpwww".utf8)
            + [0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0x98, 0x8D, 0xB8, 0x8F,
               0x83, 0xA3, 0x80, 0x8B]
        let fragments: [[UInt8]] = ["😍", "👍🏽", "\u{200D}", "\u{FE0F}", "🇺", "&lt;", "&amp;", "e\u{301}", "Ｈ", "ß",
                                     "http://", "www.", "n't", "\u{FDFA}"].map { Array($0.utf8) }
        for iteration in 0..<3000 {
            var bytes: [UInt8] = []
            let length = Int(rng.next() % 200)
            while bytes.count < length {
                switch rng.next() % 4 {
                case 0: bytes += fragments[Int(rng.next() % UInt64(fragments.count))]
                case 1: bytes.append(UInt8(truncatingIfNeeded: rng.next()))
                default: bytes.append(alphabet[Int(rng.next() % UInt64(alphabet.count))])
                }
            }
            let options = UInt32(rng.next() % 16)
            let result = tokenize(bytes, options: options, seed: rng.next())
            try #require(result.code == CTK_OK, "iteration \(iteration): \(bytes)")
            var previousEnd: UInt32 = 0
            for t in result.tokens {
                #expect(t.source_length > 0, "iteration \(iteration)")
                #expect(t.source_offset >= previousEnd, "iteration \(iteration): tokens overlap")
                #expect(Int(t.source_offset) + Int(t.source_length) <= bytes.count, "iteration \(iteration)")
                #expect(Int(t.text_offset) + Int(t.text_length) <= result.text.count, "iteration \(iteration)")
                #expect((1...9).contains(t.kind), "iteration \(iteration)")
                let text = Array(result.text[Int(t.text_offset)..<Int(t.text_offset + t.text_length)])
                #expect(Array(String(decoding: text, as: UTF8.self).utf8) == text,
                        "iteration \(iteration): text is not valid UTF-8")
                previousEnd = t.source_offset + t.source_length
                if options & Options.dropPunct != 0 { #expect(t.kind != UInt16(CTK_PUNCT.rawValue)) }
            }
            #expect(result.tokens.count <= bytes.count, "iteration \(iteration)")
        }
    }
}

/// A minimal lock for the concurrency test (Synchronization's Mutex needs newer
/// deployment targets than the package declares for macOS).
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = DispatchSemaphore(value: 1)
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.wait()
        defer { lock.signal() }
        return body(&value)
    }
}
