import Foundation
import Testing
@testable import Sentiment

/// `SentimentModel.load(from:)` and `save(to:)` given the URLs an
/// application builds: from a path string without a scheme, of another
/// scheme, or naming a file.
@Suite("Loading a model from a URL")
struct ModelDirectoryURLTests {
    @Test("A URL made from a path string, with no file scheme, loads the model there")
    func schemelessURLLoads() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let saved = try Fixtures.smallModel().save(to: directory)
        let url = try #require(URL(string: directory.path))
        #expect(url.scheme == nil)
        let loaded = try SentimentModel.load(from: url)
        #expect(loaded.id == saved.id)
        #expect(loaded.directory?.isFileURL == true)
    }

    @Test("A URL of another scheme is refused as not a file URL, naming it")
    func remoteURLIsRefused() throws {
        let url = try #require(URL(string: "https://example.com/Models/default"))
        #expect(throws: ModelError.unreadable(path: "https://example.com/Models/default",
                                              reason: "not a file URL: a model is loaded from a local directory")) {
            try SentimentModel.load(from: url)
        }
    }

    @Test("A file given for the model directory, its manifest say, is refused as not a directory, naming it")
    func fileIsNotADirectory() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try Fixtures.smallModel().save(to: directory)
        let manifest = directory.appendingPathComponent("manifest.json")
        #expect(throws: ModelError.unreadable(path: manifest.path,
                                              reason: "not a directory: a model is the directory that holds manifest.json")) {
            try SentimentModel.load(from: manifest)
        }
        // A link to the directory is the directory.
        let link = directory.deletingLastPathComponent().appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory)
        defer { Fixtures.remove(link) }
        #expect(throws: Never.self) { try SentimentModel.load(from: link) }
    }

    @Test("Saving to a URL made from a path string, with no file scheme, writes the model there")
    func schemelessURLSaves() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let url = try #require(URL(string: directory.path + "/model"))
        let saved = try Fixtures.smallModel().save(to: url)
        #expect(saved.directory?.isFileURL == true)
        #expect(try SentimentModel.load(from: directory.appendingPathComponent("model")).id == saved.id)
    }
}
