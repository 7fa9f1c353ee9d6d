import Sentiment

/// One worker's job on one batch: lines → records → predictions → output bytes.
///
/// Owns the worker's reusable buffers (decoded strings, records, text ranges)
/// and its model workspace, so a warm processor allocates almost nothing per
/// batch. Not thread-safe: one per worker thread.
final class BatchProcessor {
    let model: SentimentModel
    let writer: RecordWriter
    let maxLineLength: Int
    private let workspace: SentimentModel.Workspace
    private let scratch = ByteBuffer(capacity: 1 << 16)
    private var records: [TweetRecord] = []
    private var texts: [UnsafeRawBufferPointer] = []

    init(model: SentimentModel, writer: RecordWriter, maxLineLength: Int, table: TokenTable) {
        self.model = model
        self.writer = writer
        self.maxLineLength = maxLineLength
        workspace = model.makeWorkspace(sharing: table)
    }

    /// Fills `batch.output`, `batch.outcomes` and `batch.recordEnds` from `batch.lines`.
    func process(_ batch: Batch) {
        // Work on locals (moved out of the properties, so still uniquely
        // referenced): appends then skip the class's access bookkeeping.
        var records = self.records
        var texts = self.texts
        self.records = []
        self.texts = []
        defer {
            self.records = records
            self.texts = texts
        }
        scratch.removeAll()
        records.removeAll(keepingCapacity: true)
        for line in batch.lines {
            if line.tooLong {
                records.append(TweetRecord.tooLong(prefix: batch.bytes(of: line), lineNumber: line.number,
                                                   limit: maxLineLength, scratch: scratch))
            } else {
                TweetRecord.extract(line: batch.bytes(of: line), lineNumber: line.number, scratch: scratch, into: &records)
            }
        }

        // The scratch buffer has stopped growing: its pointers are stable now.
        texts.removeAll(keepingCapacity: true)
        for record in records where record.problem == nil {
            texts.append(record.text.resolve(scratch: scratch)!)
        }
        let predictions = texts.isEmpty ? [] : model.classify(utf8: texts, workspace: workspace)

        let output = batch.output
        output.removeAll()
        var outcomes = batch.outcomes
        var recordEnds = batch.recordEnds
        batch.outcomes = []
        batch.recordEnds = []
        outcomes.removeAll(keepingCapacity: true)
        recordEnds.removeAll(keepingCapacity: true)
        var next = 0
        for record in records {
            let outcome: RecordOutcome
            if record.problem != nil {
                outcome = .error
                writer.write(record, prediction: nil, scratch: scratch, into: output)
            } else {
                let prediction = predictions[next]
                next += 1
                if !prediction.language.isSupported {
                    outcome = .unsupported
                } else {
                    switch prediction.label {
                    case .positive: outcome = .positive
                    case .neutral: outcome = .neutral
                    case .negative: outcome = .negative
                    }
                }
                writer.write(record, prediction: prediction, scratch: scratch, into: output)
            }
            outcomes.append(outcome)
            recordEnds.append(output.count)
        }
        batch.outcomes = outcomes
        batch.recordEnds = recordEnds
    }
}
