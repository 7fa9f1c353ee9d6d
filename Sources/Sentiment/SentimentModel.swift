import CTokenizer
import Crypto
import Foundation

/// A trained sentiment model for English tweets: three classes (negative,
/// neutral, positive) with probabilities.
///
/// The model is an immutable `Sendable` value: load it once and share it with
/// any number of tasks and threads. Its predictions never change; what it
/// keeps is a cache: `classify(_:)` and `predictions(for:)` share one token
/// table per model (6 MiB, made at the first call, lock-free), so that each
/// call finds the words that earlier calls, on any thread, have met.
///
/// ```swift
/// import Sentiment
///
/// let model = try SentimentModel.loadDefault()
/// for prediction in model.classify(["I love this!!! 😍", "worst day ever :("]) {
///     print(prediction.label, prediction.score)
/// }
/// ```
///
/// The model is fitted to tweets. Its dense features (the summed word
/// polarities, the token count, …) are held to the range they took over the
/// training tweets (`ModelManifest.denseRange`), and a text of more than
/// `TextSegments.wholeLimit` bytes is read in tweet-sized segments whose
/// scores are averaged, each weighted by its length, so a long text is not
/// made sure by its length alone (read whole, 4.6 KB of forty unrelated
/// tweets scored p(positive) 0.95). A segment is still up to 280 bytes:
/// within one, words that say the same thing add up.
///
/// Scoring: texts are tokenized by the C tokenizer, turned into hashed word and
/// character n-grams plus a small dense block, and scored by a multinomial
/// logistic regression whose dense part runs through BLAS (`cblas_sgemm`) one
/// batch at a time (see `BLASScorer`).
///
/// With OpenBLAS, making a model (loading, or training with `Trainer`) sets
/// OpenBLAS to one thread for the whole process (`openblas_set_num_threads(1)`):
/// callers parallelize across batches, and OpenBLAS's own threads would fight
/// them for the cores. An application with large BLAS work of its own can set
/// the count it wants after the model is made (the setting is OpenBLAS's, for
/// every caller in the process).
public struct SentimentModel: Sendable {
    /// The manifest the model was loaded from.
    public let manifest: ModelManifest
    /// The directory the model was loaded from (nil for models built in memory).
    public let directory: URL?
    /// The names of the files a model directory may hold: the manifest, the
    /// weights and the letter model. Anything else in it is not read.
    public static let fileNames = [ModelDirectory.manifestName, ModelDirectory.weightsName, LetterModel.fileName]
    let weights: ModelWeights
    let scoring: ScoringWeights
    let extractor: FeatureExtractor
    let decision: Decision
    let languageDetector: LanguageDetector
    let fused: FusedScorer
    /// The token table of `classify(_:)` and `predictions(for:)` (6 MiB,
    /// made at the first call; lock-free, shared by every thread and copy).
    let callTable = CallTokenTable()

    /// A stable identifier of what the model predicts: `name@version+sha8`,
    /// where `sha8` is the first 8 hex digits of the SHA-256 of the weights'
    /// checksum, the feature settings and the decision rule. Anything that
    /// can change a prediction changes the id, so use it to key cached
    /// classifications.
    public let id: String

    init(manifest: ModelManifest, weights: ModelWeights, letters: LetterModel? = nil, directory: URL?) {
        _ = BLASScorer.singleThreaded
        self.manifest = manifest
        self.directory = directory
        self.weights = weights
        self.scoring = ScoringWeights(weights)
        self.extractor = FeatureExtractor(settings: manifest.features, lexicon: weights.lexicon, denseRange: manifest.denseRange)
        self.decision = Decision(manifest.decision)
        self.languageDetector = LanguageDetector(seed: manifest.features.hashSeed, letters: letters)
        self.fused = FusedScorer(extractor: extractor, scoring: scoring, languageDetector: languageDetector)
        self.id = "\(manifest.name)@\(manifest.version)+\(Self.fingerprint(manifest).prefix(8))"
    }

