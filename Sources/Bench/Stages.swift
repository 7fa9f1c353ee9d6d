import CTokenizer
import Dispatch
import Foundation
import Sentiment

/// The in-process stages: the C tokenizer on its own, and the library's
/// `classify` on batches (the public API). Feature extraction and the real
/// scorers are internal to `Sentiment`; their share is derived here (classify
/// minus tokenizer) and their kernels are replicated in `ScoringKernels`.
struct Stages {
    let model: SentimentModel
    let dump: LoadedDump
    let plan: TimingPlan
    let recorder: Recorder

    // MARK: Tokenizer

    /// `ctk_tokenize` over every text with the model's options and seed, with
    /// reused caller-owned buffers (as `TokenBuffer` does).
    func tokenizer() {
        let options = model.manifest.features.tokenizerOptions
        let seed = model.manifest.features.hashSeed
        for (name, texts) in [("tokenizer/all", dump.texts), ("tokenizer/ascii", dump.ascii), ("tokenizer/non-ascii", dump.nonASCII)] {
            guard runs(name), !texts.isEmpty else { continue }
            let tokenizer = ReusedTokenizer()
            var tokens = 0
            let timings = plan.measure { tokens = tokenizer.tokenizeAll(texts, options: options, seed: seed) }
            recorder.record(name, group: "tokenizer", items: texts.count, bytes: LoadedDump.byteCount(texts), timings: timings,
                            note: "ctk_tokenize, \(String(format: "%.1f", Double(tokens) / Double(texts.count))) tokens/tweet; "
                                + "\(String(format: "%.1f", 100 * Double(texts.count) / Double(dump.texts.count)))% of the tweets")
        }
    }

    // MARK: Library classify

