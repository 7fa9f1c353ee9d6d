import Foundation

/// How much memory this process may use: what to size memory-hungry work by
/// (how many fits a training runs at once).
///
/// `ProcessInfo.physicalMemory` is the machine's, also in a container limited
/// to less (`docker run --memory`), where work sized by it would be killed.
/// On Linux this also reads the memory limit of the process's cgroups
/// (v2's `memory.max`, v1's `memory.limit_in_bytes`) and takes the smaller.
enum AvailableMemory {
    /// The bytes available to this process.
    static var bytes: UInt64 {
        var bytes = ProcessInfo.processInfo.physicalMemory
        #if os(Linux)
        if let limit = cgroupLimit() { bytes = min(bytes, UInt64(limit)) }
        #endif
        return bytes
    }

    #if os(Linux)
    /// The tightest memory limit of this process's cgroups and their
    /// ancestors, in bytes; nil when none is set.
    static func cgroupLimit(root: String = "/sys/fs/cgroup", membership: String? = nil) -> Int? {
        CgroupSetting.tightest(controller: "memory", root: root, membership: membership) { directory in
            func read(_ name: String) -> String? { try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) }
            guard let text = read("memory.max") ?? read("memory.limit_in_bytes") else { return nil }
            return limit(text)
        }
    }

    /// A limit in bytes from a `memory.max` or `memory.limit_in_bytes` file;
    /// nil for none ("max", or v1's page-rounded largest integer).
    static func limit(_ text: String) -> Int? {
        guard let bytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes > 0,
              bytes < 1 << 62 else { return nil }
        return bytes
    }
    #endif
}
