import Foundation
import NIOHTTP1
import Testing
@testable import SentimentServer

/// Methods beyond each route's own: `HEAD` wherever `GET` is, 405 for the others.
@Suite("HEAD and 405 Method Not Allowed")
struct MethodTests {
    // MARK: - HEAD

    @Test("HEAD answers wherever GET does, with GET's status and content type and no body", arguments: [
        "/healthz", "/", "/users/sunnydays", "/app.css", "/openapi.json", "/v1/history", "/metrics", "/v1/users?query=s",
        "/v1/users/sunnydays/tweets?offline=1",
    ])
    func headAnswersLikeGet(path: String) async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            let get = try await server.request(.GET, path)
            #expect(get.status == 200)
            let head = try await server.request(.HEAD, path)
            #expect(head.status == 200)
            #expect(head.contentType == get.contentType)
            #expect(head.body.isEmpty)
            #expect(head.headers["x-request-id"]?.isEmpty == false)

            // On the wire too: a HEAD response carries no body bytes.
            let connection = try RawConnection(server)
            try connection.send("HEAD \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let raw = try #require(try await connection.receiveUntilClosed(timeout: .seconds(10)))
            let response = try #require(RawResponse(raw))
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
        }
    }

    @Test("HEAD on a timeline asks the store alone and records no search: the X API is not called and the history stays empty")
    func headOnTimelineHasNoSideEffects() async throws {
        let upstream = try await FakeXServer.start { request, _ in
            request.path.hasPrefix("/2/users/by/username/")
                ? .respond(status: 200, body: XBodies.user())
                : .respond(status: 200, body: XBodies.tweets(1...3, next: nil))
        }
        defer { Task { try await upstream.stop() } }
        try await TestServer.with(upstream: upstream.baseURL, seed: importSunnydays) { server in
            let stored = try await server.request(.HEAD, "/v1/users/sunnydays/tweets")
            #expect(stored.status == 200)
            #expect(stored.body.isEmpty)
            let unknown = try await server.request(.HEAD, "/v1/users/alice/tweets")
            #expect(unknown.status == 404, "nothing is stored for alice, and HEAD does not fetch")
            #expect(upstream.requests.isEmpty, "\(upstream.requests.map(\.path))")
            let history = try await server.request(.GET, "/v1/history").object()
            #expect((history["history"] as? [Any])?.isEmpty == true, "\(history)")

            // A GET is a search: it calls the X API and is recorded.
            #expect(try await server.request(.GET, "/v1/users/alice/tweets").status == 200)
            #expect(!upstream.requests.isEmpty)
            let after = try await server.request(.GET, "/v1/history").object()
            #expect((after["history"] as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["alice"], "\(after)")
        }
    }

    // MARK: - 405

    @Test("Another method on a known path is a 405 that lists the allowed ones", arguments: [
        (HTTPMethod.POST, "/healthz", "GET, HEAD"),
        (.DELETE, "/v1/classify", "POST"),
        (.GET, "/v1/classify", "POST"),
        (.PUT, "/v1/history", "DELETE, GET, HEAD"),
        (.POST, "/v1/users/sunnydays/tweets", "GET, HEAD"),
        (.PATCH, "/users/anyone", "GET, HEAD"),
    ])
    func otherMethodIs405(method: HTTPMethod, path: String, allow: String) async throws {
        try await TestServer.with { server in
            let answer = try await server.request(method, path, headers: [("X-Request-ID", "m-405")])
            #expect(answer.status == 405)
            #expect(answer.headers["allow"] == allow)
            #expect(answer.contentType == "application/problem+json")
            let problem = try answer.object()
            #expect(problem["code"] as? String == "method-not-allowed")
            #expect(problem["request_id"] as? String == "m-405")
            try OpenAPIDocument.shared.validate(schema: "Problem", problem)
        }
    }

    @Test("An unknown path is still a 404, whatever the method", arguments: [HTTPMethod.GET, .POST, .DELETE])
    func unknownPathIs404(method: HTTPMethod) async throws {
        try await TestServer.with { server in
            let answer = try await server.request(method, "/v1/nothing-here")
            #expect(answer.status == 404)
            #expect(answer.headers["allow"] == nil)
            #expect(try answer.object()["code"] as? String == "not-found")
        }
    }
}
