import Foundation
import Logging
@testable import Tweets

/// A fresh folder under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("TweetsTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes a file (creating its folders) and returns its URL.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a fresh temporary folder, then deletes it.
func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try await body(directory)
}

/// Runs `body` with a store on a new database file in a fresh temporary folder.
func withStore<T>(_ body: (TweetStore, TemporaryDirectory) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { directory in
        let store = try TweetStore(path: directory.path("db/tweets.sqlite"), logger: testLogger)
        return try await body(store, directory)
    }
}

let testLogger: Logger = {
    var logger = Logger(label: "TweetsTests", factory: { _ in SwiftLogNoOpLogHandler() })
    logger.logLevel = .critical
    return logger
}()

/// A fixed instant for deterministic tests: 2024-05-01T12:00:00Z.
let referenceDate = Date(timeIntervalSince1970: 1_714_564_800)

/// A file's bytes and the names in its folder, to show that opening it changed
/// nothing: no byte written, no `-wal`, `-shm` or journal left beside it.
struct FileState: Equatable {
    var bytes: Data
    var folder: [String]
}

/// The ``FileState`` of the file at `path`.
func fileState(_ path: String) throws -> FileState {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    return FileState(bytes: try Data(contentsOf: URL(fileURLWithPath: path)),
                     folder: try FileManager.default.contentsOfDirectory(atPath: folder).sorted())
}
