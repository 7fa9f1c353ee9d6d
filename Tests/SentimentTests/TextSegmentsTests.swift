import Testing
@testable import Sentiment

/// A text longer than a tweet is read in tweet-sized segments (`TextSegments`).
@Suite("Text segments")
struct TextSegmentsTests {
    private func segments(_ text: String) -> [TextSegments.Segment] {
        var text = text
        return text.withUTF8 { TextSegments.segments(of: UnsafeRawBufferPointer($0)) }
    }

    /// The segments' texts, checked to cover `text` in order with nothing but
    /// blank pieces left out, each within the limit and valid where `text` is.
    private func pieces(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        let found = segments(text)
        var end = 0
        for segment in found {
            #expect(segment.range.count <= TextSegments.segmentLimit)
            #expect(bytes[end..<segment.range.lowerBound].allSatisfy { $0 == UInt8(ascii: " ") }, "only blank bytes are left out")
            end = segment.range.upperBound
        }
        #expect(end == bytes.count || bytes[end...].allSatisfy { $0 == UInt8(ascii: " ") })
        let total = found.reduce(0) { $0 + $1.range.count }
        for segment in found {
            #expect(abs(segment.weight - Float(segment.range.count) / Float(total)) < 1e-6)
        }
        #expect(abs(found.reduce(0) { $0 + $1.weight } - 1) < 1e-5)
        return found.map { String(decoding: bytes[$0.range], as: UTF8.self) }
    }

    @Test("A text of up to 560 bytes is read whole")
    func shortTextIsWhole() {
        let text = String(repeating: "a", count: TextSegments.wholeLimit)
        #expect(segments(text) == [.init(range: 0..<TextSegments.wholeLimit, weight: 1)])
        #expect(segments("") == [.init(range: 0..<0, weight: 1)])
        #expect(segments(text + "b").count == 3)
    }

    @Test("A long text is cut after sentence ends, sentences kept whole")
    func cutsAtSentenceEnds() {
        let sentences = (0..<40).map { "Sentence number \($0) ends here\(["." , "!", "?"][$0 % 3])" }
        let found = pieces(sentences.joined(separator: " "))
        #expect(found.count > 1)
        for piece in found {
            let trimmed = piece.hasSuffix(" ") ? String(piece.dropLast()) : piece
            #expect(trimmed.hasPrefix("Sentence number "), "\(piece)")
            #expect([".", "!", "?"].contains(trimmed.suffix(1)), "\(piece)")
        }
        #expect(found.joined() == sentences.joined(separator: " "))
    }

    @Test("A line break ends a sentence")
    func cutsAtLineBreaks() {
        let lines = (0..<40).map { "line \($0) has no full stop" }
        for piece in pieces(lines.joined(separator: "\n")).dropLast() {
            #expect(piece.hasSuffix("full stop\n"), "\(piece)")
        }
    }

    @Test("Without sentence ends a long text is cut at white space")
    func cutsAtWhiteSpace() {
        let words = (0..<200).map { "word\($0)" }
        let found = pieces(words.joined(separator: " "))
        #expect(found.count > 1)
        for piece in found.dropLast() { #expect(piece.hasSuffix(" "), "\(piece)") }
        #expect(found.joined().split(separator: " ").map(String.init) == words)
    }

    @Test("Without white space a long text is cut between scalars, never inside one")
    func cutsBetweenScalars() {
        for unit in ["é", "€", "😀", "a"] {
            let text = String(repeating: unit, count: 1000)
            let bytes = Array(text.utf8)
            let found = segments(text)
            #expect(found.count > 2)
            for segment in found {
                #expect(String(validating: bytes[segment.range], as: UTF8.self) != nil, "\(unit) at \(segment.range)")
            }
        }
    }

    @Test("Bytes that are not UTF-8 are cut all the same")
    func cutsInvalidBytes() {
        let bytes = [UInt8](repeating: 0x80, count: 2000)
        let found = bytes.withUnsafeBytes { TextSegments.segments(of: $0) }
        #expect(found.map(\.range.count) == [280, 280, 280, 280, 280, 280, 280, 40])
    }

    @Test("Pieces of nothing but white space are left out")
    func blankPiecesAreLeftOut() {
        let text = String(repeating: " ", count: 700) + "a happy ending"
        let found = segments(text)
        #expect(found.count == 1)
        #expect(found.first?.weight == 1)
        #expect(pieces(text).map { $0.drop { $0 == " " } } == ["a happy ending"])
    }

    @Test("A long text of nothing but white space is one segment, read whole")
    func blankTextIsWhole() {
        let text = String(repeating: " \n", count: 400)
        #expect(segments(text) == [.init(range: 0..<800, weight: 1)])
    }

    @Test("Random texts of words, sentence ends, blanks and scalars of every width are covered in order, within the limit, cut between scalars")
    func randomTextsKeepTheRules() {
        // Seeded, so a failure can be rerun.
        var generator = SplitMix64(seed: 560)
        func next(_ n: Int) -> Int { Int(generator.next() % UInt64(n)) }
        let pieces = ["word", "longerword", "é", "日本語", "😍", "👍🏽", ". ", "! ", "? ", "\n", " ", "   ", "\t", ",", "x"]
        // A quarter of the texts have no white space at all, so they are cut between scalars.
        let unbroken = ["word", "é", "日本語", "😍", "👍🏽", ",", "x"]
        var checked = 0
        for round in 0..<400 {
            var text = ""
            let length = next(3000)
            let source = round % 4 == 0 ? unbroken : pieces
            while text.utf8.count < length {
                text += source[next(source.count)]
                if source == pieces, next(3) == 0 { text += " " }
            }
            let bytes = Array(text.utf8)
            let found = segments(text)
            if bytes.count <= TextSegments.wholeLimit {
                #expect(found == [.init(range: 0..<bytes.count, weight: 1)])
                continue
            }
            checked += 1
            var end = 0
            for segment in found {
                #expect(segment.range.lowerBound >= end)
                #expect(bytes[end..<segment.range.lowerBound].allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) })
                #expect(segment.range.count <= TextSegments.segmentLimit && !segment.range.isEmpty)
                // Never inside a scalar: no segment starts or ends on a continuation byte.
                #expect(bytes[segment.range.lowerBound] & 0xC0 != 0x80)
                #expect(segment.range.upperBound == bytes.count || bytes[segment.range.upperBound] & 0xC0 != 0x80)
                end = segment.range.upperBound
            }
            #expect(bytes[end...].allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) })
            #expect(abs(found.reduce(0) { $0 + $1.weight } - 1) < 1e-5)
        }
        #expect(checked > 200)
    }
}
