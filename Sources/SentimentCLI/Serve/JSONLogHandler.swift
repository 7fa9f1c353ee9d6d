import Foundation
import Logging

/// A swift-log handler that writes one JSON object per line to standard error:
/// `{"ts": "2024-05-01T09:30:00.000Z", "level": "info", "label": "sentiment.serve",
///   "message": "request", "request_id": "…", "status": "200", …}`.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata { fields[key] = "\(value)" }
        for (key, value) in metadataProvider?.get() ?? [:] { fields[key] = "\(value)" }
        for (key, value) in event.metadata ?? [:] { fields[key] = "\(value)" }
        fields["ts"] = Self.timestamp()
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(fields) else { return }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(line)
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
