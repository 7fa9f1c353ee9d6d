import Foundation
import Testing
@testable import SentimentServer

/// How `POST /v1/classify` reads what clients send: content types, ids, blank
/// texts, and the errors of bodies that cannot be read.
@Suite("POST /v1/classify: reading request bodies")
struct ClassifyBodyTests {
    // MARK: - Content types

    @Test("An empty media type counts as a missing Content-Type, and the body is read as JSON",
          arguments: ["", ";", "   ", "; charset=utf-8", ";charset=utf-8"])
    func emptyMediaTypeIsJSON(contentType: String) async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: Data(#"{"texts": ["I love it"]}"#.utf8),
                                                  headers: [("Content-Type", contentType)], contentType: nil)
            #expect(answer.status == 200)
            let results = try #require(try answer.object()["results"] as? [[String: Any]])
            #expect(results.map { $0["label"] as? String } == ["positive"])
            // The server is still up.
            #expect(try await server.request(.GET, "/healthz").status == 200)
        }
    }

    @Test("A media type is named without its parameters in a 415")
    func unsupportedMediaTypeIsNamedWithoutParameters() async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: Data("a".utf8),
                                                  contentType: "Text/Plain; charset=utf-8")
            #expect(answer.status == 415)
            let detail = try answer.object()["detail"] as? String ?? ""
            #expect(detail.hasPrefix("'text/plain' is neither"), "detail: \(detail)")
        }
    }
}
