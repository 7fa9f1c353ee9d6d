import Foundation

extension SentimentModel {
    /// The environment variable that names a model directory for `loadDefault()`.
    public static let modelEnvironmentVariable = "SENTIMENT_MODEL"

    /// Loads the model in `directory` (which holds `manifest.json` and its weights).
    ///
    /// - Throws: `ModelError` naming the file and what is wrong: missing,
    ///   malformed manifest, unsupported version, bad magic, wrong sizes,
    ///   checksum mismatch, non-finite weights.
    public static func load(from directory: URL) throws(ModelError) -> SentimentModel {
        try ModelDirectory.load(directory)
    }

    /// Loads the shipped default model, found in this order:
    ///
    /// 1. the directory named by `SENTIMENT_MODEL`;
    /// 2. `Models/default` in the current directory or any of its parents;
    /// 3. `Models/default` beside the running executable or in any of its parents
    ///    (a `.build/release/sentiment` finds the checkout's `Models/`);
    /// 4. `Models/default` of the package checkout this library was built from
    ///    (so a package that depends on swift-sentiment finds it in
    ///    `.build/checkouts/swift-sentiment/Models/default`).
    ///
    /// - Throws: `ModelError.missing` listing where it looked, or the load error.
    public static func loadDefault() throws(ModelError) -> SentimentModel {
        guard let directory = defaultDirectory() else {
            throw .missing(path: "Models/default (looked in $\(modelEnvironmentVariable), the current directory and its parents, beside the executable, and the package checkout)")
        }
        return try load(from: directory)
    }

    /// Where `loadDefault()` would load from, or nil when no candidate has a manifest.
    public static func defaultDirectory() -> URL? {
        let fileManager = FileManager.default
        if let named = ProcessInfo.processInfo.environment[modelEnvironmentVariable], !named.isEmpty {
            return URL(fileURLWithPath: named)
        }
        func search(upFrom start: URL) -> URL? {
            var directory = start.standardizedFileURL
            while true {
                let candidate = directory.appendingPathComponent("Models/default")
                if fileManager.fileExists(atPath: candidate.appendingPathComponent(ModelDirectory.manifestName).path) {
                    return candidate
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { return nil }
                directory = parent
            }
        }
        if let found = search(upFrom: URL(fileURLWithPath: fileManager.currentDirectoryPath)) { return found }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath(),
           let found = search(upFrom: executable.deletingLastPathComponent()) {
            return found
        }
        // This file is Sources/Sentiment/Model/ModelLocator.swift in the package checkout.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return search(upFrom: checkout)
    }
}
