import Foundation
import Testing
@testable import Tweets

/// An embedder that catches `any Error` and logs `localizedDescription`
/// reads the library's own one-line reason.
@Suite("Tweets errors' localized descriptions")
struct LocalizedDescriptionTests {
    @Test("Store, service and archive errors caught as any Error say their one-line description",
          arguments: [
              TweetStoreError.newerSchema(unknownMigrations: ["v99"]) as any Error & CustomStringConvertible,
              TweetServiceError.invalidUsername("a b"),
              ArchiveError.notFound("/missing/archive"),
          ])
    func oneLineDescription(_ error: any Error & CustomStringConvertible) {
        let untyped: any Error = error
        #expect(untyped.localizedDescription == error.description)
        #expect(!untyped.localizedDescription.contains("could not be completed"))
    }
}
