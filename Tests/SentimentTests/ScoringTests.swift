import Foundation
import Testing
@testable import Sentiment

@Suite("Scoring")
struct ScoringTests {
    static let texts = Fixtures.sample.map(\.text) + [
        "", "   ", "NOT BAD AT ALL!!!", "soooo good 😍😍", "@user check https://t.co/x #winning",
        "naïve café ＨＥＬＬＯ", String(repeating: "long tweet ", count: 300), "\u{FFFD}\u{FFFD}",
    ]

    @Test("BLAS batch scores agree with the plain-Swift reference within 1e-5")
    func blasAgreesWithReference() throws {
        let model = try Fixtures.smallModel()
        let batch = model.classify(Self.texts)
        let decision = Decision(model.manifest.decision)
        for (text, prediction) in zip(Self.texts, batch) {
            let (row, dense) = Fixtures.features(of: text, model: model)
            let z = ReferenceScorer.logits(indices: row.indices, values: row.values, dense: dense, weights: model.weights)
            let t = model.manifest.decision.temperature
            let top = z.map { $0 / t }.max()!
            let e = z.map { exp($0 / t - top) }
            let sum = e.reduce(0, +)
            #expect(abs(prediction.probabilities.negative - e[0] / sum) < 1e-5)
            #expect(abs(prediction.probabilities.neutral - e[1] / sum) < 1e-5)
            #expect(abs(prediction.probabilities.positive - e[2] / sum) < 1e-5)
            _ = decision
        }
    }

