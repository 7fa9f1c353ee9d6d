import Foundation

/// Which file a path names: its device and inode, as `stat(2)` gives them.
/// A store keeps the one it opened, to tell when its path names another
/// file since (``TweetStoreError/replacedWhileOpen(removed:)``).
struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64

    /// The file at `path` now (links followed), or nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
