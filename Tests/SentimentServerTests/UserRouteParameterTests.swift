import Foundation
import Testing
import Tweets
@testable import SentimentServer

/// How the user routes read their path and query parameters.
@Suite("GET /v1/users and /v1/users/{username}/tweets: parameters")
struct UserRouteParameterTests {
    @Test("A search query longer than 100 characters is a 400, not a database failure", arguments: [
        String(repeating: "_", count: 25_000), String(repeating: "a", count: 50_001), String(repeating: "a", count: 101),
    ])
    func overlongQueryIsRefused(query: String) async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            let answer = try await server.request(.GET, "/v1/users?query=\(query)")
            #expect(answer.status == 400)
            let problem = try answer.object()
            #expect(problem["code"] as? String == "invalid-parameter")
            #expect((problem["detail"] as? String)?.contains("at most 100 characters") == true)
            try OpenAPIDocument.shared.validate(answer, path: "/v1/users", method: "get")
            let longest = try await server.request(.GET, "/v1/users?query=" + String(repeating: "s", count: 100))
            #expect(longest.status == 200)
        }
    }
}