    /// The SHA-256 (hex) of everything in a manifest that decides predictions.
    ///
    /// - Parameters:
    ///   - emojiFacesRevision: the tokenizer's emoji-faces table revision
    ///     (`CTK_EMOJI_FACES_REVISION`), part of the id of a model that reads
    ///     emoji as emoticons.
    ///   - languageRevision: the language test's revision
    ///     (`LanguageDetector.revision`), part of every model's id.
    ///   - tokenizerRevision: the tokenizer's revision
    ///     (`CTK_TOKENIZER_REVISION`), part of every model's id.
    static func fingerprint(_ manifest: ModelManifest, emojiFacesRevision: Int = Int(CTK_EMOJI_FACES_REVISION),
                            languageRevision: Int = LanguageDetector.revision,
                            tokenizerRevision: Int = Int(CTK_TOKENIZER_REVISION)) -> String {
        let f = manifest.features, d = manifest.decision
        let parts: [String] = [
            manifest.weights.sha256.lowercased(),
            // `contrastWords` only when on, so the ids of models from before it stay as they were.
            "\(f.bucketBits) \(f.hashSeed) \(f.wordNgrams) \(f.charNgramMin) \(f.charNgramMax) \(f.charGroupWeight.bitPattern) \(f.negatedCharNgrams) \(f.tokenizerOptions)"
                + (f.contrastWords ? " contrastWords" : ""),
            "\(manifest.lexiconBits)",
            "\(d.temperature.bitPattern) " + d.classOffsets.map { "\($0.bitPattern)" }.joined(separator: " "),
        ]
        // The dense range only when recorded, so the ids of models from before it stay as they were.
        + (manifest.denseRange.map { range in
            ["denseRange " + (range.min + range.max).map { "\($0.bitPattern)" }.joined(separator: " ")]
        } ?? [])
        // The letter model of the language test, when the model has one.
        + (manifest.letters.map { ["letters " + $0.sha256.lowercased()] } ?? [])
        // A format 1 model's Float weights are quantized as they load: it no
        // longer predicts what the builds that wrote it did.
        + (manifest.formatVersion == 1 ? ["sparse weights quantized to 16 bits"] : [])
        // The emoji-faces table's revision, for a model that reads emoji as
        // emoticons: a face read anew changes its predictions. The first
        // table (revision 1) adds nothing, so the ids from before it stay.
        + (f.tokenizerOptions & UInt32(CTK_OPT_EMOJI_FACES) != 0 && emojiFacesRevision > 1
            ? ["emoji faces revision \(emojiFacesRevision)"] : [])
        // The language test's revision: a verdict made anew changes what a
        // prediction's `language` says. Revision 1 adds nothing, so the ids
        // from before it stay.
        + (languageRevision > 1 ? ["language test revision \(languageRevision)"] : [])
        // The tokenizer's revision: a text read as other tokens is scored
        // anew. Revision 1 adds nothing, so the ids from before it stay.
        + (tokenizerRevision > 1 ? ["tokenizer revision \(tokenizerRevision)"] : [])
        return SHA256.hash(data: Data(parts.joined(separator: "\n").utf8)).map { String(format: "%02x", $0) }.joined()
    }

    // MARK: - Classifying

    /// Classifies one text.
    ///
    /// - Complexity: O(length of the text).
    public func classify(_ text: String) -> Prediction {
        classify([text])[0]
    }

    /// Classifies a batch of any size: one prediction per text, in order.
    ///
    /// Runs on the calling thread; for many texts across cores, split the batch
    /// and give each task its own `Workspace` (see `classify(utf8:workspace:)`).
    ///
    /// Not cancellable: called from a task that is cancelled, it still
    /// classifies every text. Work that should stop when its task is cancelled
    /// can classify in smaller batches and check `Task.isCancelled` between
    /// them, or use `predictions(for:)`, which stops at cancellation.
    public func classify(_ texts: [String]) -> [Prediction] {
        // Every call shares the model's token table: calls of a hundred
        // tweets, each with a cache of its own, ran 524k tweets/s; sharing
        // one, 887k–900k (Docs/performance.md).
        let workspace = makeWorkspace(sharing: sharedCallTable, batchCapacity: min(256, max(1, texts.count)))
        workspace.cache.serve(fused.identity)
        var results = [Prediction]()
        results.reserveCapacity(texts.count)
        var start = 0
        while start < texts.count {
            let end = min(start + workspace.batchCapacity, texts.count)
            for (row, i) in (start..<end).enumerated() {
                var text = texts[i]
                text.withUTF8 { featurize(UnsafeRawBufferPointer($0), row: row, workspace: workspace) }
            }
            finishBatch(rows: end - start, workspace: workspace, into: &results)
            start = end
        }
        return results
    }

    /// The table `classify(_:)` and `predictions(for:)` share, made at the first call.
    var sharedCallTable: TokenTable {
        callTable.get { makeTokenTable() }
    }

    /// Scratch space for one thread of `classify(utf8:workspace:)`, with a
    /// token cache of 2^cacheBits × 48 bytes (see `Workspace.init`).
    ///
    /// - Precondition: `cacheBits` is 1 to 24.
    public func makeWorkspace(cacheBits: Int = Workspace.defaultCacheBits) -> Workspace {
        Workspace(cacheBits: cacheBits)
    }

