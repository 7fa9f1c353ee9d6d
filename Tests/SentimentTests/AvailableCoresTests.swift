import Foundation
import Testing
@testable import Sentiment

@Suite("Available cores")
struct AvailableCoresTests {
    @Test("The count is at least one and at most the machine's cores")
    func countIsWithinTheMachine() {
        #expect((1...ProcessInfo.processInfo.activeProcessorCount).contains(AvailableCores.count))
    }

    #if os(Linux)
    @Test("The affinity list counts its CPUs and ranges", arguments: [
        ("Cpus_allowed_list:\t0-1\n", 2), ("Cpus_allowed_list:\t0\n", 1), ("Cpus_allowed_list:\t0-3,8,10-11\n", 7),
    ])
    func affinityLists(line: String, count: Int) {
        #expect(AvailableCores.affinityCount(status: "Name:\tsentiment\n" + line + "Mems_allowed_list:\t0\n") == count)
    }

    @Test("A missing or malformed affinity list is no answer", arguments: [
        "Name:\tx\n", "Cpus_allowed_list:\t\n", "Cpus_allowed_list:\t3-1\n", "Cpus_allowed_list:\ta\n",
    ])
    func badAffinityLists(status: String) {
        #expect(AvailableCores.affinityCount(status: status) == nil)
    }

    @Test("A process pinned to one CPU by taskset reads one core")
    func affinityOfAPinnedProcess() throws {
        // A real process pinned as a user would pin `sentiment classify`
        // (to the first CPU this one may use: a container may not have CPU 0),
        // its own view of /proc read by the same parser.
        let own = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
        let list = try #require(own.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let first = try #require(list.dropFirst("Cpus_allowed_list:".count)
            .split(whereSeparator: { $0 == "," || $0 == "-" }).first.map { $0.trimmingCharacters(in: .whitespaces) })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        process.arguments = ["-c", first, "cat", "/proc/thread-self/status"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        #expect(AvailableCores.affinityCount(status: String(decoding: data, as: UTF8.self)) == 1)
        #expect(AvailableCores.affinityCount() != nil)
    }

    @Test("cpu.max quotas count in whole cores, rounded up; no limit is none", arguments: [
        ("100000 100000", 1), ("150000 100000", 2), ("50000 100000", 1), ("400000 100000", 4),
    ])
    func cpuMaxLines(line: String, cores: Int) {
        #expect(AvailableCores.cores(cpuMax: line + "\n") == cores)
    }

    @Test("A cpu.max of max, a v1 quota of -1, or a malformed line is no limit", arguments: [
        "max 100000", "-1 100000", "", "100000", "a b",
    ])
    func noLimit(line: String) {
        #expect(AvailableCores.cores(cpuMax: line) == nil)
    }

    @Test("The tightest quota of a v2 cgroup and its ancestors counts")
    func cgroupV2Quota() throws {
        let tree = try CgroupTree()
        defer { tree.remove() }
        try tree.write("max 100000\n", "cpu.max")
        try tree.write("300000 100000\n", "user.slice/cpu.max")
        try tree.write("150000 100000\n", "user.slice/app/cpu.max")
        #expect(AvailableCores.cgroupQuota(root: tree.root, membership: "0::/user.slice/app\n") == 2)
        #expect(AvailableCores.cgroupQuota(root: tree.root, membership: "0::/user.slice\n") == 3)
        #expect(AvailableCores.cgroupQuota(root: tree.root, membership: "0::/\n") == nil)
        #expect(AvailableCores.cgroupQuota(root: tree.root, membership: "0::/elsewhere\n") == nil)
    }

    @Test("A v1 cpu controller's CFS quota counts; other controllers' lines are skipped")
    func cgroupV1Quota() throws {
        let tree = try CgroupTree()
        defer { tree.remove() }
        try tree.write("100000\n", "cpu,cpuacct/docker/abc/cpu.cfs_quota_us")
        try tree.write("100000\n", "cpu,cpuacct/docker/abc/cpu.cfs_period_us")
        try tree.write("-1\n", "cpu,cpuacct/cpu.cfs_quota_us")
        try tree.write("100000\n", "cpu,cpuacct/cpu.cfs_period_us")
        let membership = "9:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n"
        #expect(AvailableCores.cgroupQuota(root: tree.root, membership: membership) == 1)
        #expect(AvailableCores.cgroupQuota(root: tree.root, membership: "4:cpu,cpuacct:/\n") == nil)
    }
    #endif
}
