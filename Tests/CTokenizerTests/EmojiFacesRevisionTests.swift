import CTokenizer
import Testing

/// A model's id names `CTK_EMOJI_FACES_REVISION`, the revision of the table
/// that reads face and heart emoji as emoticons, because a face read anew
/// changes predictions. The revision is a number someone must raise; this
/// pins it to what the table reads, so a changed table cannot go unnoticed.
@Suite("Emoji faces revision")
struct EmojiFacesRevisionTests {
    /// Every emoji that `CTK_OPT_EMOJI_FACES` reads as an emoticon, as
    /// "U+1F60D :D" lines in code point order.
    static func readings() -> [String] {
        let scalars = (0x2600...0x27BF).compactMap(Unicode.Scalar.init) + (0x1F000...0x1FAFF).compactMap(Unicode.Scalar.init)
        return scalars.compactMap { scalar in
            let list = tokenize(Array(String(scalar).utf8), options: Options.default | Options.emojiFaces).list
            guard list.count == 1, list[0].kind == Int32(CTK_EMOTICON.rawValue) else { return nil }
            return "U+" + String(scalar.value, radix: 16, uppercase: true) + " " + list[0].text
        }
    }

    @Test("The emoji-faces revision changes whenever what the table reads changes")
    func revisionFollowsTheTable() {
        let readings = Self.readings()
        // FNV-1a over the readings: a pinned fingerprint of the whole table.
        var digest: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in readings.joined(separator: "\n").utf8 {
            digest = (digest ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        #expect(readings.count == 75)
        #expect(readings.contains("U+1F60D :D"))
        // A failure here means the table changed: raise CTK_EMOJI_FACES_REVISION
        // (so models' ids change and stores classify again), then pin both anew.
        #expect(CTK_EMOJI_FACES_REVISION == 2 && digest == 0xF56D_EE85_023D_259F, "digest 0x\(String(digest, radix: 16)) for \(readings.count) readings")
    }
}
