import Foundation
import Testing
@testable import Sentiment

/// The token cache (`TokenTable`) keeps each distinct token's share of the
/// scores. Whoever fills it, and however many threads share it, a text must
/// score exactly as with a cache of its own.
@Suite("Token table")
struct TokenTableTests {
    static let texts = FusedScorerTests.texts

    /// `texts` through the UTF-8 fast path with `workspace`.
    private func classify(_ texts: [String], _ model: SentimentModel, workspace: SentimentModel.Workspace) -> [Prediction] {
        Fixtures.classify(utf8: texts.map { Array($0.utf8) }, model, workspace: workspace)
    }

    @Test("A workspace switched between two models scores each with its own weights")
    func workspaceSwitchedBetweenModels() throws {
        let small = try Fixtures.smallModel(), shipped = try SentimentModel.loadDefault()
        let workspace = SentimentModel.Workspace(cacheBits: 12)
        for model in [small, shipped, small, shipped] {
            let got = classify(Self.texts, model, workspace: workspace), expected = model.classify(Self.texts)
            #expect(zip(got, expected).filter { $0 != $1 }.count == 0)
        }
    }

    @Test("Threads sharing a four-entry table, evicting each other at nearly every word, score as with private caches")
    func sharedTableUnderContention() async throws {
        let model = try SentimentModel.loadDefault()
        let expected = model.classify(Self.texts)
        let table = model.makeTokenTable(bits: 2)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    let workspace = model.makeWorkspace(sharing: table, batchCapacity: 64)
                    var mismatches = 0
                    for round in 0..<40 {
                        // Each task walks the texts from another place, so the
                        // threads fill and read the same slots at once.
                        let shift = (task * 97 + round * 31) % Self.texts.count
                        let order = Array(shift..<Self.texts.count) + Array(0..<shift)
                        let got = classify(order.map { Self.texts[$0] }, model, workspace: workspace)
                        mismatches += zip(order, got).filter { expected[$0.0] != $0.1 }.count
                    }
                    return mismatches
                }
            }
            for try await mismatches in group { #expect(mismatches == 0) }
        }
    }

    @Test("Workspaces sharing a table see each other's words and still score as with private caches")
    func sharedTableKeepsWords() throws {
        let model = try SentimentModel.loadDefault()
        let table = model.makeTokenTable(bits: 14)
        let first = model.makeWorkspace(sharing: table), second = model.makeWorkspace(sharing: table)
        let expected = model.classify(Self.texts)
        #expect(zip(classify(Self.texts, model, workspace: first), expected).filter { $0 != $1 }.count == 0)
        let filled = (0..<table.capacity).filter { table.entries[$0].key != 0 }.count
        #expect(filled > 100)
        #expect(zip(classify(Self.texts, model, workspace: second), expected).filter { $0 != $1 }.count == 0)
        #expect(first.cache.table === second.cache.table)
        // The second pass met no word the first had not: no slot filled anew.
        #expect((0..<table.capacity).filter { table.entries[$0].key != 0 }.count == filled)
    }

    @Test("A table made by one model cannot serve another model's workspace")
    func tableOfAnotherModelIsRefused() async {
        await #expect(processExitsWith: .failure) {
            let shipped = try SentimentModel.loadDefault()
            let other = try Fixtures.smallModel()
            _ = shipped.makeWorkspace(sharing: other.makeTokenTable(bits: 4))
        }
    }
}
