import Foundation

/// How many cores this process may run on: what to size a pool of workers by.
///
/// `ProcessInfo.activeProcessorCount` counts the machine's cores, also under
/// `taskset -c 0` or in a container limited to one CPU, where a worker per
/// counted core would share one core. On Linux this reads the process's CPU
/// affinity (as `taskset`, `numactl` and container runtimes set it) and its
/// cgroup's CPU quota (`cpu.max`, as `docker run --cpus` sets it), and takes
/// the smaller; elsewhere it is `activeProcessorCount`.
public enum AvailableCores {
    /// The cores available to this process, at least 1.
    public static var count: Int {
        var count = ProcessInfo.processInfo.activeProcessorCount
        #if os(Linux)
        if let affinity = affinityCount() { count = min(count, affinity) }
        if let quota = cgroupQuota() { count = min(count, quota) }
        #endif
        return max(1, count)
    }

    #if os(Linux)
    /// The CPUs in the calling thread's affinity mask (a new thread inherits
    /// its creator's, so at start-up this is the process's), from the
    /// kernel's `Cpus_allowed_list` ("0-3,8,10-11").
    static func affinityCount(status: String? = nil) -> Int? {
        guard let status = status ?? (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else {
            return nil
        }
        var count = 0
        for range in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
            let ends = range.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch ends.count {
            case 1:
                guard ends[0] != nil else { return nil }
                count += 1
            case 2:
                guard let low = ends[0], let high = ends[1], low <= high else { return nil }
                count += high - low + 1
            default:
                return nil
            }
        }
        return count > 0 ? count : nil
    }

    /// The tightest CPU quota of this process's cgroups and their ancestors,
    /// rounded up to whole cores; nil when none is set. Reads cgroup v2's
    /// `cpu.max` and v1's `cpu.cfs_quota_us` / `cpu.cfs_period_us`, under
    /// `root`, for the memberships listed as in `/proc/self/cgroup`.
    static func cgroupQuota(root: String = "/sys/fs/cgroup", membership: String? = nil) -> Int? {
        CgroupSetting.tightest(controller: "cpu", root: root, membership: membership, in: quotaCores(in:))
    }

    /// The quota set in one cgroup directory, in whole cores.
    private static func quotaCores(in directory: String) -> Int? {
        func read(_ name: String) -> String? { try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) }
        if let max = read("cpu.max") { return cores(cpuMax: max) }
        if let quota = read("cpu.cfs_quota_us"), let period = read("cpu.cfs_period_us") {
            return cores(cpuMax: quota + " " + period)  // a quota of -1 is no limit
        }
        return nil
    }

    /// Whole cores from a `cpu.max` line, "QUOTA PERIOD" in microseconds
    /// ("max 100000", or v1's quota -1, is no limit): the quota over the
    /// period, rounded up.
    static func cores(cpuMax text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]),
              quota > 0, period > 0 else { return nil }
        return max(1, Int((quota / period).rounded(.up)))
    }
    #endif
}
