import Foundation

extension SentimentModel {
    /// The environment variable that names a model directory for `loadDefault()`.
    public static let modelEnvironmentVariable = "SENTIMENT_MODEL"

    /// Loads the model in `directory` (which holds `manifest.json` and its weights).
    ///
    /// `directory` is a file URL or a URL with no scheme, which is read as a
    /// path (`URL(string: "/srv/models/default")`, relative to the current
    /// directory when relative); a symbolic link to a directory is that directory.
    ///
    /// - Throws: `ModelError` naming the file and what is wrong: missing,
    ///   malformed manifest, unsupported version, bad magic, wrong sizes,
    ///   checksum mismatch, non-finite weights; `unreadable` for a URL of
    ///   another scheme (`https:`) or a file that is not a directory (the
    ///   manifest itself, say).
    public static func load(from directory: URL) throws(ModelError) -> SentimentModel {
        try ModelDirectory.load(localDirectory(directory))
    }

    /// `url` as a file URL of a directory: one with no scheme is a path; one
    /// of another scheme, or an existing file that is not a directory, is
    /// `unreadable`. (Foundation reads no scheme-less URL, and a file's
    /// `manifest.json` was reported missing beneath it.)
    private static func localDirectory(_ url: URL) throws(ModelError) -> URL {
        let local = url.scheme == nil ? URL(fileURLWithPath: url.path) : url
        guard local.isFileURL else {
            throw .unreadable(path: url.absoluteString, reason: "not a file URL: a model is loaded from a local directory")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: local.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw .unreadable(path: local.path, reason: "not a directory: a model is the directory that holds \(ModelDirectory.manifestName)")
        }
        return local
    }

    /// Where `make install` puts the model, relative to the prefix whose
    /// `bin/` holds the executable.
    public static let installedModelPath = "share/swift-sentiment/Models/default"

    /// Loads the shipped default model, found in this order:
    ///
    /// 1. the directory named by `SENTIMENT_MODEL`;
    /// 2. `Models/default` in the current directory or any of its parents;
    /// 3. `Models/default` beside the running executable or in any of its parents
    ///    (a `.build/release/sentiment` finds the checkout's `Models/`);
    /// 4. `../share/swift-sentiment/Models/default` from the executable's folder
    ///    (`make install`: `/usr/local/bin/sentiment` finds
    ///    `/usr/local/share/swift-sentiment/Models/default`);
    /// 5. `Models/default` of the package checkout this library was built from
    ///    (so a package that depends on swift-sentiment finds it in
    ///    `.build/checkouts/swift-sentiment/Models/default`).
    ///
    /// - Throws: `ModelError.missing` listing where it looked, or the load
    ///   error; a model named by `SENTIMENT_MODEL` that is not there is
    ///   `missing` with the variable named beside its path; a `SENTIMENT_MODEL`
    ///   whose bytes are not UTF-8 is `unreadable`, saying so (the runtime
    ///   reads it with U+FFFD in place of its bad bytes, which names another
    ///   folder, one that does not exist).
    public static func loadDefault() throws(ModelError) -> SentimentModel {
        if let raw = getenv(modelEnvironmentVariable), isNotUTF8(raw) {
            throw .unreadable(path: String(cString: raw), reason: "$\(modelEnvironmentVariable) names it in bytes that are not valid UTF-8 "
                + "(shown as U+FFFD), and a model folder's name is read as UTF-8 (rename the folder, or load it with load(from:))")
        }
        guard let directory = defaultDirectory() else {
            throw .missing(path: "Models/default (looked in $\(modelEnvironmentVariable), the current directory and its parents, beside the executable, in ../\(installedModelPath) from it, and the package checkout)")
        }
        do {
            return try load(from: directory)
        } catch .missing(let path) where !(ProcessInfo.processInfo.environment[modelEnvironmentVariable] ?? "").isEmpty {
            throw .missing(path: "\(path) ($\(modelEnvironmentVariable) names \(directory.path))")
        }
    }

    /// Where `loadDefault()` would load from: the directory `SENTIMENT_MODEL`
    /// names when it is set (as it is, whether or not it holds a model), else
    /// the first candidate with a manifest, or nil when none has one. Nil too
    /// when `SENTIMENT_MODEL` is set in bytes that are not valid UTF-8, which
    /// `loadDefault()` refuses: read as a string, they would name another
    /// folder, with U+FFFD in its name.
    public static func defaultDirectory() -> URL? {
        if let raw = getenv(modelEnvironmentVariable), isNotUTF8(raw) { return nil }
        // This file is Sources/Sentiment/Model/ModelLocator.swift in the package checkout.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return defaultDirectory(
            environment: ProcessInfo.processInfo.environment,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            executable: Bundle.main.executableURL?.resolvingSymlinksInPath(),
            checkout: checkout)
    }

    /// Whether `value`, an environment variable's, is set (not empty) in bytes that are not valid UTF-8.
    private static func isNotUTF8(_ value: UnsafePointer<CChar>) -> Bool {
        value.pointee != 0 && String(validatingCString: value) == nil
    }

    /// `defaultDirectory()`'s search with its inputs given: the steps of `loadDefault()`.
    /// `fileExists` answers for each candidate manifest's path (tests confine it to their own folders).
    static func defaultDirectory(environment: [String: String], currentDirectory: URL, executable: URL?,
                                 checkout: URL,
                                 fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> URL? {
        if let named = environment[modelEnvironmentVariable], !named.isEmpty {
            return URL(fileURLWithPath: named)
        }
        func hasManifest(_ candidate: URL) -> Bool {
            fileExists(candidate.appendingPathComponent(ModelDirectory.manifestName).path)
        }
        func search(upFrom start: URL) -> URL? {
            var directory = start.standardizedFileURL
            while true {
                let candidate = directory.appendingPathComponent("Models/default")
                if hasManifest(candidate) { return candidate }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { return nil }
                directory = parent
            }
        }
        if let found = search(upFrom: currentDirectory) { return found }
        if let folder = executable?.deletingLastPathComponent() {
            if let found = search(upFrom: folder) { return found }
            let installed = folder.deletingLastPathComponent().appendingPathComponent(installedModelPath).standardizedFileURL
            if hasManifest(installed) { return installed }
        }
        return search(upFrom: checkout)
    }
}