    /// Two threads, each classifying half the sample with its workspace.
    private func classifyInHalves(_ name: String, workspaces: (SentimentModel.Workspace, SentimentModel.Workspace), note: String) {
        let texts = dump.texts
        let jobs = Unchecked([(texts: Array(texts[..<(texts.count / 2)]), workspace: workspaces.0),
                              (texts: Array(texts[(texts.count / 2)...]), workspace: workspaces.1)])
        let model = self.model
        let timings = plan.measure {
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                blackHole(model.classify(utf8: jobs.value[i].texts, workspace: jobs.value[i].workspace))
            }
        }
        recorder.record(name, group: "classify", threads: 2, items: texts.count, bytes: LoadedDump.byteCount(texts),
                        timings: timings, note: note)
    }

    /// `classify(utf8:workspace:)` of the whole sample, one thread, the default batch.
    func classify() {
        let texts = dump.texts
        let bytes = LoadedDump.byteCount(texts)
        if runs("classify/utf8") {
            let workspace = model.makeWorkspace()
            let timings = plan.measure { blackHole(model.classify(utf8: texts, workspace: workspace)) }
            recorder.record("classify/utf8", group: "classify", items: texts.count, bytes: bytes, timings: timings,
                            note: "SentimentModel.classify(utf8:workspace:), batch \(workspace.batchCapacity), one thread")
        }
        if recorder.wants("classify/utf8-2-threads") {
            // Each thread owns its workspace and token cache: nothing is shared but the model.
            classifyInHalves("classify/utf8-2-threads", workspaces: (model.makeWorkspace(), model.makeWorkspace()),
                             note: "two threads, a workspace each, half the sample each")
        }
        if recorder.wants("classify/utf8-2-threads-shared") {
            // The two workspaces share one token table, as the command line's workers do
            // (theirs is 12 MiB, ClassifyPipeline.tokenTableBits 18, since 860be8f; this
            // row has kept 6 MiB, so its figures compare with its earlier runs).
            let table = model.makeTokenTable(bits: 17)
            classifyInHalves("classify/utf8-2-threads-shared",
                             workspaces: (model.makeWorkspace(sharing: table), model.makeWorkspace(sharing: table)),
                             note: "two threads sharing one token table (6 MiB), half the sample each")
        }
        if recorder.wants("classify/strings") {
            let strings = texts.map { String(decoding: $0, as: UTF8.self) }
            let timings = plan.measure { blackHole(model.classify(strings)) }
            recorder.record("classify/strings", group: "classify", items: texts.count, bytes: bytes, timings: timings,
                            note: "SentimentModel.classify([String]), one thread")
        }
        if recorder.wants("classify/strings-1") {
            let strings = texts.map { String(decoding: $0, as: UTF8.self) }
            let timings = plan.measure {
                for text in strings { blackHole(model.classify(text)) }
            }
            recorder.record("classify/strings-1", group: "classify", items: texts.count, bytes: bytes, timings: timings,
                            note: "SentimentModel.classify(String), one text a call, as a one-tweet HTTP request makes it")
        }
        if recorder.wants("classify/strings-100") {
            let strings = texts.map { String(decoding: $0, as: UTF8.self) }
            let timings = plan.measure {
                for start in stride(from: 0, to: strings.count, by: 100) {
                    blackHole(model.classify(Array(strings[start..<min(start + 100, strings.count)])))
                }
            }
            recorder.record("classify/strings-100", group: "classify", items: texts.count, bytes: bytes, timings: timings,
                            note: "SentimentModel.classify([String]) in calls of 100 texts, as HTTP requests make them")
        }
        if recorder.wants("classify/async-sequence") {
            let strings = ArrayAsyncSequence(elements: texts.map { String(decoding: $0, as: UTF8.self) })
            let model = self.model
            let timings = plan.measure {
                // Bench runs on the main thread, not the tasks' pool: waiting here blocks no task.
                let done = DispatchSemaphore(value: 0)
                Task {
                    do {
                        for try await prediction in model.predictions(for: strings) { blackHole(prediction) }
                    } catch {
                        preconditionFailure("an array of texts does not fail: \(error)")
                    }
                    done.signal()
                }
                done.wait()
            }
            recorder.record("classify/async-sequence", group: "classify", items: texts.count, bytes: bytes, timings: timings,
                            note: "SentimentModel.predictions(for:) of an AsyncSequence of String, one prediction at a time")
        }
    }

    /// `classify(utf8:workspace:)` with workspaces of batch capacity 1 to 4096:
    /// the cost of one `cblas_sgemm` call per batch, amortized or not.
    func classifyBatchSizes() {
        let texts = Array(dump.texts.prefix(50_000))
        for batch in [1, 16, 64, 256, 1024, 4096] {
            let name = "classify/batch-\(batch)"
            guard recorder.wants(name) else { continue }
            let workspace = SentimentModel.Workspace(batchCapacity: batch)
            let timings = plan.measure { blackHole(model.classify(utf8: texts, workspace: workspace)) }
            recorder.record(name, group: "classify-batch", items: texts.count, bytes: LoadedDump.byteCount(texts),
                            timings: timings, note: "Workspace(batchCapacity: \(batch))")
        }
    }

    /// The derived row, and the rows it is computed from.
    static let derivedName = "features+scoring (derived)"
    static let derivedFrom = ["classify/utf8", "tokenizer/all"]

    /// Whether the benchmark `name` runs: the filters want it, or the derived
    /// row is wanted and is computed from it (unless `--skip` names it).
    private func runs(_ name: String) -> Bool {
        recorder.wants(name) || (Self.derivedFrom.contains(name) && Recorder.selects(name, filters: [], skips: recorder.skips)
                                 && recorder.wants(Self.derivedName))
    }

    /// The library's work beyond tokenizing (features, sparse gather, language test,
    /// dense sgemm, softmax, results), per tweet: classify minus tokenizer.
    func derivedFeatures() {
        guard recorder.wants(Self.derivedName), let classify = recorder.result("classify/utf8"),
              let tokenize = recorder.result("tokenizer/all") else { return }
        let perTweet = classify.timings.median / Double(classify.items) - tokenize.timings.median / Double(tokenize.items)
        guard perTweet > 0 else {
            // Too few tweets, or a noisy host: a negative time is no figure.
            writeToStandardError("bench: \(Self.derivedName) not recorded: classify/utf8 took no longer a tweet than tokenizer/all "
                                 + "in this run (too few tweets or too noisy a host to tell them apart)\n")
            return
        }
        recorder.recordDerived(Self.derivedName, group: "features", items: classify.items,
                               secondsPerItem: perTweet,
                               note: "classify/utf8 minus tokenizer/all (medians): feature hashing, sparse gather, "
                                   + "language test, dense sgemm, softmax and the result array")
    }

    // MARK: Sizes

    /// Tokens and sparse features per tweet, counted as `FeatureExtractor` makes them.
    func featureCounts(sample: Int = 20_000) -> [Int] {
        let settings = model.manifest.features
        let tokenizer = ReusedTokenizer()
        return dump.texts.prefix(sample).map { text in
            tokenizer.tokenize(text, options: settings.tokenizerOptions, seed: settings.hashSeed)
            return tokenizer.sparseFeatureCount(settings)
        }
    }
}

