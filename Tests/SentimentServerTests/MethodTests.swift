import Foundation
import NIOHTTP1
import Testing
@testable import SentimentServer

/// Methods beyond each route's own: `HEAD` wherever `GET` is.
@Suite("HEAD")
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
            try connection.send("HEAD \(path) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            let raw = try #require(try await connection.receiveUntilClosed(timeout: .seconds(10)))
            let response = try #require(RawResponse(raw))
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
        }
    }
}
