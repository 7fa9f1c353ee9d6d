import Testing
@testable import Sentiment

/// A text of more than 560 bytes is scored as the length-weighted mean of its
/// tweet-sized segments (`TextSegments`), so length alone does not make the
/// model sure.
@Suite("Long texts on the shipped model")
struct LongTextTests {
    static let model: SentimentModel? = try? SentimentModel.loadDefault()

    /// 243 bytes, and its first sentence 64: a segment holds one copy of it,
    /// not one and a sentence of the next.
    static let paragraph = "Got to the station early and stood on the cold platform for ages. "
        + "The train was late again and nobody said why. Found a seat in the end and the coffee on board was fine. "
        + "Reading a book the whole way, and home by seven. Tomorrow looks the same."

    @Test("A paragraph repeated any number of times scores as the paragraph does", arguments: [3, 10, 100])
    func repetitionDoesNotAddCertainty(copies: Int) throws {
        let model = try #require(Self.model, "Models/default must load")
        #expect(Self.paragraph.utf8.count + 1 + 64 > TextSegments.segmentLimit)
        let one = model.classify(Self.paragraph)
        let many = model.classify(Array(repeating: Self.paragraph, count: copies).joined(separator: " "))
        #expect(many.label == one.label)
        for label in SentimentLabel.allCases {
            #expect(abs(many.probabilities[label] - one.probabilities[label]) < 1e-4, "\(label)")
        }
    }

    /// Thirty unrelated sentences, happy, sad and plain, 1.3 KB.
    static let diary = [
        "Had the best pizza of my life tonight.",
        "The bus was twenty minutes late again.",
        "Meeting moved to Thursday at 3pm.",
        "So proud of my sister for finishing her first marathon!",
        "My phone screen cracked this morning and I could scream.",
        "The library closes early on Sundays.",
        "Loving this sunny weather, finally.",
        "Cannot believe they cancelled the show after one season.",
        "New episode drops on Friday.",
        "Our team lost in the last minute, gutted.",
        "The coffee shop on Main Street has a new menu.",
        "Thank you all for the birthday wishes, you made my day.",
        "Stuck in traffic for two hours, worst commute ever.",
        "Registration for the course opens next week.",
        "That concert was absolutely amazing.",
        "The printer at work is broken yet again.",
        "Flights to Lisbon are cheaper in March.",
        "My cat knocked a glass off the table and looked pleased about it.",
        "Got the job!",
        "Starting in May.",
        "The referee ruined the whole game.",
        "Remember to bring your own cup to the event.",
        "What a beautiful wedding, congratulations to both of you.",
        "My order arrived damaged and support will not answer.",
        "The museum is free on the first Sunday of the month.",
        "Best day at the beach with friends.",
        "I hate waiting on hold for an hour.",
        "The train to the airport leaves every fifteen minutes.",
        "Great news about the new park opening downtown.",
        "Lost my wallet on the way home, terrible day.",
        "The store opens at 9 on Saturday.",
    ].joined(separator: " ")

    @Test("Unrelated happy, sad and plain sentences together are not read as certain")
    func mixedTextIsNotCertain() throws {
        let model = try #require(Self.model, "Models/default must load")
        #expect(Self.diary.utf8.count > TextSegments.wholeLimit)
        let prediction = model.classify(Self.diary)
        // Read whole, this text came out positive at p 0.9822, neutral at 0.0069.
        for label in SentimentLabel.allCases {
            #expect(prediction.probabilities[label] < 0.9, "\(label): \(prediction.probabilities)")
            #expect(prediction.probabilities[label] > 0.05, "\(label): \(prediction.probabilities)")
        }
    }

    @Test("A long blank text scores as a short one: the bias and nothing else")
    func longBlankTextScoresAsAShortOne() throws {
        let model = try #require(Self.model, "Models/default must load")
        #expect(model.classify(String(repeating: " ", count: 2_000)) == model.classify(" "))
    }

