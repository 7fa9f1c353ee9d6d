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

    @Test("offline accepts the documented values only", arguments: [
        ("1", 200), ("TRUE", 200), ("yes", 200), ("0", 200), ("false", 200), ("No", 200),
        ("maybe", 400), ("", 400), ("2", 400),
    ])
    func offlineValuesAreChecked(value: String, status: Int) async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            let answer = try await server.request(.GET, "/v1/users/sunnydays/tweets?limit=1&offline=\(value)")
            #expect(answer.status == status, "\(answer.text)")
            if status == 400 {
                #expect(try answer.object()["code"] as? String == "invalid-parameter")
                try OpenAPIDocument.shared.validate(answer, path: "/v1/users/{username}/tweets", method: "get")
            }
        }
    }

    @Test("A cursor made for another user's timeline is a 400 invalid-cursor")
    func anotherUsersCursorIsRefused() async throws {
        let rainy = User(id: "9000000002", username: "rainyday_ops", displayName: "Rainy Day Ops")
        let tweets = (0..<3).map {
            Tweet(id: "17855000000000000\($0)0", authorID: rainy.id, text: "maintenance \($0)",
                  createdAt: Date(timeIntervalSince1970: 1_714_000_000 + Double($0)), language: "en")
        }
        try await TestServer.with(seed: { service in
            try await importSunnydays(service)
            try await service.store.save(users: [rainy], tweets: tweets)
        }) { server in
            let first = try await server.request(.GET, "/v1/users/sunnydays/tweets?offline=1&limit=2").object()
            let cursor = try #require(first["next_cursor"] as? String)
            let same = try await server.request(.GET, "/v1/users/SunnyDays/tweets?offline=1&limit=2&cursor=\(cursor)")
            #expect(same.status == 200)
            let answer = try await server.request(.GET, "/v1/users/rainyday_ops/tweets?offline=1&cursor=\(cursor)")
            #expect(answer.status == 400)
            #expect(try answer.object()["code"] as? String == "invalid-cursor")
            try OpenAPIDocument.shared.validate(answer, path: "/v1/users/{username}/tweets", method: "get")
        }
    }

    @Test("A search query's length counts code points, as openapi.json's maxLength does: a combining accent counts")
    func queryLengthCountsCodePoints() async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            // "é" written as "e" and U+0301: two code points, one character.
            let accented = "e%CC%81"
            let over = try await server.request(.GET, "/v1/users?query=" + String(repeating: accented, count: 51))
            #expect(over.status == 400)
            #expect((try over.object()["detail"] as? String)?.hasSuffix("not 102") == true)
            try OpenAPIDocument.shared.validate(over, path: "/v1/users", method: "get")
            let limit = try await server.request(.GET, "/v1/users?query=" + String(repeating: accented, count: 50))
            #expect(limit.status == 200)
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
