import Foundation
import Testing
import Tweets
@testable import SentimentServer

/// How the user routes read their path and query parameters.
@Suite("GET /v1/users and /v1/users/{username}/tweets: parameters")
struct UserRouteParameterTests {
    @Test("A percent-encoded username in the path is decoded", arguments: ["%40sunnydays", "%73unnydays", "%40SunnyDays"])
    func percentEncodedUsernameIsDecoded(username: String) async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            let answer = try await server.request(.GET, "/v1/users/\(username)/tweets?offline=1&limit=2")
            #expect(answer.status == 200, "\(answer.text)")
            #expect((try answer.object()["user"] as? [String: Any])?["username"] as? String == "sunnydays")
        }
    }

    @Test("More than one leading @ is not a username, and is not recorded", arguments: ["%40%40sunnydays", "@@sunnydays"])
    func doubleAtIsRefused(username: String) async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            let answer = try await server.request(.GET, "/v1/users/\(username)/tweets?offline=1")
            #expect(answer.status == 400)
            #expect(try answer.object()["code"] as? String == "invalid-username")
            try OpenAPIDocument.shared.validate(answer, path: "/v1/users/{username}/tweets", method: "get")
            #expect((try await server.request(.GET, "/v1/history").object()["history"] as? [Any])?.isEmpty == true)
        }
    }

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
