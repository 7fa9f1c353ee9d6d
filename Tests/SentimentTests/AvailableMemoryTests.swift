import Foundation
import Testing
@testable import Sentiment

@Suite("Available memory")
struct AvailableMemoryTests {
    @Test("The bytes are more than none and at most the machine's")
    func bytesAreWithinTheMachine() {
        #expect((1...ProcessInfo.processInfo.physicalMemory).contains(AvailableMemory.bytes))
    }

    #if os(Linux)
    @Test("A limit file gives its bytes; \"max\" and v1's largest number are no limit", arguments: [
        ("4294967296\n", 4_294_967_296 as Int?), ("max\n", nil), ("9223372036854771712\n", nil), ("0\n", nil), ("", nil),
    ])
    func limitFiles(text: String, bytes: Int?) {
        #expect(AvailableMemory.limit(text) == bytes)
    }

    @Test("The tightest memory limit of a v2 cgroup and its ancestors counts")
    func cgroupV2Limit() throws {
        let tree = try CgroupTree()
        defer { tree.remove() }
        try tree.write("max\n", "memory.max")
        try tree.write("8589934592\n", "user.slice/memory.max")
        try tree.write("max\n", "user.slice/app/memory.max")
        #expect(AvailableMemory.cgroupLimit(root: tree.root, membership: "0::/user.slice/app\n") == 8_589_934_592)
        #expect(AvailableMemory.cgroupLimit(root: tree.root, membership: "0::/\n") == nil)
    }

    @Test("A v1 memory controller's limit counts; other controllers' lines are skipped")
    func cgroupV1Limit() throws {
        let tree = try CgroupTree()
        defer { tree.remove() }
        try tree.write("2147483648\n", "memory/docker/abc/memory.limit_in_bytes")
        try tree.write("9223372036854771712\n", "memory/memory.limit_in_bytes")
        try tree.write("100000\n", "cpu,cpuacct/docker/abc/cpu.cfs_quota_us")
        let membership = "9:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n"
        #expect(AvailableMemory.cgroupLimit(root: tree.root, membership: membership) == 2_147_483_648)
        #expect(AvailableMemory.cgroupLimit(root: tree.root, membership: "9:memory:/\n") == nil)
    }
    #endif
}