    /// A token cache of 2^bits × 48 bytes (the default, 17, is 6 MiB and
    /// holds 98,304 tokens) for the workspaces of several threads to share
    /// (see `makeWorkspace(sharing:)` and `TokenTable`).
    ///
    /// - Precondition: `bits` is 1 to 24.
    public func makeTokenTable(bits: Int = 17) -> TokenTable {
        TokenTable(bits: bits, sharedBy: fused.identity)
    }

    /// Scratch space for one thread whose token cache is `table`, which the
    /// workspaces of other threads may share: each of them sees every word
    /// any of them has met, for the memory of one cache. On a two-core
    /// machine, two workers sharing one table of 6 MiB classified a large
    /// dump faster than two with 3 MiB each (Docs/performance.md).
    ///
    /// - Precondition: `table` was made by this model (`makeTokenTable`), and
    ///   `batchCapacity` is 1 to `Workspace.maximumBatchCapacity`.
    public func makeWorkspace(sharing table: TokenTable, batchCapacity: Int = 256) -> Workspace {
        table.serve(fused.identity)   // stops here if another model made the table
        return Workspace(batchCapacity: batchCapacity, table: table)
    }

    /// Classifies raw UTF-8 byte ranges, one prediction per range, in order.
    /// Any bytes are accepted: invalid UTF-8 is read as U+FFFD, so a range
    /// gets the prediction `classify(_:)` gives the `String` it decodes to.
    ///
    /// The fast path for services and the command line: nothing is copied into
    /// `String`s, and a warm `workspace` allocates nothing but the result array
    /// (except for a text of more than 186 bytes with invalid UTF-8, which is
    /// repaired into a `String` first: its length decides how it is read).
    ///
    /// Not cancellable, as `classify(_:)` is not: called from a task that is
    /// cancelled, it still classifies every range. Work that should stop when
    /// its task is cancelled can pass the ranges in smaller calls and check
    /// `Task.isCancelled` between them (calls of a multiple of
    /// `workspace.batchCapacity` ranges are scored in the same batches as one
    /// call of them all).
    ///
    /// - Parameters:
    ///   - texts: the texts; the memory must stay valid for the call.
    ///   - workspace: this thread's scratch space.
    /// - Precondition: `workspace` does not share another model's token table
    ///   (`makeWorkspace(sharing:)`); a workspace with a cache of its own may
    ///   be used with any model.
    public func classify(utf8 texts: [UnsafeRawBufferPointer], workspace: Workspace) -> [Prediction] {
        workspace.cache.serve(fused.identity)   // once a call: its token cache holds this model's entries
        var results = [Prediction]()
        results.reserveCapacity(texts.count)
        var start = 0
        while start < texts.count {
            let end = min(start + workspace.batchCapacity, texts.count)
            for i in start..<end { featurize(texts[i], row: i - start, workspace: workspace) }
            finishBatch(rows: end - start, workspace: workspace, into: &results)
            start = end
        }
        return results
    }

    /// Classifies the texts of an asynchronous sequence as they arrive, one
    /// prediction per text, in order. The iteration throws `CancellationError`
    /// when its task is cancelled, the texts the base still holds unread
    /// (see `PredictionSequence`).
    ///
    /// ```swift
    /// for try await prediction in model.predictions(for: lines) { … }
    /// ```
    public func predictions<Base: AsyncSequence>(for texts: Base) -> PredictionSequence<Base> where Base.Element == String {
        PredictionSequence(model: self, base: texts)
    }

    // MARK: - The batch pipeline

    /// Tokenizes one text and writes its features into row `row` of the batch:
    /// the sparse scores (plus biases) and the raw dense values, through the
    /// workspace's token cache (see `FusedScorer`), which the caller has made
    /// serve this model (`TokenCache.serve`).
    @inline(__always)
    func featurize(_ bytes: UnsafeRawBufferPointer, row: Int, workspace: Workspace) {
        // Invalid UTF-8 becomes U+FFFD, three bytes for each bad sequence, so
        // a text of more than a third of the limit may be long once repaired.
        if bytes.count > TextSegments.wholeLimit / 3 {
            featurizeLong(bytes, row: row, workspace: workspace)
            return
        }
        workspace.tokens.tokenize(bytes, options: manifest.features.tokenizerOptions, seed: manifest.features.hashSeed)
        scoreWhole(bytes, row: row, workspace: workspace)
    }

    /// The scores and language of a text read whole, from its tokens in the workspace.
    @inline(__always)
    private func scoreWhole(_ bytes: UnsafeRawBufferPointer, row: Int, workspace: Workspace) {
        let language = fused.score(workspace.tokens, cache: workspace.cache,
                                   logits: workspace.logits + 3 * row,
                                   dense: workspace.dense + row * DenseFeature.count)
        workspace.languages[row] = languageDetector.sparingNames(language, buffer: workspace.tokens, source: bytes)
    }

