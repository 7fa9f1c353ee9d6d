import Foundation
import Logging

/// Keeps every line logged through its ``logger``, for tests that look at what the server logs.
final class LogSink: @unchecked Sendable {
    /// One logged line.
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        /// The logger's metadata merged with the line's.
        var metadata: [String: String]
    }

    private let lock = NSLock()
    private var _records: [Record] = []
    /// Every line so far.
    var records: [Record] { lock.withLock { _records } }

    /// A logger at `trace` that writes here. Each copy keeps its own metadata, as with real handlers.
    var logger: Logger {
        var logger = Logger(label: "SentimentServerTests", factory: { _ in Handler(sink: self) })
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ record: Record) { lock.withLock { _records.append(record) } }

    /// A value-type handler, so that `logger[metadataKey:] = …` changes one logger only.
    private struct Handler: LogHandler {
        let sink: LogSink
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
            sink.append(Record(level: event.level, message: "\(event.message)", metadata: merged))
        }
    }
}
