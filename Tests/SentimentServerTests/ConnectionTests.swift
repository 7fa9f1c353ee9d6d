import Foundation
import InMemoryLogging
import Testing
@testable import SentimentServer

/// Connections that stall, and how long a shutdown waits for them.
@Suite("Idle connections and a bounded shutdown")
struct ConnectionTests {
    // MARK: - Idle connections

    @Test("A connection that stops sending is closed after the idle timeout", arguments: [
        "GET /healthz HTTP/1.1\r\nHost: localhost\r\n",
        "POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"texts\"",
        "",
    ])
    func stalledConnectionIsClosed(partialRequest: String) async throws {
        try await TestServer.with(configure: { $0.idleTimeout = .milliseconds(300) }) { server in
            let connection = try RawConnection(server)
            if !partialRequest.isEmpty { try connection.send(partialRequest) }
            let received = try await connection.receiveUntilClosed(timeout: .seconds(10))
            #expect(received != nil, "the connection is still open")
        }
    }

    @Test("A request that does not keep the connection alive has it closed once answered", arguments: [
        "GET /healthz HTTP/1.0\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: Close\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    ])
    func nonPersistentRequestIsClosed(request: String) async throws {
        try await TestServer.with(configure: { $0.idleTimeout = .seconds(120) }) { server in
            let connection = try RawConnection(server)
            try connection.send(request)
            let raw = try #require(try await connection.receiveUntilClosed(timeout: .seconds(10)), "still open after the answer")
            #expect(RawResponse(raw)?.status == 200)
        }
    }

    @Test("An HTTP/1.0 request that asks for keep-alive, and an HTTP/1.1 one, keep the connection open")
    func persistentRequestStaysOpen() async throws {
        try await TestServer.with(configure: { $0.idleTimeout = .seconds(120) }) { server in
            for request in ["GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"] {
                let connection = try RawConnection(server)
                try connection.send(request)
                #expect(try await connection.receiveUntilClosed(timeout: .milliseconds(500)) == nil, "closed: \(request)")
            }
        }
    }

    @Test("A request that expects 100-continue gets it before it sends its body, then its answer")
    func expectContinueIsAnswered() async throws {
        try await TestServer.with { server in
            let connection = try RawConnection(server)
            let body = #"{"texts":["what a lovely day"]}"#
            try connection.send("POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
            let interim = try #require(try await connection.receive(until: "\r\n\r\n", timeout: .seconds(10)),
                                       "no 100 Continue while the body is held back")
            #expect(String(decoding: interim, as: UTF8.self).hasPrefix("HTTP/1.1 100 Continue\r\n"))
            try connection.send(body)
            let raw = try #require(try await connection.receiveUntilClosed(timeout: .seconds(10)))
            let response = try #require(RawResponse(raw))
            #expect(response.status == 200)
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect((object["results"] as? [[String: Any]])?.first?["label"] as? String == "positive")
        }
    }

    @Test("A request that expects 100-continue on a connection still being answered gets it after that answer, never inside it")
    func pipelinedExpectContinueWaitsItsTurn() async throws {
        try await TestServer.with { server in
            let connection = try RawConnection(server)
            let body = #"{"texts":["what a lovely day"]}"#
            try connection.send("GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
            let upToContinue = try #require(try await connection.receive(until: "HTTP/1.1 100 Continue\r\n\r\n", timeout: .seconds(10)),
                                            "no 100 Continue while the body is held back")
            try connection.send(body)
            let rest = try #require(try await connection.receiveUntilClosed(timeout: .seconds(10)))
            let first = try #require(RawResponse(upToContinue))
            #expect(first.status == 200)
            let length = try #require(first.headers["content-length"].flatMap { Int($0) })
            let continueLine = Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)
            // The GET's whole body comes before the interim response, and nothing else does.
            #expect(first.body.count == length + continueLine.count, "the 100 Continue is not right after the first answer")
            #expect(first.body.suffix(continueLine.count) == continueLine)
            #expect(try #require(RawResponse(rest)).status == 200)
        }
    }

    @Test("An HTTP/1.0 request is answered as HTTP/1.0: a stream of unknown length is not chunked and ends with the connection",
          arguments: ["", "Connection: keep-alive\r\n"])
    func http10StreamIsNotChunked(keepAlive: String) async throws {
        try await TestServer.with(configure: { $0.idleTimeout = .seconds(120) }) { server in
            let connection = try RawConnection(server)
            let body = "\"what a lovely day\"\n\"so sad today\"\n"
            try connection.send("POST /v1/classify HTTP/1.0\r\nContent-Type: application/x-ndjson\r\n\(keepAlive)"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
            let raw = try #require(try await connection.receiveUntilClosed(timeout: .seconds(10)), "still open after the answer")
            #expect(String(decoding: raw.prefix(13), as: UTF8.self) == "HTTP/1.0 200 ")
            let response = try #require(RawResponse(raw))
            #expect(response.headers["transfer-encoding"] == nil)
            #expect(response.headers["connection"]?.lowercased() == "close")
            let lines = String(decoding: response.body, as: UTF8.self).split(separator: "\n")
            #expect(lines.count == 2, "\(lines)")
            let labels = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["label"] as? String }
            #expect(labels == ["positive", "negative"])
        }
    }

    @Test("An HTTP/1.0 keep-alive request answered with a length is told keep-alive, in HTTP/1.0, and the connection serves the next")
    func http10KeepAliveIsSaid() async throws {
        try await TestServer.with(configure: { $0.idleTimeout = .seconds(120) }) { server in
            let connection = try RawConnection(server)
            for _ in 0..<2 {
                try connection.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let raw = try #require(try await connection.receive(until: "\r\n\r\n", timeout: .seconds(10)))
                #expect(String(decoding: raw.prefix(13), as: UTF8.self) == "HTTP/1.0 200 ")
                let response = try #require(RawResponse(raw))
                #expect(response.headers["connection"]?.lowercased() == "keep-alive")
                let length = try #require(response.headers["content-length"].flatMap { Int($0) })
                if response.body.count < length {
                    _ = try await connection.receive(until: "}", timeout: .seconds(10))
                }
            }
        }
    }

    @Test("A request the HTTP parser refuses is a 400 malformed-request problem with a request id, not a bare 400", arguments: [
        "FOO /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ])
    func unparsableRequestIsAProblem(request: String) async throws {
        try await TestServer.with { server in
            let (response, problem) = try await server.rawAnswer(to: request)
            #expect(response.status == 400)
            #expect(response.headers["content-type"] == "application/problem+json")
            #expect(response.headers["x-request-id"]?.isEmpty == false)
            #expect(response.headers["content-length"] == String(response.body.count))
            #expect(problem["code"] as? String == "malformed-request", "\(problem)")
            #expect(problem["request_id"] as? String == response.headers["x-request-id"])
            #expect((problem["detail"] as? String)?.isEmpty == false)
            // Dated as every answer is (RFC 9110 §6.6.1), and counted in the metrics.
            let date = try #require(response.headers["date"], "\(response.headers)")
            #expect(date.wholeMatch(of: #/[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/#) != nil, "\(date)")
            let metrics = try await server.request(.GET, "/metrics").text
            #expect(metrics.contains(#"http_requests_total{route="MalformedRequest",method="-",status="400"} 1"#), "\(metrics)")
            // Counted, not timed: no duration series that would stay at `_count 0`.
            #expect(!metrics.contains(#"http_request_duration_seconds_count{route="MalformedRequest""#), "\(metrics)")
        }
    }

    @Test("A client that closes its connection in the middle of a request is not counted as a malformed request")
    func closingMidRequestIsNotMalformed() async throws {
        try await TestServer.with { server in
            do {
                let connection = try RawConnection(server)
                try connection.send("G")
            }  // closed here
            // The server reads the cut-off request at once; give it a moment, as many times as the parse takes.
            var metrics = ""
            for _ in 0..<25 where !metrics.contains(#"route="MalformedRequest""#) {
                try await Task.sleep(for: .milliseconds(20))
                metrics = try await server.request(.GET, "/metrics").text
            }
            #expect(!metrics.contains(#"route="MalformedRequest""#), "\(metrics)")
        }
    }

    @Test("A malformed-request problem names what is wrong with the request, whichever of its causes the parser reports", arguments: [
        ("POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}", "more than one Content-Length"),
        ("POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "Transfer-Encoding"),
        ("POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", "Transfer-Encoding"),
        ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "HTTP/2"),
    ])
    func malformedRequestSaysWhy(request: String, expected: String) async throws {
        try await TestServer.with { server in
            let (response, problem) = try await server.rawAnswer(to: request)
            #expect(response.status == 400)
            let detail = problem["detail"] as? String ?? ""
            #expect(detail.contains(expected), "\(detail)")
            #expect(!detail.contains("http_parser") && !detail.contains("(paused"), "\(detail)")
        }
    }

    @Test("A request line or headers over the parser's limit are a 431 head-too-large problem, not a 400", arguments: [
        "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n",
        "GET /v1/users?query=\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: localhost\r\n\r\n",
    ])
    func oversizedHeadIsA431(request: String) async throws {
        try await TestServer.with { server in
            let (response, problem) = try await server.rawAnswer(to: request)
            #expect(response.status == 431)
            #expect(response.headers["content-type"] == "application/problem+json")
            #expect(response.headers["x-request-id"]?.isEmpty == false)
            #expect(problem["code"] as? String == "head-too-large", "\(problem)")
            #expect(problem["status"] as? Int == 431)
            #expect(problem["request_id"] as? String == response.headers["x-request-id"])
        }
    }

    @Test("A request whose chunked framing is malformed is a 400 malformed-request, not a server failure", arguments: [
        "5\r\n{\"tex\r\nZZ\r\nts\":[\"a\"]}\r\n0\r\n\r\n",  // a chunk size that is not hexadecimal
        "5\r\n{\"texts\":[\"a\"]}\r\n0\r\n\r\n",  // a chunk longer than its size
    ])
    func malformedChunksAreBadRequests(chunks: String) async throws {
        try await TestServer.with { server in
            let connection = try RawConnection(server)
            try connection.send("POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks)
            let raw = try #require(try await connection.receiveUntilClosed(timeout: .seconds(10)))
            let response = try #require(RawResponse(raw))
            #expect(response.status == 400)
            let problem = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(problem["code"] as? String == "malformed-request", "\(problem)")
            let metrics = try await server.request(.GET, "/metrics").text
            #expect(!metrics.contains(#"status="500""#), "\(metrics)")
        }
    }

    @Test("A graceful shutdown waits for a stalled request at most the shutdown timeout, and warns that it cancelled it")
    func shutdownWaitIsBounded() async throws {
        let clock = ContinuousClock()
        let logs = InMemoryLogHandler()
        // Timed from the shutdown, not the start: a loaded machine may be slow to start a server.
        let (closed, shutdownAt) = try await TestServer.with(logger: recordingLogger(logs), configure: {
            $0.idleTimeout = .seconds(120)
            $0.shutdownTimeout = .milliseconds(500)
        }) { server in
            let connection = try RawConnection(server)
            try connection.send("POST /v1/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 100\r\n\r\n{\"texts\"")
            try await Task.sleep(for: .milliseconds(200))
            let shutdownAt = clock.now
            await server.shutdown()
            return (try await connection.receiveUntilClosed(timeout: .seconds(20)) != nil, shutdownAt)
        }
        #expect(closed, "the stalled request kept the server open")
        #expect(clock.now - shutdownAt < .seconds(20))
        let warnings = logs.entries.filter { $0.level == .warning && "\($0.message)".contains("cancelled") }
        #expect(warnings.count == 1, "\(logs.entries.map { "\($0.level) \($0.message)" })")
    }

    @Test("A graceful shutdown with no request in flight warns of nothing cancelled")
    func quietShutdownCancelsNothing() async throws {
        let logs = InMemoryLogHandler()
        try await TestServer.with(logger: recordingLogger(logs)) { server in
            let answer = try await server.request(.GET, "/healthz")
            #expect(answer.status == 200)
        }
        let entries = logs.entries.map { "\($0.level) \($0.message)" }
        #expect(!entries.contains { $0.contains("cancelled") }, "\(entries)")
    }
}
