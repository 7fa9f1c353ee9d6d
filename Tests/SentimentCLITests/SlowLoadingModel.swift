import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// A copy of the shipped model whose weights file takes minutes to load, so
/// that a test can signal a command while it is loading its model.
///
/// A FIFO cannot hold loading up: every model file is opened without
/// blocking and refused when it is not a regular file (`ModelFileTests`).
/// Here `weights.bin` is the shipped file with a hole of 256 GiB after it
/// (`truncate`, no disk used): the loader hashes a weights file to its last
/// byte before it says the length is wrong (so that a damaged file reads as
/// damaged), and hashing that many zeros takes minutes, the process reading
/// the file all along. The test sees the file open in `/proc/PID/fd`, so it
/// knows the command is loading, whatever the machine's speed.
struct SlowLoadingModel {
    let folder: TemporaryFolder
    var path: String { folder.url.path }

    /// Whether the machine has what the model needs: `/proc`, and a file
    /// system that holds a 256 GiB hole (ext4, tmpfs, btrfs, xfs do).
    static let available = FileManager.default.fileExists(atPath: "/proc/self/fd")

    init() throws {
        folder = try TemporaryFolder("slow-loading-model")
        let shipped = SentimentExecutable.packageRoot.appendingPathComponent("Models/default")
        for name in ["manifest.json", "weights.bin", "letters.bin"] {
            try FileManager.default.copyItem(at: shipped.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try #require(truncate(folder.appendingPathComponent("weights.bin").path, 256 << 30) == 0,
                     "cannot extend weights.bin: \(String(cString: strerror(errno)))")
    }

    /// Sends `signal` to the process `pid` as soon as it has this model's
    /// weights file open (it is then loading the model), and returns true;
    /// false when it never did within `timeout` (it ended first, or the time
    /// ran out), and no signal is sent.
    ///
    /// The watching is done by a thread of its own, not by the test's task:
    /// on a busy two-core machine the tasks' threads can all be held by
    /// other tests for a minute, and the signal must come while the model
    /// loads, however late the test gets to hear of it.
    func signal(_ signal: Int32, to pid: Int32, onceLoading timeout: Duration = .seconds(120)) async -> Bool {
        let weights = folder.appendingPathComponent("weights.bin").resolvingSymlinksInPath().path
        return await withCheckedContinuation { continuation in
            Thread {
                let descriptors = "/proc/\(pid)/fd"
                let deadline = ContinuousClock.now + timeout
                while ContinuousClock.now < deadline {
                    // A process that has ended (a zombie until it is waited for) has no descriptors to list.
                    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                          let state = stat.split(separator: ")").last?.split(separator: " ").first, state != "Z" else { break }
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
                    if names.contains(where: { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)")) == weights }) {
                        kill(pid, signal)
                        continuation.resume(returning: true)
                        return
                    }
                    usleep(2_000)
                }
                continuation.resume(returning: false)
            }.start()
        }
    }
}