    @Test("A long text's language is the whole text's")
    func languageIsTheWholeTexts() throws {
        let model = try #require(Self.model, "Models/default must load")
        let spanish = String(repeating: "Qué día tan bonito, me encanta la playa y el sol. ", count: 20)
        #expect(model.classify(spanish).language == model.classify("Qué día tan bonito, me encanta la playa y el sol.").language)
        #expect(!model.classify(spanish).language.isSupported)
    }

    @Test("Training reads a long text as the mean of its segments' features")
    func trainingFeaturesAreTheSegmentsMean() throws {
        let model = try #require(Self.model, "Models/default must load")
        func features(_ text: String) -> (sums: [Int32: Float], dense: [Float]) {
            let (row, dense) = Fixtures.features(of: text, model: model)
            var sums: [Int32: Float] = [:]
            for (index, value) in zip(row.indices, row.values) { sums[index, default: 0] += value }
            return (sums, dense)
        }
        let one = features(Self.paragraph)
        let five = features(Array(repeating: Self.paragraph, count: 5).joined(separator: " "))
        #expect(Set(one.sums.keys) == Set(five.sums.keys))
        for (index, value) in one.sums {
            #expect(abs((five.sums[index] ?? 0) - value) < 1e-5, "bucket \(index)")
        }
        for j in 0..<DenseFeature.count {
            #expect(abs(five.dense[j] - one.dense[j]) < 1e-4 * max(1, abs(one.dense[j])), "\(DenseFeature.allCases[j].name)")
        }
    }

    /// Texts with invalid UTF-8.
    static let invalidTexts: [[UInt8]] = {
        // 550 bytes raw, 630 once each of the 40 bad bytes is a U+FFFD: read whole raw, in segments repaired.
        let grown: [UInt8] = [UInt8](repeating: UInt8(ascii: "x"), count: 500) + [UInt8](repeating: 0x80, count: 40)
            + Array(" i hate it".utf8)
        // 760 bytes raw: cut elsewhere raw than repaired.
        let sentence: [UInt8] = Array("what a lovely day at the beach ".utf8) + [0xFF, 0xC3]
        let cut: [UInt8] = Array([[UInt8]](repeating: sentence, count: 23).joined()) + Array("so sad now".utf8)
        // Short: whole either way.
        let short: [UInt8] = Array("I love it ".utf8) + [0xE2, 0x82] + Array(" so much".utf8)
        return [grown, cut, short]
    }()

    @Test("Invalid UTF-8 in a text long once repaired is read as its repaired String is, through the raw bytes too",
          arguments: invalidTexts)
    func invalidUTF8ReadsAsRepaired(bytes: [UInt8]) throws {
        let model = try #require(Self.model, "Models/default must load")
        let repaired = String(decoding: bytes, as: UTF8.self)
        let expected = model.classify(repaired)
        let raw = Fixtures.classify(utf8: [bytes], model, workspace: model.makeWorkspace())
        #expect(raw == [expected])
        let workspace = model.makeWorkspace()
        workspace.cache.serve(model.fused.identity)
        var reference: [Prediction] = []
        bytes.withUnsafeBytes { model.featurizeReference($0, row: 0, workspace: workspace) }
        model.finishBatch(rows: 1, workspace: workspace, into: &reference)
        #expect(reference.map(\.label) == [expected.label])
        for label in SentimentLabel.allCases {
            #expect(abs(reference[0].probabilities[label] - expected.probabilities[label]) < 1e-4, "\(label)")
        }
    }

    @Test("explain reads a long text in the segments classify reads")
    func explainCountsSegments() throws {
        let model = try #require(Self.model, "Models/default must load")
        let text = Array(repeating: Self.paragraph, count: 4).joined(separator: " ")
        let explanation = model.explain(text)
        #expect(explanation.segments == 4)
        #expect(explanation.prediction == model.classify(text))
        #expect(model.explain(Self.paragraph).segments == 1)
    }
}
