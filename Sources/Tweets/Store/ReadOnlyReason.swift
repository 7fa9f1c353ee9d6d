import Foundation

/// Why this process may not write an existing database file, as `access(2)`
/// says: the file itself, its folder (where SQLite makes the `-wal` and
/// `-shm` files a write needs), or a read-only file system under either.
///
/// ```swift
/// if let reason = ReadOnlyReason(existingFileAt: path) {
///     print("it is read-only (\(reason))")   // "… (the file /srv/tweets.sqlite may not be written)"
/// }
/// ```
public enum ReadOnlyReason: Sendable, Hashable, CustomStringConvertible {
    /// The file may not be written by this user (its permissions, or marked immutable).
    case file(path: String)
    /// The file's folder may not be written by this user, so SQLite cannot
    /// make the files beside it that a write needs.
    case folder(path: String)
    /// The file (`path`) is on a file system mounted read-only (`EROFS`).
    case readOnlyFileSystem(path: String)

    /// The reason this process may not write the existing file at `path`,
    /// the `-wal` and `-shm` files beside it when they are there (another
    /// user's, or left with a read-only mode), and make files in its folder,
    /// or nil when it may.
    public init?(existingFileAt path: String) {
        if access(path, W_OK) != 0 {
            self = errno == EROFS ? .readOnlyFileSystem(path: path) : .file(path: path)
            return
        }
        for companion in [path + "-wal", path + "-shm"] where access(companion, F_OK) == 0 && access(companion, W_OK) != 0 {
            self = errno == EROFS ? .readOnlyFileSystem(path: path) : .file(path: companion)
            return
        }
        guard let reason = ReadOnlyReason(newFileAt: path) else { return nil }
        self = reason
    }

    /// The reason this process may not make the missing file at `path` in
    /// its existing folder (``folder(path:)`` or ``readOnlyFileSystem(path:)``),
    /// or nil when it may.
    public init?(newFileAt path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard access(folder, W_OK) != 0 else { return nil }
        self = errno == EROFS ? .readOnlyFileSystem(path: path) : .folder(path: folder)
    }

    /// The reason in a few words: "the file PATH may not be written", "its
    /// folder DIR may not be written" or "PATH is on a read-only file system".
    public var description: String {
        switch self {
        case .file(let path): "the file \(path) may not be written"
        case .folder(let path): "its folder \(path) may not be written"
        case .readOnlyFileSystem(let path): "\(path) is on a read-only file system"
        }
    }
}
