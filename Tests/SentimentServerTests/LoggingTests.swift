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
        // The 502 reads as its problem's code and detail, not a dump of the Swift value.
        let gateway = "\(failures.first?.metadata["error"] ?? "")"
        #expect(gateway.hasPrefix("upstream-failed: ") && !gateway.contains("Problem(") && !gateway.contains("Optional("), "\(gateway)")
    }

    /// The access lines ("request") logged so far for `path`.
    private func accessLines(_ logs: InMemoryLogHandler, path: String) -> [InMemoryLogHandler.Entry] {
        logs.entries.filter { "\($0.message)" == "request" && $0.metadata["path"] == .string(path) }
    }

    /// Waits up to 10 s for an access line for `path` (a body's end is logged after the client has it).
    private func awaitAccessLine(_ logs: InMemoryLogHandler, path: String) async throws -> InMemoryLogHandler.Entry? {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let line = accessLines(logs, path: path).first { return line }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    @Test("A streamed NDJSON answer's access line is written when its body ends, with the whole time it took")
    func streamedAnswerIsLoggedWhenItEnds() async throws {
        let logs = InMemoryLogHandler()
        try await TestServer.with(logger: recordingLogger(logs)) { server in
            let connection = try RawConnection(server)
            try connection.send("POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-ndjson\r\n"
                + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n10\r\n\"what a lovely\"\n\r\n")
            // The first line's result is out, so the request is being answered; the rest of the
            // body comes 300 ms later, however late a loaded machine came to the request.
            let first = try await connection.receive(until: "\"label\"", timeout: .seconds(30))
            #expect(first != nil, "no result for the first line")
            try await Task.sleep(for: .milliseconds(300))
            try connection.send("9\r\n\"sad day\"\r\n0\r\n\r\n")
            let rest = try #require(try await connection.receiveUntilClosed(timeout: .seconds(10)))
            #expect(RawResponse((first ?? Data()) + rest)?.status == 200)
            let line = try #require(try await awaitAccessLine(logs, path: "/v1/classify"))
            #expect(line.metadata["status"]?.description == "200")
            let duration = try #require(line.metadata["duration_ms"].flatMap { Double("\($0)") })
            // A line written with the headers said 0.1.
            #expect(duration >= 300, "duration_ms \(duration)")
            #expect(line.metadata["body_error"] == nil)
        }
    }

    @Test("An upload the client abandons is a 400 in the access log and the metrics, and no server failure is logged")
    func abandonedUploadIsAClientError() async throws {
        let logs = InMemoryLogHandler()
        try await TestServer.with(logger: recordingLogger(logs)) { server in
            do {
                let connection = try RawConnection(server)
                try connection.send("POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000\r\n\r\n{\"texts\":[")
                try await Task.sleep(for: .milliseconds(100))
            }  // the connection closes here, 990 bytes short
            let line = try #require(try await awaitAccessLine(logs, path: "/v1/classify"))
            #expect(line.metadata["status"]?.description == "400")
            let metrics = try await server.request(.GET, "/metrics").text
            #expect(metrics.contains(#"http_requests_total{route="/v1/classify",method="POST",status="400"} 1"#), "\(metrics)")
            #expect(!metrics.contains(#"status="500""#))
        }
        #expect(!logs.entries.contains { $0.level >= .error }, "\(logs.entries.filter { $0.level >= .error })")
    }
}
