import Foundation

/// Peers timed in the same run on the same dump (as utf8proc's bench/icu.c
/// times ICU): fastText and VADER from PyPI in `.venv-peers`, through
/// `scripts/peers/*.py`, each pinned to core 0 with `taskset -c 0`. fastText
/// runs as a `PeerSession` that takes turns with the plain dump's
/// `sentiment classify` runs; VADER, twenty times slower, runs on its own after.
struct Peers {
    /// The repository root (holds `scripts/peers/`).
    let root: URL
    let train: String
    let dev: String?
    let dump: Dump
    let repeats: Int
    let recorder: Recorder

    /// What each peer script printed (settings, dev metrics, sampling), kept in the JSON report.
    private(set) var details: [String: Any] = [:]

    /// The directory above the running binary or the working directory that holds `scripts/peers`.
    static func repositoryRoot() -> URL? {
        let starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                      URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()]
        for start in starts {
            var directory = start.standardizedFileURL
            while directory.path != "/" {
                if FileManager.default.fileExists(atPath: directory.appendingPathComponent("scripts/peers/setup.sh").path) {
                    return directory
                }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }

    /// The peers' Python, once `setUp` has made their environment.
    private(set) var python: String?
    private var scripts: URL { root.appendingPathComponent("scripts/peers") }
    private var output: String { FileManager.default.temporaryDirectory.appendingPathComponent("bench-peer-\(getpid()).out").path }
    private var log: String { FileManager.default.temporaryDirectory.appendingPathComponent("bench-peer-\(getpid()).log").path }
    /// One thread for every numeric library a peer may load.
    private static let single = ["OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                          "PYTHONDONTWRITEBYTECODE": "1"]
    static let fastTextName = "peer/fastText-1-core"
    static let vaderName = "peer/VADER-1-core"

    /// Makes the peers' Python environment (`scripts/peers/setup.sh`).
    mutating func setUp() throws {
        // Kept until `run` ends (the fastText session writes its log between),
        // and removed on a signal (a Ctrl-C during pip install left them in TMPDIR).
        Interruption.track(output)
        Interruption.track(log)
        defer { unlink(output); unlink(log) }
        writeToStandardError("bench: peers: scripts/peers/setup.sh (python venv, pip install fasttext-wheel vaderSentiment)\n")
        let setup = try ChildProcess.run(["bash", scripts.appendingPathComponent("setup.sh").path], stdout: output, stderr: log)
        guard setup.status == 0,
              let python = (try? String(contentsOfFile: output, encoding: .utf8))?.split(separator: "\n").last.map(String.init) else {
            throw BenchError("peers: setup.sh failed (\(setup.status)): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        self.python = python
    }

    /// fastText trained and its dump read, waiting on core 0 for `time()`
    /// requests (nil when filtered out), so that `ProcessBenchmarks` can take
    /// turns with it.
    func startFastText() throws -> PeerSession? {
        guard let python, recorder.wants(Self.fastTextName) else { return nil }
        let arguments = [scripts.appendingPathComponent("fasttext_peer.py").path, "--serve",
                         "--train", train, "--dump", dump.plain.path] + (dev.map { ["--dev", $0] } ?? [])
        writeToStandardError("bench: \(Self.fastTextName): taskset -c 0 python fasttext_peer.py --serve (training, then one run per request)\n")
        return try PeerSession(name: Self.fastTextName, arguments: ["taskset", "-c", "0", python] + arguments,
                               environment: Self.single, log: log)
    }

    /// Records fastText's session (timing it here up to `repeats` runs when
    /// nothing took turns with it), then times VADER on its own.
    mutating func run(fastText: PeerSession?, runs: [(seconds: Double, cpuSeconds: Double)]) throws {
        defer { Interruption.remove(output); Interruption.remove(log) }
        if let fastText {
            let taken = runs.count
            var runs = runs
            recorder.begin()
            while runs.count < repeats { runs.append(try fastText.time()) }
            let (json, child) = try fastText.finish()
            record(Self.fastTextName, json: json, peakRSS: child.peakRSSBytes,
                   timings: Timings(seconds: runs.map(\.seconds), cpuSeconds: runs.map(\.cpuSeconds)),
                   how: taken == 0 ? "runs back to back" : "runs taking turns with process/plain's")
        }
        // The names the rows are recorded under, so --filter and --skip take them whole.
        guard let python, recorder.wants(Self.vaderName) else { return }
        let name = Self.vaderName
        let arguments = [scripts.appendingPathComponent("vader_peer.py").path, "--dump", dump.plain.path,
                         "--repeat", "\(repeats)"] + (dev.map { ["--dev", $0] } ?? [])
        writeToStandardError("bench: \(name): taskset -c 0 python vader_peer.py\n")
        recorder.begin()
        let run = try ChildProcess.runMeasuringRSS(["taskset", "-c", "0", python] + arguments, stdout: output, stderr: log, environment: Self.single)
        guard run.status == 0, let data = FileManager.default.contents(atPath: output),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let seconds = json["seconds"] as? [Double] else {
            throw BenchError("\(name) failed (\(run.status)): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        record(name, json: json, peakRSS: run.peakRSSBytes,
               timings: Timings(seconds: seconds, cpuSeconds: json["cpu_seconds"] as? [Double]), how: nil)
    }

    private mutating func record(_ name: String, json: [String: Any], peakRSS: Int, timings: Timings, how: String?) {
        details[name] = json
        let tweets = json["tweets"] as? Int ?? dump.plainTweets
        let sampled = json["sampled"] as? Bool ?? false
        recorder.record(name, group: "peer", items: tweets, timings: timings, peakRSS: peakRSS,
                        note: ([json["method"] as? String ?? "", how].compactMap { $0 }.joined(separator: "; "))
                            + (sampled ? "; timed on a sample of \(tweets) tweets, tweets/s extrapolated" : "; the whole dump"))
    }
}