    /// `featurize` for a text that may be long: read as its repaired UTF-8
    /// when it holds invalid sequences (so its length, and where it is cut,
    /// are those of the `String` the same bytes decode to, and
    /// `classify(utf8:)` answers as `classify(_:)` does), whole up to
    /// `TextSegments.wholeLimit` bytes, else in segments.
    /// (`repairs` is false for text already repaired: once is enough, whatever the tokenizer counts.)
    @inline(never)
    private func featurizeLong(_ bytes: UnsafeRawBufferPointer, row: Int, workspace: Workspace, repairs: Bool = true) {
        workspace.tokens.tokenize(bytes, options: manifest.features.tokenizerOptions, seed: manifest.features.hashSeed)
        if repairs, workspace.tokens.stats.invalid_sequences > 0 {
            Self.withRepairedUTF8(bytes) { featurizeLong($0, row: row, workspace: workspace, repairs: false) }
        } else if bytes.count > TextSegments.wholeLimit {
            featurizeSegments(bytes, row: row, workspace: workspace)
        } else {
            scoreWhole(bytes, row: row, workspace: workspace)
        }
    }

    /// Calls `body` with the bytes of the `String` that `bytes` decode to,
    /// each invalid sequence a U+FFFD.
    private static func withRepairedUTF8(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var repaired = String(decoding: bytes, as: UTF8.self)
        repaired.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// `featurize` for a text of more than `TextSegments.wholeLimit` bytes,
    /// whose tokens, read whole, are in the workspace: its language from the
    /// whole text, its sparse scores and dense values the mean of its
    /// segments', each weighted by its length (the bias is in every
    /// segment's scores, and the weights sum to 1).
    private func featurizeSegments(_ bytes: UnsafeRawBufferPointer, row: Int, workspace: Workspace) {
        let options = manifest.features.tokenizerOptions, seed = manifest.features.hashSeed
        let logits = workspace.logits + 3 * row, dense = workspace.dense + row * DenseFeature.count
        workspace.languages[row] = languageDetector.sparingNames(
            languageDetector.detect(workspace.tokens), buffer: workspace.tokens, source: bytes)
        logits.update(repeating: 0, count: 3)
        dense.update(repeating: 0, count: DenseFeature.count)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 + DenseFeature.count) { part in
            let partLogits = part.baseAddress!, partDense = part.baseAddress! + 3
            for segment in TextSegments.segments(of: bytes) {
                workspace.tokens.tokenize(UnsafeRawBufferPointer(rebasing: bytes[segment.range]), options: options, seed: seed)
                _ = fused.score(workspace.tokens, cache: workspace.cache, logits: partLogits, dense: partDense)
                for c in 0..<3 { logits[c] += segment.weight * partLogits[c] }
                for j in 0..<DenseFeature.count { dense[j] += segment.weight * partDense[j] }
            }
        }
    }

    /// `featurize` the long way, feature by feature: the reference the fused
    /// path is tested against.
    func featurizeReference(_ bytes: UnsafeRawBufferPointer, row: Int, workspace: Workspace, repairs: Bool = true) {
        workspace.tokens.tokenize(bytes, options: manifest.features.tokenizerOptions, seed: manifest.features.hashSeed)
        if repairs, workspace.tokens.stats.invalid_sequences > 0 {
            // As `featurizeLong`: the text is its repaired UTF-8.
            Self.withRepairedUTF8(bytes) { featurizeReference($0, row: row, workspace: workspace, repairs: false) }
            return
        }
        workspace.languages[row] = languageDetector.sparingNames(
            languageDetector.detect(workspace.tokens), buffer: workspace.tokens, source: bytes)
        extractor.extract(text: bytes, buffer: workspace.tokens, into: &workspace.row, dense: workspace.dense + row * DenseFeature.count)
        let logits = workspace.logits + 3 * row
        logits[0] = scoring.bias[0]
        logits[1] = scoring.bias[1]
        logits[2] = scoring.bias[2]
        BLASScorer.gather(workspace.row, weights: scoring, into: logits)
    }

    /// Adds the dense part for the whole batch with one sgemm and decides each row.
    @inline(__always)
    func finishBatch(rows: Int, workspace: Workspace, into results: inout [Prediction]) {
        BLASScorer.addDense(rows: rows, dense: workspace.dense, weights: scoring, logits: workspace.logits)
        for row in 0..<rows {
            let (label, probabilities) = decision.decide(workspace.logits + 3 * row)
            results.append(Prediction(label: label, probabilities: probabilities, language: workspace.languages[row]))
        }
    }
}
