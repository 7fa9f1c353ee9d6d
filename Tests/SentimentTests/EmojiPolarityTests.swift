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
        let buffer = TokenBuffer()
        var text = text
        text.withUTF8 { buffer.tokenize(UnsafeRawBufferPointer($0), options: FeatureSettings.standard.tokenizerOptions, seed: 1) }
        guard buffer.count == 1, buffer.token(at: 0).kind == .emoji else { return nil }
        return EmojiPolarity.of(buffer.textBytes(of: 0))
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
        let model = try Fixtures.smallModel()
        let workspace = SentimentModel.Workspace(batchCapacity: 1, cacheBits: 10)
        func value(_ text: String) -> Float {
            var text = text
            text.withUTF8 { model.featurizeReference(UnsafeRawBufferPointer($0), row: 0, workspace: workspace) }
            return workspace.dense[DenseFeature.emoticonPolarity.rawValue]
        }
        #expect(value("nice 👍👍 :)") == logf(4))
        #expect(value("the update 👎 🤮") == -logf(3))
        #expect(value("fire 🔥🔥") == 0)
    }
}
