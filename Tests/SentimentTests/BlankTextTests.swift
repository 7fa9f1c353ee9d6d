import Testing
@testable import Sentiment

/// `BlankText`, the one definition of "nothing to classify" that the command
/// line (on bytes) and the HTTP API (on strings) both use.
@Suite("Blank text")
struct BlankTextTests {
    private func bytesAreBlank(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { BlankText.isBlank(utf8: $0) }
    }

    @Test("White space, control characters and default-ignorable characters are blank, alone or together", arguments: [
        "", " ", "\t\n\r\u{0B}\u{0C}", "\u{0}", "\u{1}\u{1F}\u{7F}", "\u{80}\u{85}\u{9F}", "\u{A0}\u{3000}\u{2003}",
        "\u{2028}\u{2029}", "\u{200B}\u{200C}\u{200D}\u{200E}\u{200F}", "\u{2060}\u{FEFF}", "\u{AD}", "\u{FE0F}",
        "\u{3164}\u{115F}", "\u{E0041}",
    ])
    func blank(text: String) {
        #expect(BlankText.isBlank(text))
        #expect(bytesAreBlank(Array(text.utf8)))
    }

    @Test("One visible character anywhere makes a text not blank", arguments: [
        "a", " a", "\u{200B}a\u{200B}", "\u{200D}❤️", ":)", "😭", "\u{A0}x", "\u{0}!", "\u{FFFD}", "\u{300}",
    ])
    func notBlank(text: String) {
        #expect(!BlankText.isBlank(text))
        #expect(!bytesAreBlank(Array(text.utf8)))
    }

    @Test("Bytes that are not well-formed UTF-8 count as visible", arguments: [
        [0xFF], [0x20, 0xC3], [0xE2, 0x80], [0xED, 0xA0, 0x80], [0x20, 0x80, 0x20],
    ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        #expect(!bytesAreBlank(bytes))
    }

    @Test("The string and byte forms agree on every Unicode scalar")
    func formsAgree() {
        var disagreements: [UInt32] = []
        var invisible = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            let string = BlankText.isBlank(text)
            if string != bytesAreBlank(Array(text.utf8)) { disagreements.append(value) }
            if string != BlankText.isInvisible(scalar) { disagreements.append(value) }
            if string { invisible += 1 }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10).map { String($0, radix: 16) })")
        // White space, controls and default-ignorables: some 4,170 scalars (most of them the unassigned
        // default-ignorable planes' reserve), not a handful and not everything.
        #expect((4_000...5_000).contains(invisible), "\(invisible)")
    }
}
