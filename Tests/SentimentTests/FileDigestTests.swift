import Foundation
import Testing
@testable import Sentiment

@Suite("File digest")
struct FileDigestTests {
    @Test("A file's SHA-256 is the lower-case hex of its bytes")
    func digestOfAFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let path = folder.appendingPathComponent("train.tsv").path
        try Data("abc".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try SentimentModel.sha256(ofFile: path) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("A missing file, or a folder, fails with a ModelError naming the path")
    func unreadableFileIsNamed() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let missing = folder.appendingPathComponent("no-such.tsv").path
        #expect(throws: ModelError.missing(path: missing)) {
            try SentimentModel.sha256(ofFile: missing)
        }
        #expect(throws: ModelError.unreadable(path: folder.path, reason: "not a regular file")) {
            try SentimentModel.sha256(ofFile: folder.path)
        }
    }
}
