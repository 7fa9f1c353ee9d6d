import Foundation
import Testing
import Tweets
@testable import SentimentServer

/// What the server logs for a request: every line with its `request_id`, at a level that fits.
@Suite("Request logging")
struct LoggingTests {
    @Test("An expected upstream failure (502) is logged as a warning, a server failure (500) as an error")
    func upstreamFailuresAreWarnings() async throws {
        let upstream = try await FakeXServer.start { _, _ in .respond(status: 503, body: "{}") }
        defer { Task { try await upstream.stop() } }
        let sink = LogSink()
        try await TestServer.with(upstream: upstream.baseURL, logger: sink.logger) { server in
            let failed = try await server.request(.GET, "/v1/users/nobody_here/tweets", headers: [("X-Request-ID", "gateway")])
            #expect(failed.status == 502)
            try server.store.close()
            let broken = try await server.request(.GET, "/v1/history", headers: [("X-Request-ID", "broken")])
            #expect(broken.status == 500)
        }
        let failures = sink.records.filter { $0.message == "request failed" }
        #expect(failures.map(\.level) == [.warning, .error])
        #expect(failures.map { $0.metadata["request_id"] } == ["gateway", "broken"])
    }
}
