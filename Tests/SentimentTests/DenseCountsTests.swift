import CTokenizer
import Foundation
import Testing
@testable import Sentiment

/// `DenseCounts` tallies a text's tokens without a branch on them (vector
/// lanes for the lexicon); these hold its values to their definitions, token
/// by token, independently of the tokenizer and of any model.
@Suite("Dense counts")
struct DenseCountsTests {
    /// One token as `DenseCounts.add` takes it.
    private struct Token {
        var kind = CTK_WORD
        var flags: UInt32 = 0
        var traits: TokenTraits = []
        var positive: Float = 0
        var negative: Float = 0
    }

    /// The dense values of `tokens`, by feature.
    private func values(_ tokens: [Token]) -> [DenseFeature: Float] {
        var counts = DenseCounts()
        for t in tokens {
            counts.add(kind: UInt16(t.kind.rawValue), flags: UInt16(t.flags), traits: t.traits,
                       positive: t.positive, negative: t.negative)
        }
        var dense = [Float](repeating: .nan, count: DenseFeature.count)
        dense.withUnsafeMutableBufferPointer { counts.write(to: $0.baseAddress!) }
        return Dictionary(uniqueKeysWithValues: DenseFeature.allCases.map { ($0, dense[$0.rawValue]) })
    }

    @Test("The lexicon's sums, maxima, counts and last scores follow the scored words in order")
    func lexicon() {
        let v = values([
            Token(positive: 1.5, negative: -0.5),
            Token(),                                   // not scored: changes nothing
            Token(positive: -2, negative: 3),
            Token(positive: 0.25, negative: 0),        // scored: one side may be 0
            Token(kind: CTK_PUNCT),
        ])
        let positiveSum: Float = 1.5 + -2 + 0.25
        #expect(v[.lexiconPositiveSum] == positiveSum)
        let negativeSum: Float = -0.5 + 3 + 0
        #expect(v[.lexiconNegativeSum] == negativeSum)
        #expect(v[.lexiconPositiveMax] == 1.5)
        #expect(v[.lexiconNegativeMax] == 3)
        #expect(v[.lexiconPositiveLast] == 0.25)
        #expect(v[.lexiconNegativeLast] == 0)
        #expect(v[.lexiconPositiveCount] == logf(2))   // 1.5 only: above 1
        #expect(v[.lexiconNegativeCount] == logf(2))   // 3 only
        let afterContrast: Float = (1.5 - -0.5) + (-2 - 3) + 0.25
        #expect(v[.lexiconAfterContrast] == afterContrast)
    }

    @Test("Maxima start at 0, and a text of unscored words has every lexicon value 0")
    func lexiconEmpty() {
        let negativeOnly = values([Token(positive: -1, negative: -2)])
        #expect(negativeOnly[.lexiconPositiveMax] == 0)
        #expect(negativeOnly[.lexiconNegativeMax] == 0)
        #expect(negativeOnly[.lexiconPositiveLast] == -1)
        let unscored = values([Token(), Token(kind: CTK_URL)])
        for feature in [DenseFeature.lexiconPositiveSum, .lexiconNegativeSum, .lexiconPositiveMax, .lexiconNegativeMax,
                        .lexiconPositiveLast, .lexiconNegativeLast, .lexiconPositiveCount, .lexiconNegativeCount,
                        .lexiconAfterContrast] {
            #expect(unscored[feature] == 0, "\(feature)")
            #expect(unscored[feature]?.sign == .plus, "\(feature) is +0")
        }
    }

    @Test("A \"but\" starts the after-contrast sum again; the other sums go on")
    func contrast() {
        let v = values([
            Token(positive: 2, negative: 0.5),
            Token(traits: .but),
            Token(positive: 0.5, negative: 1),
            Token(traits: .but),
            Token(positive: 0.25, negative: 1.5),
        ])
        let afterContrast: Float = 0.25 - 1.5
        #expect(v[.lexiconAfterContrast] == afterContrast)
        #expect(v[.lexiconPositiveSum] == 2.75)
        // A "but" that is not a word (the trait alone) is no contrast.
        #expect(values([Token(positive: 1), Token(kind: CTK_SYMBOL, traits: .but)])[.lexiconAfterContrast] == 1)
    }

    @Test("Each kind, flag and trait is counted in its own feature")
    func counts() {
        let v = values([
            Token(flags: CTK_FLAG_ALLCAPS | CTK_FLAG_ELONGATED),
            Token(flags: CTK_FLAG_ALLCAPS | CTK_FLAG_NEGATOR),
            Token(flags: CTK_FLAG_NEGATED),
            Token(flags: CTK_FLAG_NEGATED | CTK_FLAG_EMPHASIS),   // emphasis counts for punctuation only
            Token(kind: CTK_PUNCT, flags: CTK_FLAG_EMPHASIS, traits: [.exclamation, .question]),
            Token(kind: CTK_PUNCT, traits: .question),
            Token(kind: CTK_EMOJI, traits: .happy),
            Token(kind: CTK_EMOTICON, traits: .sad),
            Token(kind: CTK_EMOTICON, traits: .sad),
            Token(kind: CTK_URL), Token(kind: CTK_USER), Token(kind: CTK_USER), Token(kind: CTK_HASHTAG),
            Token(kind: CTK_NUMBER), Token(kind: CTK_SYMBOL),
        ])
        #expect(v[.allCapsWords] == logf(3))
        #expect(v[.elongatedWords] == logf(2))
        #expect(v[.negators] == logf(2))
        #expect(v[.negatedShare] == Float(2) / 15)
        #expect(v[.emphasis] == logf(2))
        #expect(v[.exclamations] == logf(2))
        #expect(v[.questions] == logf(3))
        #expect(v[.emoji] == logf(2))
        #expect(v[.emoticons] == logf(3))
        #expect(v[.hasURL] == 1)
        #expect(v[.mentions] == logf(3))
        #expect(v[.hashtags] == logf(2))
        #expect(v[.length] == logf(16))
        #expect(v[.emoticonPolarity] == logf(2) - logf(3))
        #expect(v[.endsEmphatic] == 0)
    }

    @Test("The last token alone decides whether a text ends emphatically")
    func endsEmphatic() {
        let before = Token(kind: CTK_PUNCT, traits: .exclamation)
        let cases: [(ctk_kind, TokenTraits, Float)] = [
            (CTK_PUNCT, .exclamation, 1), (CTK_PUNCT, .question, 0), (CTK_EMOJI, [], 1), (CTK_EMOTICON, [], 1), (CTK_WORD, [], 0),
        ]
        for (kind, traits, expected) in cases {
            #expect(values([before, Token(kind: kind, traits: traits)])[.endsEmphatic] == expected, "\(kind) \(traits)")
        }
    }

    @Test("Counts stay exact past 65,535 tokens")
    func manyTokens() {
        let n = 70_000   // more than 16 bits count
        let v = values(Array(repeating: Token(kind: CTK_USER, flags: CTK_FLAG_ALLCAPS, positive: 1.5), count: n))
        #expect(v[.mentions] == logf(1 + Float(n)))
        #expect(v[.allCapsWords] == logf(1 + Float(n)))
        #expect(v[.lexiconPositiveCount] == logf(1 + Float(n)))
    }
}
