#if os(Linux)
import Foundation

/// A limit that cgroups set on this process (a CPU quota, a memory limit):
/// the tightest over the process's cgroups and their ancestors, as the kernel
/// applies it.
enum CgroupSetting {
    /// The smallest value `read` finds in the cgroup directories of
    /// `controller` (cgroup v1) or of the unified hierarchy (v2), under
    /// `root`, for the memberships listed as in `/proc/self/cgroup`, from
    /// each membership's own directory up to the root; nil when none is set.
    static func tightest(controller: String, root: String = "/sys/fs/cgroup", membership: String? = nil,
                         in read: (_ directory: String) -> Int?) -> Int? {
        guard let membership = membership ?? (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) else {
            return nil
        }
        var tightest: Int?
        for line in membership.split(separator: "\n") {
            // "ID:CONTROLLERS:PATH"; v2's line has no controllers.
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let directory: String
            if fields[1].isEmpty {
                directory = root
            } else if fields[1].split(separator: ",").contains(Substring(controller)) {
                directory = root + "/" + fields[1]
            } else {
                continue
            }
            var path = String(fields[2])
            while true {
                if let value = read(directory + (path == "/" ? "" : path)) {
                    tightest = min(tightest ?? value, value)
                }
                guard let slash = path.lastIndex(of: "/"), path != "/" else { break }
                path = slash == path.startIndex ? "/" : String(path[..<slash])
            }
        }
        return tightest
    }
}
#endif
