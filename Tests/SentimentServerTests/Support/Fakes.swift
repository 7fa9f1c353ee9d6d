import Foundation
import InMemoryLogging
import Logging
import Sentiment
import Tweets

/// A classifier with a keyword rule (the approach of `Tests/TweetsTests`): deterministic and fast.
struct KeywordClassifier: TweetClassifier {
    let modelID = "keywords@1.0.0+00000000"

    func classify(_ texts: [String]) -> [Prediction] { texts.map(Self.predict) }

    /// "love/great/happy/best/proud/wonderful" positive, "sad/hate/awful/worst/miserable/gutted/broke" negative, "hola" Spanish, else neutral.
    static func predict(_ text: String) -> Prediction {
        let lower = text.lowercased()
        if lower.contains("hola") || lower.contains("¡") {
            return Prediction(label: .neutral, probabilities: .init(negative: 0.2, neutral: 0.6, positive: 0.2),
                              language: .unsupported(code: "es"))
        }
        if ["love", "great", "happy", "best", "proud", "wonderful"].contains(where: lower.contains) {
            return Prediction(label: .positive, probabilities: .init(negative: 0.05, neutral: 0.15, positive: 0.8),
                              language: .english)
        }
        if ["sad", "hate", "awful", "worst", "miserable", "gutted", "broke"].contains(where: lower.contains) {
            return Prediction(label: .negative, probabilities: .init(negative: 0.85, neutral: 0.1, positive: 0.05),
                              language: .english)
        }
        return Prediction(label: .neutral, probabilities: .init(negative: 0.1, neutral: 0.8, positive: 0.1),
                          language: .english)
    }
}

/// A logger at `trace` whose lines `logs` keeps (each copy keeps its own metadata, as with real handlers).
func recordingLogger(_ logs: InMemoryLogHandler) -> Logger {
    var logger = Logger(label: "SentimentServerTests", factory: { _ in logs })
    logger.logLevel = .trace
    return logger
}

let testLogger: Logger = {
    var logger = Logger(label: "SentimentServerTests", factory: { _ in SwiftLogNoOpLogHandler() })
    logger.logLevel = .critical
    return logger
}()

/// The package's root folder (for `Examples/` and `Public/`).
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A fresh folder under the system's temporary directory.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("SentimentServerTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
