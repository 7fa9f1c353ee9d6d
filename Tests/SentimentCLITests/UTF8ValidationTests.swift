import Testing

/// The one-pass UTF-8 and NUL check of each plain-text line, against Swift's
/// own UTF-8 decoder and a plain search for a zero byte.
@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    private func check(_ bytes: [UInt8]) -> (isValid: Bool, hasNUL: Bool) {
        bytes.withUnsafeBytes { UTF8Validation.check($0) }
    }

    private func reference(_ bytes: [UInt8]) -> (isValid: Bool, hasNUL: Bool) {
        (String(validating: bytes, as: UTF8.self) != nil, bytes.contains(0))
    }

    @Test("Known sequences are judged as Unicode's table 3-7 judges them", arguments: [
        ([], true), (Array("plain ascii, long enough to take the eight-byte steps".utf8), true),
        ([0xC3, 0xA9], true), ([0xC0, 0xAF], false), ([0xE0, 0x80, 0xAF], false), ([0xED, 0xA0, 0x80], false),
        ([0xF0, 0x9F, 0x98, 0x80], true), ([0xF4, 0x90, 0x80, 0x80], false), ([0xF5, 0x80, 0x80, 0x80], false),
        ([0x80], false), (Array("caf".utf8) + [0xC3], false), ([0xEF, 0xBB, 0xBF], true),
    ] as [([UInt8], Bool)])
    func knownSequences(bytes: [UInt8], valid: Bool) {
        #expect(check(bytes).isValid == valid)
        #expect(check(Array("0123456789abcdef".utf8) + bytes).isValid == valid)
    }

    @Test("A NUL is found wherever it is: in the eight-byte steps, the tail, or after an invalid byte")
    func nulAnywhere() {
        let text = Array("good morning everyone, the sun is out".utf8)
        for position in 0...text.count {
            var bytes = text
            bytes.insert(0, at: position)
            #expect(check(bytes) == (true, true), "NUL at \(position)")
            bytes.insert(0xFF, at: 0)
            #expect(check(bytes) == (false, true), "NUL at \(position) after an invalid byte")
        }
        #expect(check(text) == (true, false))
    }

    @Test("Random bytes, mostly ASCII, agree with Swift's decoder on 20,000 inputs")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            [0x00], [0x80], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x82], [0xED, 0xA0, 0x80],
            [0xC3], [0xE2, 0x82], [0xF8], [0xFF],
        ]
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    bytes += pieces.randomElement(using: &generator)!
                } else {
                    bytes += (0..<Int.random(in: 1...12, using: &generator)).map { _ in UInt8.random(in: 1...0x7F, using: &generator) }
                }
            }
            let got = check(bytes), want = reference(bytes)
            #expect(got == want, "\(bytes)")
        }
    }
}
