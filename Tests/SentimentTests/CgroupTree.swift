import Foundation

/// A made-up cgroup file tree in a fresh temporary folder, for the readers of
/// cgroup limits (`AvailableCores`, `AvailableMemory`).
struct CgroupTree {
    /// The folder that stands for `/sys/fs/cgroup`.
    let root: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cgroup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        root = url.path
    }

    /// Writes `text` to `path` under the root, creating its folders.
    func write(_ text: String, _ path: String) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    /// Deletes the tree.
    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
