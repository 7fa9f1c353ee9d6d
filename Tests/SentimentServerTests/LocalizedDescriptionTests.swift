import Foundation
import Testing
@testable import SentimentServer

/// A service that embeds the server, catches `any Error` at start and logs
/// `localizedDescription` reads the one line `sentiment serve` prints.
@Suite("Server errors' localized descriptions")
struct LocalizedDescriptionTests {
    @Test("Configuration, listen and database errors caught as any Error say their one-line description",
          arguments: [
              ConfigurationError.apiKeyRequired(host: "0.0.0.0") as any Error & CustomStringConvertible,
              ListenError(host: "127.0.0.1", port: 8080, errno: EADDRINUSE),
              DatabaseOpenError(path: "/missing/tweets.sqlite", underlying: CocoaError(.fileNoSuchFile)),
          ])
    func oneLineDescription(_ error: any Error & CustomStringConvertible) {
        let untyped: any Error = error
        #expect(untyped.localizedDescription == error.description)
        #expect(!untyped.localizedDescription.contains("could not be completed"))
    }
}
