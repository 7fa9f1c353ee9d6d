import ArgumentParser
import Foundation
import Sentiment

/// `Bench`: the throughput of every stage and of `sentiment classify` end to
/// end, and of the peers on the same dump in the same run.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "Bench",
        abstract: "Measure swift-sentiment's throughput, stage by stage and end to end, against peers in the same run.",
        discussion: """
            Builds a dump of N tweets (the shared SemEval texts, cycled, or \
            --input) as plain text and as v1.1 JSON Lines, then times each \
            benchmark after a warm-up: median, slowest-fastest spread, CPU time, \
            and the machine's load before and after.

              tokenizer/...     ctk_tokenize: all, ASCII-only, non-ASCII tweets
              classify/...      library classify(utf8:): 1, 2 threads, batch
                                1...4096; classify([String]), classify(String)
              features+scoring  classify minus tokenizer (derived; runs both)
              scoring/...       kernels in the library's shapes: cblas_sgemm
                                vs direct loops (plain, and fused in sgemm's
                                order), sparse gather, reference
              load/...          model load; process start to first result
              process/...       `sentiment classify` on both dumps, 1 core
                                (taskset -c 0) and 2 cores, with peak RSS
              memory/...        the same on a 10x dump: is the peak flat?
              peer/...          --peers: fastText and VADER on core 0;
                                fastText takes turns with process/plain

            Writes --json and --svg; prints a table and the issue's goals.
            Build both products in release first:
              swift build -c release --static-swift-stdlib --product sentiment
              swift build -c release --static-swift-stdlib --product Bench
            (`make bench` / `make bench-peers` do both, then run Bench.)
            """)

    @Option(help: "Tweets in the plain dump.")
    var tweets = 1_000_000

    @Option(help: "Tweets in the v1.1 JSON Lines dump (a few KB each; default min(--tweets, 200000)).")
    var jsonlTweets: Int?

    @Option(help: "Tweets of the dump the in-process stages run over.")
    var stageTweets = 200_000

    @Option(help: "Texts to build the dumps from: a TSV with a `text` column, or one text per line (default: ../shared/data/semeval/train.tsv).")
    var input: String?

    @Option(help: "The model directory (default: $SENTIMENT_MODEL, then Models/default).")
    var model: String?

    @Option(help: "The sentiment binary (default: the one beside Bench).")
    var sentiment: String?

    @Option(help: "Only benchmarks whose name contains this (repeatable).")
    var filter: [String] = []

    @Option(help: "Leave out benchmarks whose name contains this (repeatable).")
    var skip: [String] = []

    @Option(name: .customLong("repeat"), help: "Timed runs of each in-process stage (after one warm-up).")
    var repeats = 5

    /// Five, not three: on a shared two-core host one slow run in three moved
    /// the median, the two-core one most (it needs both cores free at once).
    @Option(help: "Timed runs of each `sentiment classify` process and peer (the median is reported).")
    var processRepeat = 5

    @Flag(help: "Also time the peers (fastText, VADER) on the same dump: makes .venv-peers, trains fastText.")
    var peers = false

    @Flag(inversion: .prefixedNo, help: "Run `sentiment classify` on a 10× plain dump for the memory check.")
    var scale = true

    @Option(help: "Where the JSON results go.")
    var json = "bench-results/bench.json"

    @Option(help: "Where the SVG chart goes (default: beside --json, bench.svg).")
    var svg: String?

    @Option(help: "Where the dumps are written and kept between runs (default: $TMPDIR/swift-sentiment-bench).")
    var workDir: String?

    func validate() throws {
        guard tweets > 0, stageTweets > 0, repeats > 0, processRepeat > 0, (jsonlTweets ?? 1) > 0 else {
            throw ValidationError("--tweets, --stage-tweets, --jsonl-tweets, --repeat and --process-repeat must be positive.")
        }
    }

    func run() throws {
        // A child (a peer, `sentiment classify`) that dies leaves a pipe with no
        // reader: the write must fail with EPIPE and be reported with the
        // child's log, not end Bench by a signal with nothing said.
        signal(SIGPIPE, SIG_IGN)
        Interruption.install()
        BuildBanner.printIfDebug()
        var machine = Machine.current()
        let root = Peers.repositoryRoot() ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let shared = root.deletingLastPathComponent().appendingPathComponent("shared/data/semeval")
        let source = input ?? shared.appendingPathComponent("train.tsv").path
        // Checked before any work: these stopped the run only once the dumps were written and the stages had run.
        let selected = { (name: String) in Recorder.selects(name, filters: filter, skips: skip) }
        let runsProcesses = ProcessBenchmarks.names.contains(where: selected)
        let sentimentBinary = try runsProcesses ? ClassifyProcess.locate(sentiment) : nil
        if runsProcesses || peers {
            try ChildProcess.requireTools(taskset: peers || ProcessBenchmarks.pinnedNames.contains(where: selected))
        }
        if peers && Peers.repositoryRoot() == nil {
            throw BenchError("--peers: no scripts/peers/setup.sh above the working directory or Bench's folder: "
                + "run Bench from the repository, where the peers' scripts are")
        }
        // Checked before any work: a missing file stopped the run only once the peers started, in a Python traceback.
        if peers {
            for file in ["train.tsv", "dev.tsv"] {
                do {
                    try requireReadable(shared.appendingPathComponent(file).path)
                } catch let error as BenchError {
                    throw BenchError("--peers: \(error); the peers are trained on the shared SemEval train.tsv and scored on its dev.tsv, "
                        + "in ../shared/data/semeval beside the repository: put them there or leave out --peers")
                }
            }
        }

        let loaded: SentimentModel
        do {
            loaded = try model.map { try SentimentModel.load(from: URL(fileURLWithPath: $0)) } ?? SentimentModel.loadDefault()
        } catch {
            throw BenchError("cannot load the model: \(error) (make one: sentiment train … --out DIR, then SENTIMENT_MODEL=DIR)")
        }
        guard let modelDirectory = loaded.directory?.path else { throw BenchError("the model has no directory") }

        let svgPath = svg ?? URL(fileURLWithPath: json).deletingLastPathComponent().appendingPathComponent("bench.svg").path
        try requireWritable(json, option: "--json")
        try requireWritable(svgPath, option: "--svg")
        let work = URL(fileURLWithPath: workDir ?? FileManager.default.temporaryDirectory.appendingPathComponent("swift-sentiment-bench").path)
        try requireFolder(work.path, option: "--work-dir")
        if runsProcesses || peers { try requireTemporaryFolder() }

        let corpus: Corpus
        do {
            corpus = try Corpus.load(source)
        } catch let error as BenchError where input == nil {
            throw BenchError("the texts to build the dumps from, by default the shared SemEval train.tsv beside the repository: "
                + "\(error); give a file with --input")
        }
        let dump = try DumpWriter.make(corpus: corpus, tweets: tweets, jsonlTweets: jsonlTweets ?? min(tweets, 200_000), in: work)
        print("""
            Bench (\(BuildBanner.configuration) build) on \(machine.cpu), \(machine.cores) cores, load \(String(format: "%.2f", machine.loadAtStart))
            model \(loaded.id) at \(modelDirectory) (2^\(loaded.manifest.features.bucketBits) buckets)
            plain dump: \(dump.plainTweets) tweets, \(String(format: "%.1f", Double(dump.plainBytes) / 1e6)) MB · \
            v1.1 JSONL dump: \(dump.jsonlTweets) tweets, \(String(format: "%.1f", Double(dump.jsonlBytes) / 1e6)) MB \
            (\(dump.jsonlBytes / max(1, dump.jsonlTweets)) bytes/tweet) · from \(corpus.source) (\(corpus.texts.count) texts)

            """)

        let recorder = Recorder(filters: filter, skips: skip)
        let plan = TimingPlan(warmups: 1, repeats: repeats)

        // In-process stages.
        let sample = try LoadedDump(dump.plain, limit: stageTweets)
        let stages = Stages(model: loaded, dump: sample, plan: plan, recorder: recorder)
        stages.tokenizer()
        stages.classify()
        stages.derivedFeatures()
        stages.classifyBatchSizes()
        let featureCounts = stages.featureCounts()
        ScoringKernels(bucketBits: loaded.manifest.features.bucketBits, featureCounts: featureCounts,
                       plan: plan, recorder: recorder).run()
        if recorder.wants("load/library") {
            let url = URL(fileURLWithPath: modelDirectory)
            let timings = try TimingPlan(warmups: 1, repeats: repeats).measure { blackHole(try SentimentModel.load(from: url)) }
            recorder.record("load/library", group: "load", items: 1, unit: "loads", timings: timings,
                            note: "SentimentModel.load(from:) in process (page cache warm)")
        }

        // Peers: fastText is trained first and then takes turns with the plain dump's process runs.
        var runner: Peers?
        var fastText: PeerSession?
        if peers {
            runner = Peers(root: root, train: shared.appendingPathComponent("train.tsv").path,
                           dev: shared.appendingPathComponent("dev.tsv").path, dump: dump,
                           repeats: processRepeat, recorder: recorder)
            try runner?.setUp()
            fastText = try runner?.startFastText()
        }

        // End to end.
        var fastTextRuns: [(seconds: Double, cpuSeconds: Double)] = []
        if ProcessBenchmarks.names.contains(where: recorder.wants), let sentimentBinary {
            let classify = ClassifyProcess(executable: sentimentBinary, model: modelDirectory)
            let processes = ProcessBenchmarks(classify: classify, dump: dump, repeats: processRepeat, recorder: recorder)
            fastTextRuns = try processes.endToEnd(alongside: fastText)
            try processes.firstResult()
            if scale {
                try processes.scale(corpus: corpus, factor: 10, work: work)
            }
        }

        var peerDetails: [String: JSONValue] = [:]
        if var runner {
            try runner.run(fastText: fastText, runs: fastTextRuns)
            peerDetails = runner.details.mapValues(JSONValue.init)
        }

        if !recorder.unmatchedFilters.isEmpty {
            let names = recorder.unmatchedFilters.map { "--filter \($0)" }.joined(separator: ", ")
            let hint = peers ? "" : " (peer/… runs only with --peers)"
            guard !recorder.results.isEmpty else {
                throw BenchError("no benchmark's name contains \(names)\(hint); names look like tokenizer/all, "
                    + "classify/utf8, classify/batch-64, scoring/dense-sgemm-256, load/library, process/plain-1-core, memory/plain-10x-2-cores")
            }
            writeToStandardError("Bench: no benchmark's name contains \(names)\(hint)\n")
        }

        let (goals, ratios) = Goals.check(recorder, plainTweets: dump.plainTweets)
        Goals.print(goals, ratios: ratios)
        machine.loadAtEnd = loadAverage()

        let mean = featureCounts.isEmpty ? 0 : Double(featureCounts.reduce(0, +)) / Double(featureCounts.count)
        let report = Report(
            date: ISO8601DateFormatter().string(from: Date()),
            command: CommandLine.arguments.joined(separator: " "),
            build: BuildBanner.configuration, blas: ScoringKernels.blasName, machine: machine,
            model: ["id": loaded.id, "directory": modelDirectory, "bucketBits": "\(loaded.manifest.features.bucketBits)",
                    "sparseFeaturesPerTweet": String(format: "%.1f", mean)],
            dump: ["source": corpus.source, "plainTweets": "\(dump.plainTweets)", "plainBytes": "\(dump.plainBytes)",
                   "jsonlTweets": "\(dump.jsonlTweets)", "jsonlBytes": "\(dump.jsonlBytes)",
                   "stageTweets": "\(sample.texts.count)", "asciiShare": String(format: "%.3f", Double(sample.ascii.count) / Double(max(1, sample.texts.count)))],
            timing: ["warmups": plan.warmups, "repeats": repeats, "processRepeats": processRepeat],
            results: recorder.results, peers: peerDetails, ratios: ratios, goals: goals)
        try report.write(to: json)
        let subtitle = "\(machine.cpu), \(machine.cores) cores shared (load \(String(format: "%.1f", machine.loadAtStart))→\(String(format: "%.1f", machine.loadAtEnd ?? 0))), "
            + "\(dump.plainTweets) tweets, \(report.date.prefix(10))"
        try writeFile(Data(Chart.svg(recorder, plainTweets: dump.plainTweets, title: "swift-sentiment throughput (Bench, \(BuildBanner.configuration))",
                                     subtitle: subtitle).utf8), to: svgPath, option: "--svg")
        print("\nwrote \(json) and \(svgPath)")
        BuildBanner.printIfDebug()
    }
}
