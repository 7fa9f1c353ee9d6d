import Foundation
import Testing
@testable import Sentiment

/// Gesture and symbol emoji that approve or disapprove count with the happy
/// and sad faces, whatever their skin tone or gender sequence.
@Suite("Emoji polarity")
struct EmojiPolarityTests {
    /// The polarity of the single emoji token `text` tokenizes to, or nil if it
    /// is not one emoji token.
    private func polarity(of text: String) -> Int? {
        Fixtures.singleToken(text, kind: .emoji, EmojiPolarity.of)
    }

    @Test("Applause, a thumbs up and a party approve", arguments: ["👍", "👍🏽", "👏", "👏🏿", "🙌", "👌", "💪", "💯", "🎉", "🎊", "🏆", "🥳"])
    func approving(text: String) {
        #expect(polarity(of: text) == 1)
    }

    @Test("A thumbs down, a facepalm and nausea disapprove", arguments: ["👎", "👎🏻", "🤦", "🤦‍♀️", "🤦🏽‍♂️", "🤢", "🤮"])
    func disapproving(text: String) {
        #expect(polarity(of: text) == -1)
    }

    @Test("Emoji whose reading depends on the tweet say nothing alone", arguments: ["🔥", "🙏", "😱", "🎶", "🇺🇸", "👨‍👩‍👧"])
    func contextual(text: String) {
        #expect(polarity(of: text) == 0)
    }

    @Test("Gestures count in the emoticon-polarity feature beside the faces")
    func denseValue() throws {
        let model = Fixtures.withoutRange(try Fixtures.smallModel())  // the feature as defined, before the training range holds it
        func value(_ text: String) -> Float { Fixtures.dense(.emoticonPolarity, of: text, model: model) }
        #expect(value("nice 👍👍 :)") == logf(4))
        #expect(value("the update 👎 🤮") == -logf(3))
        #expect(value("fire 🔥🔥") == 0)
    }
}
