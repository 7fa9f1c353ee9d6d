import Testing
@testable import Sentiment

/// Turning UTF-16 into UTF-8 piece by piece, as the line reader feeds it
/// blocks, must give what decoding the whole input at once gives, wherever the
/// blocks are cut.
@Suite("UTF-16 transcoder")
struct UTF16TranscoderTests {
    /// The UTF-8 of `bytes` (UTF-16 after the mark) handed to one transcoder
    /// in pieces ending at `cuts`, each written into a buffer of the size
    /// `maxUTF8Count(appending:)` promises; records an issue when a piece
    /// writes past it.
    private func transcode(_ bytes: [UInt8], _ order: UTF16Transcoder.ByteOrder, cuts: [Int]) -> [UInt8] {
        var transcoder = UTF16Transcoder(order)
        var output: [UInt8] = []
        var start = 0
        for end in cuts + [bytes.count] {
            let room = UTF16Transcoder.maxUTF8Count(appending: end - start)
            var buffer = [UInt8](repeating: 0xAA, count: room + 8)
            let written = Array(bytes[start..<end]).withUnsafeBytes { piece in
                buffer.withUnsafeMutableBytes { transcoder.append(piece, into: $0.baseAddress!) }
            }
            #expect(written <= room && buffer[room...].allSatisfy { $0 == 0xAA }, "piece \(start)..<\(end)")
            output += buffer[..<written]
            start = end
        }
        var last: [UInt8] = [0xAA, 0xAA, 0xAA]
        let written = last.withUnsafeMutableBytes { transcoder.finish(into: $0.baseAddress!) }
        #expect(written <= 2 && last[2] == 0xAA)
        return output + last[..<written]
    }

    /// `units` as bytes in `order`.
    private func bytes(_ units: [UInt16], _ order: UTF16Transcoder.ByteOrder) -> [UInt8] {
        units.flatMap { order == .bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// What `units` should come out as: their UTF-8, with the byte 0xFF for
    /// each half of a surrogate pair alone (where the standard library's
    /// decoding puts U+FFFD, which `units` must not hold).
    private func expected(_ units: [UInt16]) -> [UInt8] {
        var output: [UInt8] = []
        for scalar in String(decoding: units, as: UTF16.self).unicodeScalars {
            if scalar == "\u{FFFD}" { output.append(0xFF) } else { output += Array(String(scalar).utf8) }
        }
        return output
    }

    @Test("A text cut in two pieces at any byte, in either byte order, comes out as its UTF-8, a surrogate pair cut anywhere included")
    func everyCut() {
        // Runs of ASCII long enough for the four-at-a-time path, at every alignment, around two- and three-byte letters and pairs.
        let text = "abcdefgh 😍 café ijklmnop €uro 😢😢 qrstuvw\r\n\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}xyz"
        for order in [UTF16Transcoder.ByteOrder.littleEndian, .bigEndian] {
            let input = bytes(Array(text.utf16), order)
            for cut in 0...input.count {
                #expect(transcode(input, order, cuts: [cut]) == Array(text.utf8), "\(order), cut at \(cut)")
            }
        }
    }

    @Test("Half a surrogate pair is the byte 0xFF however the input is cut, and the ASCII after it is kept")
    func loneSurrogates() {
        // A high surrogate before a run of ASCII, before another high one that has its pair, at the end; a low one alone.
        let units: [UInt16] = [0xD83D] + Array("abcdefgh".utf16) + [0xD83D, 0xD83D, 0xDE0D, 0xDE22] + Array("ijklmnop".utf16) + [0xD83D]
        let want = [0xFF] + Array("abcdefgh".utf8) + [0xFF] + Array("😍".utf8) + [0xFF] + Array("ijklmnop".utf8) + [0xFF]
        #expect(expected(units) == want)
        for order in [UTF16Transcoder.ByteOrder.littleEndian, .bigEndian] {
            let input = bytes(units, order)
            for cut in 0...input.count {
                #expect(transcode(input, order, cuts: [cut]) == want, "\(order), cut at \(cut)")
            }
        }
    }

    @Test("An odd last byte is the byte 0xFF, after the 0xFF of a high surrogate left alone before it")
    func oddLastByte() {
        for order in [UTF16Transcoder.ByteOrder.littleEndian, .bigEndian] {
            let plain = bytes(Array("so sad".utf16), order) + [0x41]
            let cutPair = bytes(Array("so sad".utf16) + [0xD83D], order) + [0x41]
            for cut in 0...plain.count {
                #expect(transcode(plain, order, cuts: [cut]) == Array("so sad".utf8) + [0xFF], "\(order), cut at \(cut)")
            }
            for cut in 0...cutPair.count {
                #expect(transcode(cutPair, order, cuts: [cut]) == Array("so sad".utf8) + [0xFF, 0xFF], "\(order), cut at \(cut)")
            }
        }
    }

    @Test("Random code units, lone surrogates among them, in random pieces, come out as decoding them whole gives")
    func randomPieces() {
        var random = SplitMix64(seed: 16)
        let pieces: [[UInt16]] = [Array("a".utf16), Array("abcd".utf16), Array(" ".utf16), Array("\n".utf16), Array("é".utf16),
                                  Array("€".utf16), Array("😍".utf16), [0xD83D], [0xDE22], [0x7F], [0x80], [0x7FF], [0x800], [0xFFFF]]
        for trial in 0..<300 {
            let units = (0..<Int.random(in: 0...40, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            let order: UTF16Transcoder.ByteOrder = Bool.random(using: &random) ? .bigEndian : .littleEndian
            var input = bytes(units, order)
            let odd = Bool.random(using: &random)
            if odd { input.append(0x41) }
            let cuts = (0..<Int.random(in: 0...6, using: &random)).map { _ in Int.random(in: 0...input.count, using: &random) }.sorted()
            #expect(transcode(input, order, cuts: cuts) == expected(units) + (odd ? [0xFF] : []), "trial \(trial), \(order), cuts \(cuts)")
        }
    }

    @Test("A whole input after a byte order mark is its UTF-8 in either byte order, and a missing mark is none")
    func wholeInput() {
        let text = "café 😍 ok\r\n"
        #expect(UTF16Transcoder.utf8(ofMarked: [0xFF, 0xFE] + bytes(Array(text.utf16), .littleEndian)) == Array(text.utf8))
        #expect(UTF16Transcoder.utf8(ofMarked: [0xFE, 0xFF] + bytes(Array(text.utf16), .bigEndian) + [0x41]) == Array(text.utf8) + [0xFF])
        #expect(UTF16Transcoder.utf8(ofMarked: [0xFF, 0xFE]) == [])
        #expect(UTF16Transcoder.utf8(ofMarked: Array(text.utf8)) == nil)
        #expect(UTF16Transcoder.utf8(ofMarked: [0xFF]) == nil)
    }
}
