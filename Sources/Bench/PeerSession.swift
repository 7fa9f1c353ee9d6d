import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A peer script kept running with `--serve`: it trains or loads its model
/// and reads the dump once, then times one pass over the dump each time it is
/// asked. Bench asks between its own runs, so the peer and `sentiment classify`
/// take turns on core 0 and meet the same spells of the shared host's load.
final class PeerSession {
    let name: String
    private let pid: pid_t
    private let start: Double
    private var toChild: Int32
    private let fromChild: Int32
    private let timeReport: String
    private let log: String
    private var pending: [UInt8] = []

    /// Spawns `arguments` under `/usr/bin/time -f %M` (its peak RSS, as for the
    /// other runs) with pipes on stdin and stdout, and waits for its
    /// `{"ready": true}` line (training and warm-up done).
    init(name: String, arguments: [String], environment: [String: String], log: String) throws {
        self.name = name
        self.log = log
        timeReport = FileManager.default.temporaryDirectory.appendingPathComponent("bench-peer-time-\(getpid()).txt").path
        Interruption.track(timeReport)
        start = monotonicSeconds()
        (pid, toChild, fromChild) = try ChildProcess.spawnPiped(try ChildProcess.timed(arguments, report: timeReport),
                                                               stderr: log, environment: environment)
        guard try message()["ready"] as? Bool == true else { throw failure("no ready line") }
    }

    deinit {
        if toChild >= 0 { close(toChild) }
        close(fromChild)
        Interruption.remove(timeReport)
    }

    /// One timed pass of the peer: its wall-clock and CPU seconds.
    func time() throws -> (seconds: Double, cpuSeconds: Double) {
        let request = Array("run\n".utf8)
        guard request.withUnsafeBytes({ write(toChild, $0.baseAddress, $0.count) }) == request.count else {
            throw failure("cannot send a run request")
        }
        let reply = try message()
        guard let seconds = reply["seconds"] as? Double, let cpu = reply["cpu_seconds"] as? Double else {
            throw failure("no timing in its reply")
        }
        return (seconds, cpu)
    }

    /// Ends the session: the peer's closing report (settings, every run's
    /// seconds, dev metrics) and its process's peak RSS.
    func finish() throws -> (report: [String: Any], run: ChildRun) {
        close(toChild)
        toChild = -1
        let report = try message()
        var run = ChildProcess.wait(pid, start: start)
        guard run.status == 0 else { throw failure("exited with \(run.status)") }
        if let peak = ChildProcess.peakRSS(report: timeReport) { run.peakRSSBytes = peak }
        return (report, run)
    }

    /// The next JSON line on the peer's stdout.
    private func message() throws -> [String: Any] {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw failure("not a JSON line: \(String(decoding: line, as: UTF8.self).prefix(200))")
                }
                return object
            }
            let count = read(fromChild, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw failure("its output ended") }
            pending += chunk[..<count]
        }
    }

    private func failure(_ what: String) -> BenchError {
        BenchError("\(name): \(what): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }
}
