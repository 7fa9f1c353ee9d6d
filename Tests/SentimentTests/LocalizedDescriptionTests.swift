import Foundation
import Testing
import Sentiment

/// An embedder that catches `any Error` and logs `localizedDescription`
/// reads the library's own one-line reason.
@Suite("Errors' localized descriptions")
struct LocalizedDescriptionTests {
    @Test("A data file error caught as any Error says its file and reason, not Foundation's \"operation could not be completed\"")
    func dataFileError() throws {
        let path = "/nonexistent-\(UUID().uuidString).tsv"
        do {
            _ = try LabeledExample.readTSV(path)
            Issue.record("a missing file was read")
        } catch {
            let untyped: any Error = error
            #expect(untyped.localizedDescription == error.description)
            #expect(untyped.localizedDescription.hasPrefix(path))
        }
    }

    @Test("A training error caught as any Error says why training could not start")
    func trainingError() throws {
        do {
            _ = try Trainer().train([])
            Issue.record("training on nothing started")
        } catch let error as TrainingError {
            let untyped: any Error = error
            #expect(untyped.localizedDescription == error.description)
            #expect(!untyped.localizedDescription.contains("could not be completed"))
        }
    }
}
