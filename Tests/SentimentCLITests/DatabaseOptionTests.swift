import Foundation
import Testing

/// `--db`, which `tweets`, `import`, `history` and `serve` share.
@Suite("The --db option")
struct DatabaseOptionTests {
    @Test("An empty --db is a usage error, not the default database", arguments: [
        ["history", "--db", ""],
        ["tweets", "sunnydays", "--offline", "--db", ""],
        ["serve", "--profile", "dev", "--port", "0", "--offline", "--db", ""],
    ])
    func emptyPathIsAUsageError(arguments: [String]) async throws {
        let home = try TemporaryFolder("sentiment-empty-db")
        let run = try await SentimentExecutable.run(arguments, environment: ["XDG_DATA_HOME": home.url.path, "SENTIMENT_DB": ""])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--db needs a path, not an empty one"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.url.appendingPathComponent("swift-sentiment").path))
    }
}
