import Foundation

/// Checks, before any work, whether a directory can be written at a path.
enum OutputDirectory {
    /// Why `path` cannot become (or be written as) a directory, or nil when it
    /// can: the path or one of its parents is a file, or the nearest existing
    /// directory is not writable, or a directory cannot be made in it (tried:
    /// `access` says yes to root in `/proc` or `/sys`, where `mkdir` fails).
    static func problem(_ path: String) -> String? {
        let fileManager = FileManager.default
        var candidate = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        while !fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory) {
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { return nil }
            candidate = parent
        }
        guard isDirectory.boolValue else { return "\(candidate.path) is a file, not a directory" }
        guard access(candidate.path, W_OK | X_OK) == 0 else {
            return "\(candidate.path): \(String(cString: strerror(errno)))"
        }
        var template = Array(candidate.appendingPathComponent(".sentiment-check-XXXXXX").path.utf8CString)
        // mkdir in /proc says "No such file or directory" of a directory that exists: say what was tried.
        guard let probe = mkdtemp(&template) else {
            return "no directory can be made in \(candidate.path) (\(String(cString: strerror(errno))))"
        }
        rmdir(probe)
        return nil
    }
}