    @Test("Probabilities lie in [0, 1] and sum to 1, and the score is p(positive) - p(negative)")
    func probabilitiesAreWellFormed() throws {
        let model = try Fixtures.smallModel()
        for prediction in model.classify(Self.texts) {
            let p = prediction.probabilities
            for value in p.values { #expect((0...1).contains(value)) }
            #expect(abs(p.values.reduce(0, +) - 1) < 1e-6)
            #expect(abs(prediction.score - (p.positive - p.negative)) < 1e-12)
            #expect((-1...1).contains(prediction.score))
        }
    }

    @Test("A batch of any size gives one prediction per text, in order", arguments: [0, 1, 255, 256, 257, 1000])
    func batchesKeepOrder(size: Int) throws {
        let model = try Fixtures.smallModel()
        let texts = (0..<size).map { Self.texts[$0 % Self.texts.count] }
        let batch = model.classify(texts)
        #expect(batch.count == size)
        for (text, prediction) in zip(texts, batch) { #expect(model.classify(text) == prediction) }
    }

    @Test("The UTF-8 fast path matches the String API, invalid bytes included")
    func utf8PathMatchesStrings() throws {
        let model = try Fixtures.smallModel()
        let raw: [[UInt8]] = Self.texts.map { Array($0.utf8) } + [[0xFF, 0xFE, 0x61], [0xE2, 0x82], [0xC0, 0xAF, 0x20, 0x3A, 0x29]]
        let fast = Fixtures.classify(utf8: raw, model, workspace: model.makeWorkspace())
        #expect(fast.count == raw.count)
        let strings = raw.map { String(decoding: $0, as: UTF8.self) }
        #expect(Array(fast.prefix(Self.texts.count)) == model.classify(Array(strings.prefix(Self.texts.count))))
    }

    @Test("Many tasks sharing one model get the same answers as one by one")
    func sharedModelIsThreadSafe() async throws {
        let model = try Fixtures.smallModel()
        let expected = model.classify(Self.texts)
        try await withThrowingTaskGroup(of: [Prediction].self) { group in
            for _ in 0..<8 { group.addTask { model.classify(Self.texts) } }
            for try await result in group { #expect(result == expected) }
        }
    }

    @Test("The async sequence form yields one prediction per text, in order")
    func asyncSequenceKeepsOrder() async throws {
        let model = try Fixtures.smallModel()
        let stream = AsyncStream<String> { continuation in
            for text in Self.texts { continuation.yield(text) }
            continuation.finish()
        }
        var results: [Prediction] = []
        for try await prediction in model.predictions(for: stream) { results.append(prediction) }
        #expect(results == model.classify(Self.texts))
    }

    @Test("Calls on eight tasks at once share the model's token table and give what one batch gives")
    func concurrentCallsShareTheTable() async throws {
        let model = try Fixtures.smallModel()
        #expect(!model.callTable.isMade)
        let texts = (0..<2_000).map { i in "\(Self.texts[i % Self.texts.count]) word\(i % 613) other\(i % 97)" }
        let expected = texts.map { model.classify($0) }  // one text a call
        #expect(model.callTable.isMade)
        let copy = model  // copies share the table
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    // Each task walks the texts from another place, in calls of 37.
                    let order = (0..<texts.count).map { ($0 + task * 251) % texts.count }
                    var mismatches = 0
                    for start in stride(from: 0, to: order.count, by: 37) {
                        let chunk = Array(order[start..<min(start + 37, order.count)])
                        let got = copy.classify(chunk.map { texts[$0] })
                        mismatches += zip(chunk, got).filter { expected[$0.0] != $0.1 }.count
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(model.classify(texts) == expected)
    }

    @Test("A long async sequence of many distinct words gives what a batch gives")
    func longAsyncSequenceAgreesWithBatch() async throws {
        let model = try Fixtures.smallModel()
        // Some 9,000 distinct words, on the table the model's calls share.
        let texts = (0..<3_000).map { i in "\(Self.texts[i % Self.texts.count]) word\(i) other\(i % 997) more\(i * 7)" }
        let (stream, continuation) = AsyncStream<String>.makeStream()
        for text in texts { continuation.yield(text) }
        continuation.finish()
        var results: [Prediction] = []
        for try await prediction in model.predictions(for: stream) { results.append(prediction) }
        #expect(results == model.classify(texts))
    }

    @Test("The async sequence stops with CancellationError when its task is cancelled, though its base holds more texts")
    func asyncSequenceStopsWhenCancelled() async throws {
        let model = try Fixtures.smallModel()
        let (stream, continuation) = AsyncStream<String>.makeStream()
        for i in 0..<10_000 { continuation.yield("text number \(i)") }
        continuation.finish()
        let task = Task { () -> (count: Int, cancelled: Bool) in
            var count = 0
            do {
                for try await _ in model.predictions(for: stream) {
                    count += 1
                    if count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
                }
            } catch is CancellationError {
                return (count, true)
            } catch {}
            return (count, false)
        }
        let result = await task.value
        #expect(result.count == 3)
        #expect(result.cancelled)
    }

    @Test("A task cancelled while the async sequence waits for its next text stops with CancellationError, not as if the texts had ended")
    func asyncSequenceCancelledWhileWaiting() async throws {
        let model = try Fixtures.smallModel()
        let (texts, input) = AsyncStream<String>.makeStream()
        let (progress, reached) = AsyncStream<Int>.makeStream()
        let task = Task { () -> (count: Int, cancelled: Bool) in
            var count = 0
            do {
                for try await _ in model.predictions(for: texts) {
                    count += 1
                    reached.yield(count)
                }
            } catch is CancellationError {
                return (count, true)
            } catch {}
            return (count, false)
        }
        input.yield("a happy day")
        input.yield("a sad day")
        for await count in progress where count == 2 { break }
        // The stream stays open: the sequence is waiting for a third text when the task is cancelled.
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let result = await task.value
        #expect(result.count == 2)
        #expect(result.cancelled, "a cancelled run must not look like the end of the input")
        input.finish()
    }

    @Test("The async sequence over a Sendable sequence is Sendable, so another task can consume it")
    func asyncSequenceIsSendable() async throws {
        let model = try Fixtures.smallModel()
        let (stream, continuation) = AsyncStream<String>.makeStream()
        for text in Self.texts { continuation.yield(text) }
        continuation.finish()
        func collect<S: AsyncSequence & Sendable>(_ sequence: S) async throws -> [Prediction] where S.Element == Prediction {
            try await Task.detached { try await sequence.reduce(into: []) { $0.append($1) } }.value
        }
        #expect(try await collect(model.predictions(for: stream)) == model.classify(Self.texts))
    }

    @Test("A batch capacity past the maximum stops with a message that names the range, not an overflow")
    func batchCapacityBound() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SentimentModel.Workspace(batchCapacity: Int.max / 4)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("batchCapacity \(Int.max / 4) is not 1 to \(SentimentModel.Workspace.maximumBatchCapacity)"), "\(message)")
    }
}
