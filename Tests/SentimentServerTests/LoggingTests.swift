import Foundation
import InMemoryLogging
import Logging
import Testing
import Tweets
@testable import SentimentServer

/// What the server logs for a request: every line with its `request_id`, at a level that fits.
@Suite("Request logging")
struct LoggingTests {
    @Test("Upstream lines — responses, retries and the HTTP client's — carry the request's id")
    func upstreamLinesCarryTheRequestID() async throws {
        let upstream = try await FakeXServer.start { request, index in
            if request.path.hasPrefix("/2/users/by/username/") {
                return index == 0 ? .respond(status: 503, body: "{}") : .respond(status: 200, body: XBodies.user())
            }
            return .respond(status: 200, body: XBodies.tweets(1...3, next: nil))
        }
        defer { Task { try await upstream.stop() } }
        let logs = InMemoryLogHandler()
        try await TestServer.with(upstream: upstream.baseURL, logger: recordingLogger(logs), configure: {
            $0.retryPolicy = RetryPolicy(delays: [.milliseconds(10)], maximumRateLimitWait: .zero)
        }) { server in
            let answer = try await server.request(.GET, "/v1/users/alice/tweets", headers: [("X-Request-ID", "upstream-7")])
            #expect(answer.status == 200)
        }
        let records = logs.entries
        let responses = records.filter { "\($0.message)" == "X API response" }
        let retries = records.filter { "\($0.message)" == "upstream request failed, retrying" }
        // AsyncHTTPClient logs little at these levels, but what it logs for the request is the request's.
        let client = records.filter { $0.metadata.keys.contains { $0.hasPrefix("ahc-request") } }
        #expect(responses.count == 3)
        #expect(retries.count == 1)
        for record in responses + retries + client {
            #expect(record.metadata["request_id"] == "upstream-7", "\(record.message) \(record.metadata)")
        }
    }

    @Test("An expected upstream failure (502) is logged as a warning, a server failure (500) as an error")
    func upstreamFailuresAreWarnings() async throws {
        let upstream = try await FakeXServer.start { _, _ in .respond(status: 503, body: "{}") }
        defer { Task { try await upstream.stop() } }
        let logs = InMemoryLogHandler()
        try await TestServer.with(upstream: upstream.baseURL, logger: recordingLogger(logs)) { server in
            let failed = try await server.request(.GET, "/v1/users/nobody_here/tweets", headers: [("X-Request-ID", "gateway")])
            #expect(failed.status == 502)
            try server.store.close()
            let broken = try await server.request(.GET, "/v1/history", headers: [("X-Request-ID", "broken")])
            #expect(broken.status == 500)
        }
        let failures = logs.entries.filter { "\($0.message)" == "request failed" }
        #expect(failures.map(\.level) == [.warning, .error])
        #expect(failures.map { $0.metadata["request_id"] } == ["gateway", "broken"])
    }
}
