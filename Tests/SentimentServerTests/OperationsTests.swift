import Foundation
import Testing
import Tweets
@testable import SentimentServer

@Suite("Health, metrics, request ids, the page and shutdown")
struct OperationsTests {
    @Test("/healthz names the model and says the database answers")
    func healthIsOK() async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.GET, "/healthz")
            #expect(answer.status == 200)
            let body = try answer.object()
            #expect(body["status"] as? String == "ok")
            #expect(body["database"] as? String == "ok")
            #expect(body["model"] as? String == KeywordClassifier().modelID)
            #expect(body["profile"] as? String == "dev")
            try OpenAPIDocument.shared.validate(answer, path: "/healthz", method: "get")
        }
    }

    @Test("/healthz answers 503 with database failing once the database is closed")
    func healthFailsWithoutDatabase() async throws {
        try await TestServer.with { server in
            try server.store.close()
            let answer = try await server.request(.GET, "/healthz")
            #expect(answer.status == 503)
            let body = try answer.object()
            #expect(body["status"] as? String == "failing")
            #expect(body["database"] as? String == "failing")
            #expect(body["model"] as? String == KeywordClassifier().modelID)
            try OpenAPIDocument.shared.validate(answer, path: "/healthz", method: "get")
        }
    }

    @Test("/metrics counts requests by route and status, and texts classified, in Prometheus text")
    func metricsCountRequests() async throws {
        try await TestServer.with { server in
            _ = try await server.post("/v1/classify", json: ["texts": ["a", "b", "c"]])
            _ = try await server.post("/v1/classify", json: ["texts": 3])
            _ = try await server.request(.GET, "/nowhere")
            // The metrics of a request are recorded once its body is written: poll briefly.
            var text = ""
            for _ in 0..<50 {
                text = try await server.request(.GET, "/metrics").text
                if text.contains(#"route="NotFound""#) { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let answer = try await server.request(.GET, "/metrics")
            #expect(answer.contentType.hasPrefix("text/plain"))
            try OpenAPIDocument.shared.validate(answer, path: "/metrics", method: "get")
            #expect(text.contains("# TYPE http_requests_total counter"))
            #expect(text.contains(#"http_requests_total{route="/v1/classify",method="POST",status="200"} 1"#))
            #expect(text.contains(#"http_requests_total{route="/v1/classify",method="POST",status="400"} 1"#))
            #expect(text.contains(#"http_requests_total{route="NotFound",method="GET",status="404"} 1"#))
            #expect(text.contains("# TYPE http_request_duration_seconds histogram"))
            #expect(text.contains(#"http_request_duration_seconds_count{route="/v1/classify",method="POST",status="200"} 1"#))
            #expect(text.contains(#"sentiment_texts_classified_total{endpoint="classify"} 3"#))
        }
    }

    @Test("/metrics counts HEAD requests, and a method a known path does not take under that path's route")
    func metricsCountHeadAnd405() async throws {
        try await TestServer.with { server in
            #expect(try await server.request(.HEAD, "/healthz").status == 200)
            #expect(try await server.request(.POST, "/healthz", body: Data("{}".utf8)).status == 405)
            #expect(try await server.request(.DELETE, "/v1/users/alice/tweets").status == 405)
            let expected = [
                #"http_requests_total{route="/healthz",method="HEAD",status="200"} 1"#,
                #"http_requests_total{route="/healthz",method="POST",status="405"} 1"#,
                #"http_requests_total{route="/v1/users/{username}/tweets",method="DELETE",status="405"} 1"#,
            ]
            // The metrics of a request are recorded once its body is written: poll briefly.
            var text = ""
            for _ in 0..<50 {
                text = try await server.request(.GET, "/metrics").text
                if expected.allSatisfy(text.contains) { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            for line in expected { #expect(text.contains(line), "\(text)") }
            #expect(!text.contains(#"route="NotFound""#), "\(text)")
        }
    }

    @Test("Every answer has a request id: the client's when it is sane, else a new one")
    func requestIDsAreEchoed() async throws {
        try await TestServer.with { server in
            let given = try await server.request(.GET, "/healthz", headers: [("X-Request-ID", "abc-123")])
            #expect(given.headers["x-request-id"] == "abc-123")
            let made = try await server.request(.GET, "/healthz", headers: [("X-Request-ID", "bad id with spaces")])
            #expect(made.headers["x-request-id"].map { $0 != "bad id with spaces" && !$0.isEmpty } == true)
            let problem = try await server.request(.GET, "/nowhere", headers: [("X-Request-ID", "trace-7")])
            #expect(problem.status == 404)
            #expect(problem.contentType == "application/problem+json")
            #expect(try problem.object()["request_id"] as? String == "trace-7")
        }
    }

    @Test("The page: / and /users/{username} serve index.html with a strict CSP; its files are served")
    func pageIsServed() async throws {
        try await TestServer.with { server in
            let root = try await server.request(.GET, "/")
            #expect(root.status == 200)
            #expect(root.contentType.hasPrefix("text/html"))
            #expect(root.headers["content-security-policy"]?.contains("default-src 'none'") == true)
            let user = try await server.request(.GET, "/users/sunnydays")
            #expect(user.body == root.body)
            for file in ["app.js", "app.css"] {
                let answer = try await server.request(.GET, "/\(file)")
                #expect(answer.status == 200, "\(file)")
            }
            let etag = try #require(root.headers["etag"])
            let cached = try await server.request(.GET, "/", headers: [("If-None-Match", etag)])
            #expect(cached.status == 304)
            // RFC 9110's weak comparison: a weak tag, a list, or any tag at all.
            for ifNoneMatch in ["W/\(etag)", "\"other\", \(etag)", "*"] {
                let answer = try await server.request(.GET, "/", headers: [("If-None-Match", ifNoneMatch)])
                #expect(answer.status == 304, "If-None-Match: \(ifNoneMatch)")
            }
            let changed = try await server.request(.GET, "/", headers: [("If-None-Match", "\"other\", W/\"another\"")])
            #expect(changed.status == 200)
        }
    }

    @Test("/openapi.json is the repository's OpenAPI 3.1 document")
    func openAPIIsServed() async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.GET, "/openapi.json")
            #expect(answer.status == 200)
            #expect(answer.body == (try Data(contentsOf: OpenAPIDocument.path)))
            let body = try answer.object()
            #expect((body["openapi"] as? String)?.hasPrefix("3.1") == true)
        }
    }

    @Test("A graceful shutdown finishes the requests in flight", .timeLimit(.minutes(1)))
    func shutdownFinishesRequestsInFlight() async throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let upstream = try await FakeXServer.start { request, _ in
            if request.path.hasPrefix("/2/users/by/username/") {
                arrived.yield()
                return .delayed(.milliseconds(600), .respond(status: 200, body: XBodies.user()))
            }
            return .respond(status: 200, body: XBodies.tweets(1...3, next: nil))
        }
        defer { Task { try await upstream.stop() } }
        try await TestServer.with(upstream: upstream.baseURL) { server in
            async let slow = server.request(.GET, "/v1/users/alice/tweets")
            // Shut down once the request is in flight (the server is asking the X API),
            // however late a loaded machine gets it there.
            var waiting = arrivals.makeAsyncIterator()
            #expect(await waiting.next() != nil)
            await server.shutdown()
            let answer = try await slow
            #expect(answer.status == 200)
            #expect((try answer.object()["tweets"] as? [Any])?.count == 3)
        }
    }
}
