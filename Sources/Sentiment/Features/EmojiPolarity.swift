/// Whether an emoji that is not a face approves or disapproves, read from
/// what it shows.
///
/// Faces and hearts reach the model as the emoticon they draw (the
/// tokenizer's `CTK_OPT_EMOJI_FACES`); the training tweets have no emoji, so
/// every other emoji would add only to the emoji count. A short list of
/// gestures and symbols whose reading does not depend on the tweet — applause,
/// a thumbs up, a party; a thumbs down, a facepalm, nausea — counts like a
/// happy or a sad face in the `emoticonPolarity` dense feature. Emoji whose
/// reading does depend on it (🔥 praises a song and reports a wildfire, 🙏
/// thanks and begs, 😱 is thrilled and appalled) are left out.
enum EmojiPolarity {
    private static let happy: Set<UInt32> = [
        0x1F44C, // 👌 OK hand
        0x1F44D, // 👍 thumbs up
        0x1F44F, // 👏 clapping hands
        0x1F4AA, // 💪 flexed biceps
        0x1F4AF, // 💯 hundred points
        0x1F389, // 🎉 party popper
        0x1F38A, // 🎊 confetti ball
        0x1F3C6, // 🏆 trophy
        0x1F64C, // 🙌 raising hands
        0x1F973, // 🥳 partying face
    ]
    private static let sad: Set<UInt32> = [
        0x1F44E, // 👎 thumbs down
        0x1F922, // 🤢 nauseated face
        0x1F926, // 🤦 facepalm
        0x1F92E, // 🤮 vomiting
    ]

    /// +1 for an approving emoji, -1 for a disapproving one, 0 for the rest.
    /// Reads the cluster's first code point, so skin tones and gendered ZWJ
    /// sequences ("👍🏽", "🤦‍♀️") count as their base emoji.
    static func of(_ text: UnsafeRawBufferPointer) -> Int {
        guard let first = String(decoding: text, as: UTF8.self).unicodeScalars.first?.value else { return 0 }
        if happy.contains(first) { return 1 }
        if sad.contains(first) { return -1 }
        return 0
    }
}
