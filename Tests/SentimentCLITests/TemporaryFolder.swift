import Foundation

/// A fresh folder under the temporary directory, removed with everything in
/// it when the last reference goes (a test suite's instance lives for one test).
final class TemporaryFolder {
    let url: URL

    /// Creates `<tmp>/<prefix>-<UUID>`.
    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The URL of `name` inside the folder.
    func appendingPathComponent(_ name: String) -> URL { url.appendingPathComponent(name) }
}