/// A value handed to other threads under the caller's guarantee that they
/// use it without data races (here: each thread touches its own element).
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// `ctk_tokenize` with caller-owned buffers grown on demand and reused.
final class ReusedTokenizer {
    private var tokens: UnsafeMutablePointer<ctk_token>
    private var tokenCapacity = 1024
    private var text: UnsafeMutablePointer<CChar>
    private var textCapacity = 8192
    private var stats = ctk_stats()

    init() {
        tokens = .allocate(capacity: tokenCapacity)
        text = .allocate(capacity: textCapacity)
    }

    deinit {
        tokens.deallocate()
        text.deallocate()
    }

    /// Tokenizes every text; returns the total number of tokens.
    func tokenizeAll(_ texts: [UnsafeRawBufferPointer], options: UInt32, seed: UInt64) -> Int {
        var total = 0
        for bytes in texts { total += tokenize(bytes, options: options, seed: seed) }
        return total
    }

    @inline(__always) @discardableResult
    func tokenize(_ bytes: UnsafeRawBufferPointer, options: UInt32, seed: UInt64) -> Int {
        while true {
            let result = ctk_tokenize(bytes.baseAddress, bytes.count, options, seed, tokens, tokenCapacity, text, textCapacity, &stats)
            if result == CTK_OK { return stats.token_count }
            guard result == CTK_ERROR_NOSPACE else { return 0 }
            if stats.token_count > tokenCapacity {
                tokens.deallocate()
                tokenCapacity = max(stats.token_count, 2 * tokenCapacity)
                tokens = .allocate(capacity: tokenCapacity)
            }
            if stats.text_length > textCapacity {
                text.deallocate()
                textCapacity = max(stats.text_length, 2 * textCapacity)
                text = .allocate(capacity: textCapacity)
            }
        }
    }

    /// The length of the sparse row `FeatureExtractor` builds from the last tokens:
    /// word unigrams, hashtags, word n-grams, and byte n-grams of "<word>".
    func sparseFeatureCount(_ settings: FeatureSettings) -> Int {
        let count = stats.token_count
        var features = count
        if settings.wordNgrams >= 2 { features += max(0, count - 1) }
        if settings.wordNgrams >= 3 { features += max(0, count - 2) }
        for i in 0..<count {
            let token = tokens[i]
            if token.kind == UInt16(CTK_HASHTAG.rawValue) { features += 1 }
            if settings.charNgramMax > 0, token.kind == UInt16(CTK_WORD.rawValue) {
                let length = Int(token.text_length) + 2
                for n in settings.charNgramMin...settings.charNgramMax where length >= n { features += length - n + 1 }
            }
        }
        return features
    }
}
