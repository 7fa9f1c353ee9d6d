import Foundation
import Testing
import Sentiment

@Suite("Model errors")
struct ModelErrorTests {
    @Test("A model error's localizedDescription is its one-line description, not Foundation's \"operation could not be completed\"")
    func localizedDescriptionIsTheDescription() throws {
        let directory = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
        do {
            _ = try SentimentModel.load(from: directory)
            Issue.record("a missing directory loaded")
        } catch {
            let untyped: any Error = error
            #expect(untyped.localizedDescription == "\(directory.path)/manifest.json: no such file")
            #expect(untyped.localizedDescription == error.description)
        }
    }
}
