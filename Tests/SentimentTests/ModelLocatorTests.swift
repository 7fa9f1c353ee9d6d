import Foundation
import Testing
@testable import Sentiment

/// Where `SentimentModel.loadDefault()` looks, in its order, on folders made
/// for each case (the real process's environment and folders are not used:
/// the search up from a temporary folder sees only that folder, so a
/// `Models/default` above it — a temporary directory inside a checkout, say —
/// does not change the answers).
@Suite("Finding the default model")
struct ModelLocatorTests {
    /// A temporary folder with `Models/default/manifest.json` files at `models`
    /// (paths relative to it), a fake `bin/sentiment`, and empty `work` and `checkout` folders.
    private func layout(models: [String], _ body: (URL) throws -> Void) throws {
        let root = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(root) }
        let fileManager = FileManager.default
        for folder in ["bin", "work/sub", "checkout"] {
            try fileManager.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data().write(to: root.appendingPathComponent("bin/sentiment"))
        for model in models {
            let folder = root.appendingPathComponent(model)
            try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: folder.appendingPathComponent("manifest.json"))
        }
        try body(root)
    }

    private func find(in root: URL, environment: [String: String] = [:]) -> String? {
        let inside = root.standardizedFileURL.path + "/"
        return SentimentModel.defaultDirectory(
            environment: environment,
            currentDirectory: root.appendingPathComponent("work/sub"),
            executable: root.appendingPathComponent("bin/sentiment"),
            checkout: root.appendingPathComponent("checkout"),
            fileExists: { $0.hasPrefix(inside) && FileManager.default.fileExists(atPath: $0) }
        )?.path.replacingOccurrences(of: inside, with: "")
    }

    @Test("An installed executable finds the model under the prefix's share folder")
    func installed() throws {
        try layout(models: ["share/swift-sentiment/Models/default"]) { root in
            #expect(find(in: root) == "share/swift-sentiment/Models/default")
        }
    }

    @Test("The environment, then the current directory and its parents, come before the installed model")
    func order() throws {
        try layout(models: ["share/swift-sentiment/Models/default", "work/Models/default"]) { root in
            #expect(find(in: root) == "work/Models/default")
            #expect(find(in: root, environment: ["SENTIMENT_MODEL": "/somewhere/else"]) == "/somewhere/else")
        }
    }

    @Test("A model named by SENTIMENT_MODEL that is not there is an error that names the variable")
    func environmentModelMissing() async {
        await #expect(processExitsWith: .success) {
            setenv("SENTIMENT_MODEL", "/nonexistent-model", 1)
            do {
                _ = try SentimentModel.loadDefault()
                exit(1)
            } catch {
                exit("\(error)" == "/nonexistent-model/manifest.json ($SENTIMENT_MODEL names /nonexistent-model): no such file" ? 0 : 2)
            }
        }
    }

    @Test("A SENTIMENT_MODEL whose bytes are not UTF-8 is refused saying so, not looked for as a folder named with U+FFFD that is not there, and is no default directory")
    func environmentModelNotUTF8() async {
        await #expect(processExitsWith: .success) {
            // "/nonexistent-mod\xE9l": "modèl" in Latin-1.
            let name = Array("/nonexistent-mod".utf8CString.dropLast()) + [CChar(bitPattern: 0xE9), CChar(UInt8(ascii: "l")), 0]
            setenv("SENTIMENT_MODEL", name, 1)
            if let directory = SentimentModel.defaultDirectory() {
                print("defaultDirectory() is \(directory.path)")
                exit(3)
            }
            do {
                _ = try SentimentModel.loadDefault()
                exit(1)
            } catch {
                exit("\(error)" == "/nonexistent-mod\u{FFFD}l: cannot read: $SENTIMENT_MODEL names it in bytes that are not valid UTF-8 "
                     + "(shown as U+FFFD), and a model folder's name is read as UTF-8 (rename the folder, or load it with load(from:))" ? 0 : 2)
            }
        }
    }

    @Test("The package checkout is the last place looked, and nothing found is nil")
    func checkoutLast() throws {
        try layout(models: ["checkout/Models/default"]) { root in
            #expect(find(in: root) == "checkout/Models/default")
        }
        try layout(models: []) { root in
            #expect(find(in: root) == nil)
        }
    }
}
