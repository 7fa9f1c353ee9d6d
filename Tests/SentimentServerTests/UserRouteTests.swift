import Foundation
import GRDB
import InMemoryLogging
import NIOHTTP1
import Testing
import Tweets
@testable import SentimentServer

@Suite("GET /v1/users, /v1/users/{username}/tweets and /v1/history")
struct UserRouteTests {
    // MARK: - Search

    @Test("Search as you type finds stored users by prefix, then recent searches")
    func searchFindsStoredUsersThenRecentSearches() async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            let answer = try await server.request(.GET, "/v1/users?query=sun")
            #expect(answer.status == 200)
            let body = try answer.object()
            #expect(body["query"] as? String == "sun")
            let users = try #require(body["users"] as? [[String: Any]])
            #expect(users.map { $0["username"] as? String } == ["sunnydays"])
            #expect(users.first?["display_name"] as? String == "Sunny Days (made up)")
            #expect((body["recent"] as? [Any])?.isEmpty == true)
            try OpenAPIDocument.shared.validate(answer, path: "/v1/users", method: "get")

            _ = try await server.request(.GET, "/v1/users/SunnyDays/tweets?offline=1")
            let after = try await server.request(.GET, "/v1/users?query=SUN").object()
            #expect((after["recent"] as? [[String: Any]])?.map { $0["username"] as? String } == ["SunnyDays"])
            let none = try await server.request(.GET, "/v1/users?query=zzz").object()
            #expect((none["users"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("A search query is read as a form writes it: + and %20 are spaces, %2B is a plus")
    func searchQueryReadsPlusAsSpace() async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            for query in ["Sunny+D", "Sunny%20D", "sunny+days+%28made"] {
                let body = try await server.request(.GET, "/v1/users?query=\(query)").object()
                #expect((body["users"] as? [[String: Any]])?.map { $0["username"] as? String } == ["sunnydays"], "\(query)")
            }
            let plus = try await server.request(.GET, "/v1/users?query=Sunny%2BD").object()
            #expect(plus["query"] as? String == "Sunny+D")
            #expect((plus["users"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("A search query whose escapes decode to bytes that are not UTF-8 is a 400, and a lone % is kept as typed")
    func searchQueryMustDecodeToUTF8() async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            for query in ["%FF", "sunny%C3", "%ED%A0%80"] {
                let answer = try await server.request(.GET, "/v1/users?query=\(query)")
                #expect(answer.status == 400, "\(query)")
                let problem = try answer.object()
                #expect(problem["code"] as? String == "invalid-parameter", "\(problem)")
                #expect((problem["detail"] as? String)?.contains("not UTF-8") == true, "\(problem)")
                try OpenAPIDocument.shared.validate(answer, path: "/v1/users", method: "get")
            }
            // A % without two hexadecimal digits after it is not an escape; the escapes beside it still are.
            // Sent raw: an HTTP client escapes such a % itself.
            for (query, read) in [("100%25+sunny%C3%A9%", "100% sunnyé%"), ("sun%zz", "sun%zz")] {
                let (response, body) = try await server.rawAnswer(
                    to: "GET /v1/users?query=\(query) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                #expect(response.status == 200, "\(query)")
                #expect(body["query"] as? String == read)
            }
        }
    }

    @Test("A limit outside 1–50 is a 400")
    func searchLimitIsChecked() async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.GET, "/v1/users?query=a&limit=500")
            #expect(answer.status == 400)
            #expect(try answer.object()["code"] as? String == "invalid-parameter")
        }
    }

    // MARK: - Timelines

    @Test("Offline tweets carry exactly the fields of `sentiment tweets --format jsonl`")
    func offlineTweetsHaveTheJSONLFields() async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            let answer = try await server.request(.GET, "/v1/users/sunnydays/tweets?offline=1&limit=5")
            #expect(answer.status == 200)
            let body = try answer.object()
            #expect(Set(body.keys) == ["user", "tweets", "next_cursor", "stale", "failure"])
            #expect(body["stale"] as? Bool == false)
            #expect((body["user"] as? [String: Any])?["username"] as? String == "sunnydays")
            let tweets = try #require(body["tweets"] as? [[String: Any]])
            #expect(tweets.count == 5)
            let expectedKeys: Set<String> = ["id", "author_id", "text", "created_at", "lang", "label", "probabilities",
                                             "score", "language", "mood", "theme", "model_id"]
            for tweet in tweets { #expect(Set(tweet.keys) == expectedKeys) }
            // The same encoder as the command line: decoding the answer gives back ClassifiedTweets.
            let decoded = try JSONDecoder().decode(Timeline.self, from: answer.body)
            #expect(decoded.tweets.count == 5)
            try OpenAPIDocument.shared.validate(answer, path: "/v1/users/{username}/tweets", method: "get")

            // The next page starts after the first.
            let cursor = try #require(body["next_cursor"] as? String)
            let next = try await server.request(.GET, "/v1/users/sunnydays/tweets?offline=1&limit=5&cursor=\(cursor)")
            let nextIDs = try #require((try next.object()["tweets"] as? [[String: Any]])?.map { $0["id"] as? String })
            #expect(nextIDs.count == 5)
            #expect(Set(nextIDs).isDisjoint(with: tweets.map { $0["id"] as? String }))
        }
    }

    @Test("A tweet in another language has no label and no theme, as in /v1/classify")
    func unsupportedTweetHasNoLabel() async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            let answer = try await server.request(.GET, "/v1/users/sunnydays/tweets?offline=1&limit=20")
            #expect(answer.status == 200)
            let tweets = try #require(try answer.object()["tweets"] as? [[String: Any]])
            let spanish = try #require(tweets.first { $0["mood"] as? String == "unsupported_language" })
            #expect(spanish["label"] is NSNull)
            #expect(spanish["theme"] is NSNull)
            #expect(tweets.filter { $0["label"] is NSNull }.count == 1)
            try OpenAPIDocument.shared.validate(answer, path: "/v1/users/{username}/tweets", method: "get")
            let decoded = try JSONDecoder().decode(Timeline.self, from: answer.body)
            #expect(decoded.tweets.count { $0.label == nil } == 1)
        }
    }

    /// The `failure` of a timeline answered from the store: a 200, stale,
    /// with tweets, as the OpenAPI document describes it.
    static func staleFailure(_ answer: TestServer.Answer) throws -> [String: Any] {
        #expect(answer.status == 200)
        let body = try answer.object()
        #expect(body["stale"] as? Bool == true)
        #expect((body["tweets"] as? [Any])?.isEmpty == false)
        try OpenAPIDocument.shared.validate(answer, path: "/v1/users/{username}/tweets", method: "get")
        return try #require(body["failure"] as? [String: Any])
    }

    @Test("With the upstream down, stored tweets are answered, stale, with the failure kind")
    func upstreamDownAnswersStale() async throws {
        let upstream = try await FakeXServer.start { _, _ in
            .respond(status: 503, body: #"{"title":"Service Unavailable","detail":"over capacity","type":"about:blank","status":503}"#)
        }
        defer { Task { try await upstream.stop() } }
        try await TestServer.with(upstream: upstream.baseURL, seed: importSunnydays) { server in
            let failure = try await Self.staleFailure(server.request(.GET, "/v1/users/sunnydays/tweets"))
            #expect(failure["kind"] as? String == "upstream")
            #expect(failure["status"] as? Int == 503)
            let metrics = try await server.request(.GET, "/metrics").text
            #expect(metrics.contains(#"sentiment_upstream_failures_total{kind="upstream"} 1"#))
            #expect(metrics.contains("sentiment_stale_answers_total 1"))
        }
    }

    @Test("A stored user whom X calls unknown (an archive's, a deleted account) is answered from the store, stale, not a 404")
    func storedUserXDoesNotKnowAnswersStale() async throws {
        let upstream = try await FakeXServer.start { _, _ in .respond(status: 404, body: XBodies.unknownUser) }
        defer { Task { try await upstream.stop() } }
        try await TestServer.with(upstream: upstream.baseURL, seed: importSunnydays) { server in
            let failure = try await Self.staleFailure(server.request(.GET, "/v1/users/sunnydays/tweets"))
            #expect(failure["kind"] as? String == "unknown_user")
        }
    }

    @Test("Without an X token, stored tweets are answered stale, no upstream request or failure is counted, and it is said once at start, not at every timeline")
    func noTokenIsQuiet() async throws {
        let logs = InMemoryLogHandler()
        try await TestServer.with(logger: recordingLogger(logs), configure: { $0.offline = false; $0.bearerToken = nil },
                                  seed: importSunnydays) { server in
            for _ in 0..<2 {
                let answer = try await server.request(.GET, "/v1/users/sunnydays/tweets")
                #expect(answer.status == 200)
                #expect(((try answer.object())["failure"] as? [String: Any])?["kind"] as? String == "unavailable")
            }
            let metrics = try await server.request(.GET, "/metrics").text
            #expect(!metrics.contains(#"sentiment_upstream_requests_total{operation="user"}"#), "no request was sent: \(metrics)")
            #expect(!metrics.contains(#"sentiment_upstream_failures_total{kind="unavailable"}"#), "\(metrics)")
            #expect(metrics.contains("sentiment_stale_answers_total 2"))
        }
        #expect(logs.entries.filter { "\($0.message)".hasPrefix("no X API token") }.map(\.level) == [.notice])
        #expect(!logs.entries.contains { $0.level >= .warning }, "\(logs.entries.filter { $0.level >= .warning }.map(\.message))")
    }

    @Test("Without an X token, a user with nothing stored is a 502 saying the X API could not be asked, not that it failed")
    func noTokenAndNothingStoredSaysXWasNotAsked() async throws {
        try await TestServer.with(configure: { $0.offline = false; $0.bearerToken = nil }) { server in
            let answer = try await server.request(.GET, "/v1/users/ghost/tweets")
            #expect(answer.status == 502)
            let detail = try answer.object()["detail"] as? String
            #expect(detail == "the X API cannot be asked (no X API token: set X_BEARER_TOKEN) and nothing is stored for @ghost",
                    "\(detail ?? "")")
        }
    }

    @Test("With the upstream unreachable and nothing stored, the answer is a 502 naming the failure")
    func upstreamUnreachableAndNothingStoredIs502() async throws {
        // A port nobody listens on, held for the test so that no other test's server takes it.
        let refusing = try RefusingPort()
        let url = refusing.baseURL
        defer { withExtendedLifetime(refusing) {} }
        // The HTTP client retries refused connections until the request's deadline: keep it short.
        try await TestServer.with(upstream: url, configure: { $0.upstreamTimeout = .seconds(1) }) { server in
            let answer = try await server.request(.GET, "/v1/users/nobody_here/tweets")
            #expect(answer.status == 502)
            let problem = try answer.object()
            #expect(problem["code"] as? String == "upstream-failed")
            #expect((problem["failure"] as? [String: Any])?["kind"] as? String == "connection")
            try OpenAPIDocument.shared.validate(answer, path: "/v1/users/{username}/tweets", method: "get")
        }
    }

    @Test("Tweets from a live upstream are stored, classified and paged; retries are counted")
    func liveUpstreamIsPagedAndRetriesCounted() async throws {
        let upstream = try await FakeXServer.start { request, index in
            if request.path.hasPrefix("/2/users/by/username/") {
                return index == 0 ? .respond(status: 500, body: "{}") : .respond(status: 200, body: XBodies.user())
            }
            return request.query["pagination_token"] == nil
                ? .respond(status: 200, body: XBodies.tweets(11...20, next: "p2"))
                : .respond(status: 200, body: XBodies.tweets(1...10, next: nil))
        }
        defer { Task { try await upstream.stop() } }
        try await TestServer.with(upstream: upstream.baseURL, configure: {
            $0.retryPolicy = RetryPolicy(delays: [.milliseconds(10)], maximumRateLimitWait: .zero)
            $0.pageSize = 10
        }) { server in
            let first = try await server.request(.GET, "/v1/users/alice/tweets")
            #expect(first.status == 200)
            let body = try first.object()
            #expect(body["stale"] as? Bool == false)
            let tweets = try #require(body["tweets"] as? [[String: Any]])
            #expect(tweets.map { $0["id"] as? String } == (11...20).reversed().map(String.init))
            #expect(tweets.allSatisfy { $0["mood"] as? String == "happy" })
            let cursor = try #require(body["next_cursor"] as? String)
            let second = try await server.request(.GET, "/v1/users/alice/tweets?cursor=\(cursor)").object()
            #expect((second["tweets"] as? [[String: Any]])?.map { $0["id"] as? String } == (1...10).reversed().map(String.init))

            let metrics = try await server.request(.GET, "/metrics").text
            #expect(metrics.contains("sentiment_upstream_retries_total 1"))
            #expect(metrics.contains(#"sentiment_texts_classified_total{endpoint="timeline"} 20"#))
            // Shown again: answered from the stored classifications.
            _ = try await server.request(.GET, "/v1/users/alice/tweets?offline=1")
            let again = try await server.request(.GET, "/metrics").text
            #expect(again.contains("sentiment_classification_cache_hits_total 10"))
        }
    }

    @Test("While another process holds the database's write lock, a timeline whose fetched tweets cannot be stored, and clearing the history, are a 503 database-busy with Retry-After, logged as a warning")
    func lockedDatabaseIs503() async throws {
        let upstream = try await FakeXServer.start { request, _ in
            request.path.hasPrefix("/2/users/by/username/")
                ? .respond(status: 200, body: XBodies.user())
                : .respond(status: 200, body: XBodies.tweets(1...3, next: nil))
        }
        defer { Task { try await upstream.stop() } }
        let logs = InMemoryLogHandler()
        try await TestServer.with(upstream: upstream.baseURL, logger: recordingLogger(logs), busyTimeout: 0.2) { server in
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let writer = try DatabaseQueue(path: server.configuration.databasePath, configuration: configuration)
            try await writer.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
            for (method, path, operation) in [(HTTPMethod.GET, "/v1/users/alice/tweets", "get"), (.DELETE, "/v1/history", "delete")] {
                let answer = try await server.request(method, path)
                #expect(answer.status == 503, "\(method) \(path): \(answer.text)")
                #expect(answer.headers["retry-after"] == "10")
                #expect(try answer.object()["code"] as? String == "database-busy")
                let detail = try #require(try answer.object()["detail"] as? String)
                #expect(detail.contains(path == "/v1/history" ? "cleared search history" : "tweets fetched"), "\(detail)")
                try OpenAPIDocument.shared.validate(answer, path: path == "/v1/history" ? path : "/v1/users/{username}/tweets",
                                                    method: operation)
            }
            try await writer.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            let released = try await server.request(.GET, "/v1/users/alice/tweets")
            #expect(released.status == 200)
            #expect((try released.object()["tweets"] as? [Any])?.count == 3)
        }
        let failures = logs.entries.filter { "\($0.message)" == "request failed" }
        #expect(failures.map(\.level) == [.warning, .warning])
        #expect(failures.allSatisfy { "\($0.metadata["error"] ?? "")".contains("database is locked") })
    }

    @Test("Cache hits count the page's tweets that had a stored classification, not the fetched tweets beyond the page")
    func cacheHitsCountThePageAlone() async throws {
        // X sends five tweets a page whatever the limit, as it does below its minimum of 5.
        let upstream = try await FakeXServer.start { request, _ in
            if request.path.hasPrefix("/2/users/by/username/") { return .respond(status: 200, body: XBodies.user()) }
            return request.query["pagination_token"] == nil
                ? .respond(status: 200, body: XBodies.tweets(16...20, next: "p2"))
                : .respond(status: 200, body: XBodies.tweets(11...15, next: nil))
        }
        defer { Task { try await upstream.stop() } }
        try await TestServer.with(upstream: upstream.baseURL) { server in
            let first = try await server.request(.GET, "/v1/users/alice/tweets?limit=2").object()
            #expect((first["tweets"] as? [[String: Any]])?.map { $0["id"] as? String } == ["20", "19"])
            let cursor = try #require(first["next_cursor"] as? String)
            // Page two shows 18 and 17, classified with page one's fetch, and fetches 11–15.
            let second = try await server.request(.GET, "/v1/users/alice/tweets?limit=2&cursor=\(cursor)").object()
            #expect((second["tweets"] as? [[String: Any]])?.map { $0["id"] as? String } == ["18", "17"])

            let metrics = try await server.request(.GET, "/metrics").text
            #expect(metrics.contains(#"sentiment_texts_classified_total{endpoint="timeline"} 10"#))
            #expect(metrics.contains("sentiment_tweets_served_total 4"))
            #expect(metrics.contains("sentiment_classification_cache_hits_total 2"))
        }
    }

    @Test("A wait for a rate-limit reset is counted as such, not as a retry")
    func rateLimitWaitsAreNotRetries() async throws {
        let upstream = try await FakeXServer.start { request, index in
            if request.path.hasPrefix("/2/users/by/username/") {
                guard index == 0 else { return .respond(status: 200, body: XBodies.user()) }
                let reset = Int(Date().timeIntervalSince1970) + 1
                return .respond(status: 429, headers: [("x-rate-limit-reset", String(reset))], body: "{}")
            }
            return .respond(status: 200, body: XBodies.tweets(1...3, next: nil))
        }
        defer { Task { try await upstream.stop() } }
        try await TestServer.with(upstream: upstream.baseURL, configure: {
            $0.retryPolicy = RetryPolicy(delays: [.milliseconds(10)], maximumRateLimitWait: .seconds(3))
        }) { server in
            let answer = try await server.request(.GET, "/v1/users/alice/tweets")
            #expect(answer.status == 200)
            #expect(try answer.object()["stale"] as? Bool == false)
            let metrics = try await server.request(.GET, "/metrics").text
            #expect(metrics.contains("sentiment_upstream_rate_limit_waits_total 1"))
            #expect(metrics.contains("sentiment_upstream_retries_total 0"))
        }
    }

    @Test("Unknown users, bad usernames, cursors and limits have their own problems", arguments: [
        ("/v1/users/nobody/tweets", 404, "unknown-user"),
        ("/v1/users/not%20a%20name/tweets", 400, "invalid-username"),
        ("/v1/users/alice/tweets?cursor=garbage", 400, "invalid-cursor"),
        ("/v1/users/alice/tweets?limit=0", 400, "invalid-parameter"),
        ("/v1/users/ghost/tweets?offline=1", 404, "nothing-stored"),
    ])
    func timelineProblems(path: String, status: Int, code: String) async throws {
        let upstream = try await FakeXServer.start { _, _ in .respond(status: 404, body: XBodies.unknownUser) }
        defer { Task { try await upstream.stop() } }
        try await TestServer.with(upstream: upstream.baseURL) { server in
            let answer = try await server.request(.GET, path)
            #expect(answer.status == status)
            #expect(answer.contentType == "application/problem+json")
            #expect(try answer.object()["code"] as? String == code)
            try OpenAPIDocument.shared.validate(answer, path: "/v1/users/{username}/tweets", method: "get")
        }
    }

    @Test("A 404 for a user with nothing stored says why the X API was not asked: the server offline, offline=1 or HEAD")
    func nothingStoredSaysWhyTheStoreAloneAnswered() async throws {
        let upstream = try await FakeXServer.start { _, _ in .respond(status: 404, body: XBodies.unknownUser) }
        defer { Task { try await upstream.stop() } }
        try await TestServer.with(upstream: upstream.baseURL) { server in
            let answer = try await server.request(.GET, "/v1/users/ghost/tweets?offline=1")
            #expect(answer.status == 404)
            let detail = try #require(try answer.object()["detail"] as? String)
            #expect(detail == "nothing is stored for @ghost and offline=1 asks the store alone, not the X API")
            #expect(!detail.contains("server is offline"), "the server is online")
        }
        try await TestServer.with(upstream: nil) { server in
            let answer = try await server.request(.GET, "/v1/users/ghost/tweets")
            #expect(answer.status == 404)
            #expect(try answer.object()["detail"] as? String == "nothing is stored for @ghost and the server is offline")
        }
        // A HEAD answer has no body to read: the problem it is answered with.
        let head = UserRoutes.problem(for: .nothingStored(username: "ghost", failure: nil), storeOnly: .head)
        #expect(head.status == .notFound)
        #expect(head.detail == "nothing is stored for @ghost and a HEAD request asks the store alone, not the X API")
    }

    // MARK: - History

    @Test("History lists searches most recent first, without duplicates, and DELETE clears it")
    func historyListsAndClears() async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            for name in ["sunnydays", "ghost", "SUNNYDAYS"] {
                _ = try await server.request(.GET, "/v1/users/\(name)/tweets?offline=1")
            }
            let answer = try await server.request(.GET, "/v1/history")
            #expect(answer.status == 200)
            let history = try #require(try answer.object()["history"] as? [[String: Any]])
            #expect(history.map { $0["username"] as? String } == ["SUNNYDAYS"])
            try OpenAPIDocument.shared.validate(answer, path: "/v1/history", method: "get")

            let deleted = try await server.request(.DELETE, "/v1/history")
            #expect(deleted.status == 204)
            try OpenAPIDocument.shared.validate(deleted, path: "/v1/history", method: "delete")
            let empty = try await server.request(.GET, "/v1/history").object()
            #expect((empty["history"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("With an API key configured, DELETE /v1/history needs it; reads do not")
    func writesNeedTheAPIKey() async throws {
        try await TestServer.with(configure: { $0.apiKey = "s3cret" }, seed: importSunnydays) { server in
            _ = try await server.request(.GET, "/v1/users/sunnydays/tweets?offline=1")
            let refused = try await server.request(.DELETE, "/v1/history")
            #expect(refused.status == 401)
            #expect(refused.contentType == "application/problem+json")
            #expect(refused.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            try OpenAPIDocument.shared.validate(refused, path: "/v1/history", method: "delete")
            let wrong = try await server.request(.DELETE, "/v1/history", headers: [("X-API-Key", "s3cre")])
            #expect(wrong.status == 401)
            #expect((try await server.request(.GET, "/v1/history").object()["history"] as? [Any])?.count == 1)

            let bearer = try await server.request(.DELETE, "/v1/history", headers: [("Authorization", "Bearer s3cret")])
            #expect(bearer.status == 204)
            let header = try await server.request(.DELETE, "/v1/history", headers: [("X-API-Key", "s3cret")])
            #expect(header.status == 204)
        }
    }

    @Test("Either header with the right key lets a write through, whatever the other carries", arguments: [
        ([("X-API-Key", "wrong"), ("Authorization", "Bearer s3cret")], 204),
        ([("X-API-Key", ""), ("Authorization", "Bearer s3cret")], 204),
        ([("X-API-Key", "s3cret"), ("Authorization", "Bearer wrong")], 204),
        ([("X-API-Key", "s3cret"), ("Authorization", "Basic czNjcmV0")], 204),
        ([("X-API-Key", "wrong"), ("Authorization", "Bearer s3cre")], 401),
        ([("X-API-Key", ""), ("Authorization", "Bearer ")], 401),
        ([("Authorization", "Basic czNjcmV0")], 401),
    ])
    func eitherKeyHeaderIsEnough(headers: [(String, String)], status: Int) async throws {
        try await TestServer.with(configure: { $0.apiKey = "s3cret" }, seed: importSunnydays) { server in
            let answer = try await server.request(.DELETE, "/v1/history", headers: headers)
            #expect(answer.status == status, "\(headers)")
            try OpenAPIDocument.shared.validate(answer, path: "/v1/history", method: "delete")
        }
    }
}
