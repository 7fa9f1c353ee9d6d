import Testing
import Sentiment

/// The shipped model (`Models/default`) on sentences whose mood nobody doubts,
/// and on the constructions a tweet model must handle: negation, contrast and
/// emoji-only tweets. Known weaknesses (hearts alone, long negation scopes,
/// sarcasm) are listed too: those cases run and report, but a failure does not
/// fail the run.
@Suite("Golden sentences on the shipped model")
struct GoldenSentenceTests {
    static let model: SentimentModel? = try? SentimentModel.loadDefault()

    private func label(_ text: String) throws -> SentimentLabel {
        let model = try #require(Self.model, "Models/default must load")
        return model.classify(text).label
    }

    // MARK: - Obvious sentences

    @Test("Obvious sentences get their label", arguments: [
        ("I love this!!! 😍", SentimentLabel.positive),
        ("worst day ever :(", .negative),
        ("The meeting is at 3pm", .neutral),
        ("What a beautiful morning, feeling great", .positive),
        ("I hate waiting in line, so annoying", .negative),
        ("The store opens at 9 on Saturday", .neutral),
    ])
    func obvious(text: String, expected: SentimentLabel) throws {
        #expect(try label(text) == expected)
    }

    // MARK: - Negation

    @Test("A negated negative word is not negative", arguments: ["not bad at all", "not bad"])
    func negatedNegative(text: String) throws {
        #expect(try label(text) != .negative)
    }

    @Test("A negated positive word is not positive", arguments: ["not good", "This is not good. Not good at all.", "this movie was nooooot good", "I am NOTTTT happy"])
    func negatedPositive(text: String) throws {
        #expect(try label(text) != .positive)
    }

    // MARK: - Contrast

    @Test("After 'but', the second clause decides")
    func contrast() throws {
        #expect(try label("the food was great but the service was awful") == .negative)
        #expect(try label("the service was awful but the food was great") != .negative)
    }

    // MARK: - Emoji

    @Test("A face or heart emoji scores exactly as the emoticon it draws", arguments: [
        ("so tired of this 😒", "so tired of this :/"),
        ("best night ever 😂😂", "best night ever :D :D"),
        ("miss you ❤️", "miss you <3"),
        ("my phone broke 😭", "my phone broke :'("),
    ])
    func emojiAsEmoticon(emoji: String, emoticon: String) throws {
        let model = try #require(Self.model, "Models/default must load")
        #expect(model.classify(emoji).probabilities == model.classify(emoticon).probabilities)
        #expect(model.classify(emoji).probabilities != model.classify(emoji.unicodeScalars.filter { $0.value < 0x2000 }.map(String.init).joined()).probabilities)
    }

    @Test("Emoji in a sentence move it their way")
    func emojiInText() throws {
        let model = try #require(Self.model, "Models/default must load")
        let plain = model.classify("on my way home").probabilities
        #expect(model.classify("on my way home 😊").probabilities.positive > plain.positive)
        #expect(model.classify("on my way home 😞").probabilities.negative > plain.negative)
    }

    @Test("Gesture emoji move a tweet their way", arguments: [
        ("ok", "👍", SentimentLabel.positive),
        ("we won", "🏆🎉", .positive),
        ("new update", "👎", .negative),
        ("this app", "🤮", .negative),
    ])
    func gestureEmoji(text: String, emoji: String, direction: SentimentLabel) throws {
        let model = try #require(Self.model, "Models/default must load")
        let plain = model.classify(text).probabilities
        let marked = model.classify("\(text) \(emoji)").probabilities
        #expect(marked[direction] > plain[direction] + 0.02)
    }

    @Test("Emoji-only tweets take the emoji's mood", arguments: [
        ("😍😍😍", SentimentLabel.positive),
        ("🥰", .positive),
        ("😡😡", .negative),
        ("😭😭😭", .negative),
    ])
    func emojiOnly(text: String, expected: SentimentLabel) throws {
        #expect(try label(text) == expected)
    }

    // MARK: - Known weaknesses

    @Test("Hearts alone read as love (known weakness)", arguments: ["❤️❤️❤️", "💕"])
    func heartsOnly(text: String) throws {
        let got = try label(text)
        withKnownIssue("a heart reads as \"<3\", whose learned weight on its own leans neutral (25 of the 121 training tweets with one are neutral)", isIntermittent: true) {
            #expect(got == .positive)
        }
    }

    @Test("Negation with a long scope (known weakness)")
    func longNegationScope() throws {
        let got = try label("This movie was not bad at all")
        withKnownIssue("'movie was' leans negative in the training tweets and outweighs the negated 'bad'", isIntermittent: true) {
            #expect(got != .negative)
        }
    }

    @Test("Sarcasm markers (known weakness: listed, allowed to fail)", arguments: [
        ("Oh great, another Monday. Just what I needed. #sarcasm", SentimentLabel.negative),
        ("I just love being stuck in traffic for two hours", .negative),
        ("Wow, thanks for cancelling my flight, really appreciate it", .negative),
    ])
    func sarcasm(text: String, expected: SentimentLabel) throws {
        let got = try label(text)
        withKnownIssue("a bag of n-grams reads sarcasm literally", isIntermittent: true) {
            #expect(got == expected)
        }
    }
}
