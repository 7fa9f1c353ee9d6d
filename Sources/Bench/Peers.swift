import Foundation

/// Peers timed in the same run on the same dump (as utf8proc's bench/icu.c
/// times ICU): fastText and VADER from PyPI in `.venv-peers`, through
/// `scripts/peers/*.py`, each pinned to core 0 with `taskset -c 0`.
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

    mutating func run() throws {
        let scripts = root.appendingPathComponent("scripts/peers")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-peer-\(getpid()).out").path
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("bench-peer-\(getpid()).log").path
        defer { unlink(output); unlink(log) }

        writeToStandardError("bench: peers: scripts/peers/setup.sh (python venv, pip install fasttext-wheel vaderSentiment)\n")
        let setup = try ChildProcess.run(["bash", scripts.appendingPathComponent("setup.sh").path], stdout: output, stderr: log)
        guard setup.status == 0,
              let python = (try? String(contentsOfFile: output, encoding: .utf8))?.split(separator: "\n").last.map(String.init) else {
            throw BenchError("peers: setup.sh failed (\(setup.status)): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        let single = ["OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                      "PYTHONDONTWRITEBYTECODE": "1"]
        var jobs: [(name: String, arguments: [String])] = []
        if recorder.wants("peer/fastText") {
            jobs.append(("peer/fastText-1-core", [scripts.appendingPathComponent("fasttext_peer.py").path,
                                                  "--train", train, "--dump", dump.plain.path, "--repeat", "\(repeats)"]
                         + (dev.map { ["--dev", $0] } ?? [])))
        }
        if recorder.wants("peer/vader") {
            jobs.append(("peer/VADER-1-core", [scripts.appendingPathComponent("vader_peer.py").path,
                                               "--dump", dump.plain.path, "--repeat", "\(repeats)"]
                         + (dev.map { ["--dev", $0] } ?? [])))
        }
        for job in jobs {
            writeToStandardError("bench: \(job.name): taskset -c 0 python \(URL(fileURLWithPath: job.arguments[0]).lastPathComponent)\n")
            recorder.begin()
            let run = try ChildProcess.runMeasuringRSS(["taskset", "-c", "0", python] + job.arguments, stdout: output, stderr: log, environment: single)
            guard run.status == 0, let data = FileManager.default.contents(atPath: output),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let tweets = json["tweets"] as? Int, let seconds = json["seconds"] as? [Double] else {
                throw BenchError("\(job.name) failed (\(run.status)): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            details[job.name] = json
            let sampled = json["sampled"] as? Bool ?? false
            recorder.record(job.name, group: "peer", items: tweets,
                            timings: Timings(seconds: seconds, cpuSeconds: json["cpu_seconds"] as? [Double]),
                            peakRSS: run.peakRSSBytes,
                            note: (json["method"] as? String ?? "")
                                + (sampled ? "; timed on a sample of \(tweets) tweets, tweets/s extrapolated" : "; the whole dump"))
        }
    }
}
