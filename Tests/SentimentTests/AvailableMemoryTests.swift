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
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.write("max\n", root + "/memory.max")
        try Self.write("8589934592\n", root + "/user.slice/memory.max")
        try Self.write("max\n", root + "/user.slice/app/memory.max")
        #expect(AvailableMemory.cgroupLimit(root: root, membership: "0::/user.slice/app\n") == 8_589_934_592)
        #expect(AvailableMemory.cgroupLimit(root: root, membership: "0::/\n") == nil)
    }

    @Test("A v1 memory controller's limit counts; other controllers' lines are skipped")
    func cgroupV1Limit() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.write("2147483648\n", root + "/memory/docker/abc/memory.limit_in_bytes")
        try Self.write("9223372036854771712\n", root + "/memory/memory.limit_in_bytes")
        try Self.write("100000\n", root + "/cpu,cpuacct/docker/abc/cpu.cfs_quota_us")
        let membership = "9:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n"
        #expect(AvailableMemory.cgroupLimit(root: root, membership: membership) == 2_147_483_648)
        #expect(AvailableMemory.cgroupLimit(root: root, membership: "9:memory:/\n") == nil)
    }

    private static func folder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    private static func write(_ text: String, _ path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }
    #endif
}
