import Foundation
import Testing
@testable import Sentiment

/// Faces count by their shape, so an emoticon or face emoji the training data
/// never showed still moves the `emoticonPolarity` dense feature its way.
@Suite("Emoticon polarity")
struct EmoticonPolarityTests {
    /// The polarity of the single emoticon token `text` tokenizes to.
    private func polarity(of text: String) -> Int? {
        Fixtures.singleToken(text, kind: .emoticon, EmoticonPolarity.of)
    }

    @Test("Smiles, laughs, kisses and hearts are happy", arguments: [
        ":)", ":-)", ":))))", ";)", "=)", ":]", ":D", ":-D", "XD", "xDDD", ":P", ":p", ":*", ":3", "<3", "<333", "&lt;3",
        ":')", "^_^", "^^", "\\o/", "😍", "😂", "❤️", "😊", "😎", "🤩", "🥲",
    ])
    func happyFaces(text: String) {
        #expect(polarity(of: text) == 1)
    }

    @Test("Frowns, tears, scowls and broken hearts are sad", arguments: [
        ":(", ":-(", ":((((", ":[", ":/", ":\\", ":'(", ">:(", "&gt;:(", "</3", "T_T", ";_;", "-_-", ">_<", "😢", "😭", "😡", "😒",
        "😓", "😥", "😨", "😰", "😤", "😾", "🙄",
    ])
    func sadFaces(text: String) {
        #expect(polarity(of: text) == -1)
    }

    @Test("Surprise, a flat mouth and an angry grin say nothing alone", arguments: [":o", ":O", ":|", ">:D", "o_O", "O_o"])
    func neutralFaces(text: String) {
        #expect(polarity(of: text) == 0)
    }

    @Test("The dense feature is log(1 + happy) − log(1 + sad), and 0 without faces")
    func denseValue() throws {
        let model = Fixtures.withoutRange(try Fixtures.smallModel())  // the feature as defined, before the training range holds it
        func value(_ text: String) -> Float { Fixtures.dense(.emoticonPolarity, of: text, model: model) }
        #expect(value("so happy :) :D <3") == logf(4))
        #expect(value("nope :( </3 but :)") == logf(2) - logf(3))
        #expect(value("no faces here :o") == 0)
        #expect(value("😍😍😍") == logf(4))
    }
}
