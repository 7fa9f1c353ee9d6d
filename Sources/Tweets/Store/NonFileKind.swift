import Foundation

/// What a database path names when it is not a regular file (nor a link to
/// one), which SQLite cannot keep a database in: ``TweetStoreError/notAFile(_:)``.
///
/// ```swift
/// if let kind = NonFileKind(at: "/var/lib") {
///     print("it is \(kind)")   // "it is a folder"
/// }
/// ```
public enum NonFileKind: Sendable, Hashable, CustomStringConvertible {
    /// A folder (`path`, to suggest a file inside it).
    case folder(path: String)
    /// A named pipe: SQLite's read of it waits for a writer, forever.
    case namedPipe
    /// A character or block device (`/dev/null`).
    case device
    /// A Unix domain socket.
    case socket

    /// What `path` names, following symbolic links, when it exists and is not
    /// a regular file; nil for a regular file, or when there is nothing there.
    public init?(at path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: self = .folder(path: path)
        case S_IFIFO: self = .namedPipe
        case S_IFCHR, S_IFBLK: self = .device
        default: self = .socket
        }
    }

    /// "a folder", "a named pipe (FIFO)", "a device", "a socket".
    public var description: String {
        switch self {
        case .folder: "a folder"
        case .namedPipe: "a named pipe (FIFO)"
        case .device: "a device"
        case .socket: "a socket"
        }
    }
}
