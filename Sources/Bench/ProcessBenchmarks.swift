import Foundation

/// `sentiment classify` end to end: both dumps, one core and two, the 10×
/// memory check, and the time to the first result.
struct ProcessBenchmarks {
    let classify: ClassifyProcess
    let dump: Dump
    let repeats: Int
    let recorder: Recorder

    /// Every benchmark this runs (for the filters).
    static let names = ["process/plain-1-core", "process/plain-2-cores", "process/jsonl-1-core", "process/jsonl-2-cores",
                        "load/process-first-result", "memory/plain-10x-2-cores"]
    /// Those run under `taskset -c 0`.
    static let pinnedNames = ["process/plain-1-core", "process/jsonl-1-core"]

    /// Plain and JSONL dumps, `taskset -c 0 … --threads 1` and `--threads 2`,
    /// after one untimed run that brings the dump into the page cache.
    ///
    /// The one-core and two-core runs of a dump take turns (1, 2, 1, 2, …), so
    /// the other tenants' load on this shared machine weighs on both alike and
    /// the ratio of their medians is not the ratio of two quiet spells. A peer
    /// session given as `peer` takes its turn after each round of the plain
    /// dump's runs (1, 2, peer, 1, 2, peer, …); its timings are returned.
    @discardableResult
    func endToEnd(alongside peer: PeerSession? = nil) throws -> [(seconds: Double, cpuSeconds: Double)] {
        var peerRuns: [(seconds: Double, cpuSeconds: Double)] = []
        let forms = [("plain", dump.plain, dump.plainTweets, dump.plainBytes), ("jsonl", dump.jsonl, dump.jsonlTweets, dump.jsonlBytes)]
        let pairs = forms.map { form, input, tweets, bytes in
            [1, 2].map { Run(form: form, input: input, tweets: tweets, bytes: bytes, threads: $0) }
        }
        for pair in pairs {
            let runs = pair.filter { recorder.wants($0.name) }
            guard !runs.isEmpty else { continue }
            for run in runs {
                writeToStandardError("bench: \(run.name): \(classify.arguments(threads: run.threads, pinned: run.pinned).joined(separator: " ")) < \(run.input.lastPathComponent)\n")
            }
            recorder.begin()
            var measured = runs.map { _ in Measured() }
            // One untimed run first: the dump into the page cache. Without it
            // the first JSON Lines run read part of its 617 MB from disk and
            // ran at 120k-133k tweets/s against 300k+ in two README runs.
            if let first = runs.first { _ = try classify.run(input: first.input, tweets: first.tweets, threads: first.threads, pinned: first.pinned) }
            let turns = pair.first?.form == "plain" ? peer : nil
            if let turns { writeToStandardError("bench: \(turns.name) takes a turn after each round\n") }
            for _ in 0..<repeats {
                for (k, run) in runs.enumerated() {
                    let (child, line) = try classify.run(input: run.input, tweets: run.tweets, threads: run.threads, pinned: run.pinned)
                    measured[k].add(child, summary: line)
                }
                if let turns { peerRuns.append(try turns.time()) }
            }
            for (run, m) in zip(runs, measured) {
                recorder.record(run.name, group: "process", threads: run.threads, items: run.tweets, bytes: run.bytes,
                                timings: Timings(seconds: m.seconds, cpuSeconds: m.cpu), peakRSS: m.peak,
                                note: "stdout to /dev/null; runs interleaved with the other thread count's; \(m.summary)")
            }
        }
        return peerRuns
    }

    /// One `sentiment classify` configuration of `endToEnd`.
    private struct Run {
        /// "plain" or "jsonl".
        let form: String
        let input: URL
        let tweets: Int
        let bytes: Int
        let threads: Int

        /// "process/plain-1-core", "process/jsonl-2-cores" …
        var name: String { "process/\(form)-\(threads == 1 ? "1-core" : "\(threads)-cores")" }
        /// One worker runs on core 0 alone (`taskset -c 0`); more run on every core.
        var pinned: Bool { threads == 1 }
    }

    /// What the repeated runs of one configuration measured.
    private struct Measured {
        var seconds: [Double] = [], cpu: [Double] = [], peak = 0, summary = ""

        mutating func add(_ child: ChildRun, summary: String) {
            seconds.append(child.seconds)
            cpu.append(child.userSeconds + child.systemSeconds)
            peak = max(peak, child.peakRSSBytes)
            self.summary = summary
        }
    }

    /// Process start to the first output byte, one line on stdin (model load included).
    func firstResult() throws {
        guard recorder.wants("load/process-first-result") else { return }
        let arguments = [classify.executable, "classify", "--model", classify.model]
        recorder.begin()
        _ = try ChildProcess.timeToFirstOutput(arguments, input: Array("good morning :)\n".utf8))
        var seconds: [Double] = [], cpu: [Double] = []
        for _ in 0..<max(10, repeats) {
            let (first, child) = try ChildProcess.timeToFirstOutput(arguments, input: Array("good morning :)\n".utf8))
            seconds.append(first)
            cpu.append(child.userSeconds + child.systemSeconds)
        }
        recorder.record("load/process-first-result", group: "load", items: 1, unit: "starts",
                        timings: Timings(seconds: seconds, cpuSeconds: cpu),
                        note: "spawn to the first stdout byte, one line on stdin, page cache warm; CPU = the whole process")
    }

    /// The plain dump `factor` times over, `--threads 2`, once: is the peak RSS the same?
    func scale(corpus: Corpus, factor: Int, work: URL) throws {
        let name = "memory/plain-\(factor)x-2-cores"
        guard recorder.wants(name) else { return }
        let tweets = dump.plainTweets * factor
        let url = work.appendingPathComponent("plain-\(tweets)-scale.txt")
        writeToStandardError("bench: \(name): writing \(tweets) tweets to \(url.path) (removed after)\n")
        try Interruption.removing(url.path) {
            try DumpWriter.writePlain(corpus: corpus, tweets: tweets, to: url)
            recorder.begin()
            let (child, summary) = try classify.run(input: url, tweets: tweets, threads: 2, pinned: false)
            recorder.record(name, group: "memory", threads: 2, items: tweets, bytes: DumpWriter.fileSize(url),
                            timings: Timings(seconds: [child.seconds], cpuSeconds: [child.userSeconds + child.systemSeconds]),
                            peakRSS: child.peakRSSBytes, note: "one run; \(summary)")
        }
    }
}
