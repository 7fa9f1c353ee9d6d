import AsyncHTTPClient
import Foundation
import InMemoryLogging
import Logging
import Testing
@testable import Tweets

@Suite("X API client", .serialized)
struct XAPIClientTests {
    static let token = BearerToken("test-token-s3cr3t")!

    /// Runs `body` with a client for a fake server, then stops both.
    @discardableResult
    func withClient<T>(
        retry: RetryPolicy = .standard,
        timeout: Duration = .seconds(5),
        logger: Logger = testLogger,
        _ handler: @escaping @Sendable (FakeXServer.Request, Int) -> FakeXServer.Reply,
        _ body: (XAPIClient, FakeXServer, VirtualSleeper) async throws -> T
    ) async throws -> T {
        let server = try await FakeXServer.start(handler)
        let sleeper = VirtualSleeper()
        do {
            let result = try await HTTPClient.withHTTPClient { http in
                let client = XAPIClient(
                    configuration: .init(baseURL: server.baseURL, bearerToken: Self.token, requestTimeout: timeout,
                                         excludeRetweets: true, excludeReplies: true, retryPolicy: retry),
                    httpClient: http, sleeper: sleeper, logger: logger)
                return try await body(client, server, sleeper)
            }
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    // MARK: - Success

    @Test("A user is looked up with the bearer token")
    func lookUpUser() async throws {
        try await withClient({ _, _ in .respond(status: 200, body: XBodies.user()) }) { client, server, _ in
            let user = try await client.user(username: "@alice")
            #expect(user == User(id: "100", username: "Alice", displayName: "Alice Example", description: "Made up.",
                                 avatarURL: URL(string: "https://example.com/a.png")))
            let request = try #require(server.requests.first)
            #expect(request.path == "/2/users/by/username/alice")
            #expect(request.headers["authorization"] == "Bearer test-token-s3cr3t")
            #expect(request.query["user.fields"] == "description,profile_image_url")
        }
    }

    @Test("Timelines page with max_results and pagination_token")
    func pagination() async throws {
        try await withClient({ request, _ in
            request.query["pagination_token"] == nil
                ? .respond(status: 200, body: XBodies.tweets(6...10, next: "page2"))
                : .respond(status: 200, body: XBodies.tweets(1...5, next: nil))
        }) { client, server, _ in
            let first = try await client.tweets(of: alice, maxResults: 2, cursor: nil)
            #expect(first.items.map(\.id) == ["10", "9", "8", "7", "6"])
            #expect(first.items.first?.text == "tweet 10 is great & fun")
            #expect(first.items.allSatisfy { $0.authorID == alice.id && $0.language == "en" })
            #expect(first.nextCursor == "page2")
            let second = try await client.tweets(of: alice, maxResults: 500, cursor: first.nextCursor)
            #expect(second.items.count == 5)
            #expect(second.nextCursor == nil)
            let queries = server.requests.map(\.query)
            #expect(server.requests.first?.path == "/2/users/100/tweets")
            #expect(queries.map { $0["max_results"] } == ["5", "100"])
            #expect(queries.map { $0["pagination_token"] } == [nil, "page2"])
            #expect(queries.first?["tweet.fields"] == "created_at,lang,note_tweet")
            #expect(queries.first?["exclude"] == "retweets,replies")
        }
    }

    @Test("Tweets of a user whose id is not X's (an import's local:name) are unknown to X, and no request puts that id in a path")
    func madeUpUserIDIsNeverSent() async throws {
        try await withClient({ _, _ in .respond(status: 200, body: XBodies.tweets(1...5, next: nil)) }) { client, server, _ in
            for id in ["local:ghost", "12/../../2/tweets", ""] {
                let user = User(id: id, username: "ghost", displayName: "ghost")
                await #expect(throws: TweetSourceFailure.unknownUser("ghost")) {
                    try await client.tweets(of: user, maxResults: 5, cursor: "next")
                }
            }
            #expect(server.requests.isEmpty, "\(server.requests.map(\.path))")
        }
    }

    @Test("A long post is read whole from its note_tweet, asked for, not cut at X's 280 characters")
    func longPostKeepsItsFullText() async throws {
        let full = String(repeating: "What a wonderful long day at the harbour with friends. ", count: 8)
        let cut = String(full.prefix(279)) + "…"
        let body = #"{"data":[{"id":"1786000000000000001","text":"\#(cut)","note_tweet":{"text":"\#(full)"},"#
            + #""created_at":"2024-05-02T10:00:00.000Z","lang":"en"},"#
            + #"{"id":"1786000000000000000","text":"short &amp; sweet","created_at":"2024-05-02T09:00:00.000Z","lang":"en"}],"#
            + #""meta":{"result_count":2}}"#
        try await withClient({ _, _ in .respond(status: 200, body: body) }) { client, server, _ in
            let page = try await client.tweets(of: alice, maxResults: 5, cursor: nil)
            #expect(page.items.map(\.text) == [full, "short & sweet"])
            let fields = server.requests.first?.query["tweet.fields"]?.split(separator: ",").map(String.init) ?? []
            #expect(fields.contains("note_tweet"), "tweet.fields=\(fields)")
        }
    }

    @Test("A page with an emoji cut in half (a lone surrogate escape) keeps every tweet, that one with U+FFFD")
    func loneSurrogateKeepsThePage() async throws {
        let body = #"{"data":[{"id":"2","text":"cut \ud83d","created_at":"2024-05-02T10:00:00.000Z","lang":"en"},"#
            + #"{"id":"1","text":"whole \ud83d\ude00","created_at":"2024-05-02T09:00:00.000Z","lang":"en"}],"#
            + #""meta":{"result_count":2}}"#
        try await withClient({ _, _ in .respond(status: 200, body: body) }) { client, _, _ in
            let page = try await client.tweets(of: alice, maxResults: 5, cursor: nil)
            #expect(page.items.map(\.text) == ["cut \u{FFFD}", "whole 😀"])
        }
    }

    @Test("A tweet with nothing visible in its text (white space, a zero-width space) is skipped, as an import skips it, and the rest of the page is kept")
    func blankTweetsAreSkipped() async throws {
        let body = #"{"data":[{"id":"4","text":"   ","created_at":"2024-05-02T10:00:00.000Z","lang":"en"},"#
            + #"{"id":"3","text":"\u200b","created_at":"2024-05-02T09:30:00.000Z","lang":"zxx"},"#
            + #"{"id":"2","text":"\u00a0\t","created_at":"2024-05-02T09:15:00.000Z","lang":"en"},"#
            + #"{"id":"1","text":"still here","created_at":"2024-05-02T09:00:00.000Z","lang":"en"}],"#
            + #""meta":{"result_count":4,"next_token":"more"}}"#
        try await withClient({ _, _ in .respond(status: 200, body: body) }) { client, _, _ in
            let page = try await client.tweets(of: alice, maxResults: 5, cursor: nil)
            #expect(page.items.map(\.id) == ["1"])
            #expect(page.nextCursor == "more")
        }
    }

    // MARK: - Failures

    @Test("5xx then success: retried after 4 s and 8 s")
    func serverErrorsThenSuccess() async throws {
        try await withClient({ _, index in
            index < 2 ? .respond(status: index == 0 ? 503 : 502, body: "{}") : .respond(status: 200, body: XBodies.user())
        }) { client, server, sleeper in
            _ = try await client.user(username: "alice")
            #expect(server.requests.count == 3)
            #expect(sleeper.sleeps == [.seconds(4), .seconds(8)])
        }
    }

    @Test("Persistent 5xx fails as an upstream error with its status after 3 attempts")
    func persistentServerError() async throws {
        try await withClient({ _, _ in .respond(status: 500, body: #"{"title":"Internal Error"}"#) }) { client, server, sleeper in
            await #expect(throws: TweetSourceFailure.upstream(status: 500, problem: XAPIProblem(title: "Internal Error"))) {
                try await client.user(username: "alice")
            }
            #expect(server.requests.count == 3)
            #expect(sleeper.sleeps == [.seconds(4), .seconds(8)])
        }
    }

    @Test("A 4xx is not retried and its problem object is decoded")
    func unauthorized() async throws {
        try await withClient({ _, _ in .respond(status: 401, body: XBodies.unauthorized) }) { client, server, sleeper in
            await #expect(throws: TweetSourceFailure.upstream(
                status: 401, problem: XAPIProblem(title: "Unauthorized", type: "about:blank", detail: "Unauthorized", status: 401))
            ) {
                try await client.user(username: "alice")
            }
            #expect(server.requests.count == 1)
            #expect(sleeper.sleeps.isEmpty)
        }
    }

    @Test("A dropped connection is a connection error, retried")
    func droppedConnection() async throws {
        try await withClient({ _, index in index == 0 ? .drop : .respond(status: 200, body: XBodies.user()) }) {
            client, server, sleeper in
            _ = try await client.user(username: "alice")
            #expect(server.requests.count == 2)
            #expect(sleeper.sleeps == [.seconds(4)])
        }
        try await withClient(retry: .none, { _, _ in .drop }) { client, _, _ in
            await #expect {
                try await client.user(username: "alice")
            } throws: { error in
                if case .connection = error as? TweetSourceFailure { return true }
                return false
            }
        }
    }

    @Test("A refused connection fails each attempt at once and is retried by the policy alone")
    func refusedConnection() async throws {
        // The HTTP client's own retries of connection establishment are off, or each
        // attempt would take the whole 5 s connect timeout before the policy's waits.
        #expect(XAPIClient.httpConfiguration.connectionPool.retryConnectionEstablishment == false)
        let sleeper = VirtualSleeper()
        let configuration = XAPIConfiguration(baseURL: URL(string: "http://127.0.0.1:1")!, bearerToken: Self.token)
        _ = try await XAPIClient.withClient(configuration: configuration, sleeper: sleeper, logger: testLogger) { client in
            await #expect {
                try await client.user(username: "alice")
            } throws: { error in
                // The system's words for the errno, not the socket layer's.
                if case .connection(let reason) = error as? TweetSourceFailure {
                    return reason == "Connection refused (errno \(ECONNREFUSED))"
                }
                return false
            }
        }
        #expect(sleeper.sleeps == [.seconds(4), .seconds(8)])
    }

    @Test("A request with no answer times out")
    func timeout() async throws {
        try await withClient(retry: .none, timeout: .milliseconds(300), { _, _ in .hang }) { client, _, _ in
            await #expect(throws: TweetSourceFailure.timeout) { try await client.user(username: "alice") }
        }
    }

    @Test("A malformed body is reported, not retried")
    func malformedBody() async throws {
        try await withClient({ _, _ in .respond(status: 200, body: "<html>oops") }) { client, server, sleeper in
            await #expect {
                try await client.tweets(of: alice, maxResults: 10, cursor: nil)
            } throws: { error in
                if case .malformedResponse = error as? TweetSourceFailure { return true }
                return false
            }
            #expect(server.requests.count == 1)
            #expect(sleeper.sleeps.isEmpty)
        }
    }

    @Test("An unknown user is reported from an errors array, with a 200 or a 404")
    func unknownUser() async throws {
        try await withClient({ _, index in
            .respond(status: index == 0 ? 200 : 404, body: XBodies.unknownUser)
        }) { client, _, _ in
            await #expect(throws: TweetSourceFailure.unknownUser("nobody")) { try await client.user(username: "nobody") }
            await #expect(throws: TweetSourceFailure.unknownUser("nobody")) { try await client.user(username: "NoBody") }
        }
    }

    @Test("A 404 that does not say the user is not found (a wrong base URL, a proxy's page) is an upstream failure, not an unknown user")
    func bare404IsNotAnUnknownUser() async throws {
        try await withClient({ _, index in
            index == 0 ? .respond(status: 404, body: "<html>Not Found</html>") : .respond(status: 404, body: XBodies.unauthorized)
        }) { client, _, _ in
            let alice = User(id: "100", username: "alice", displayName: "Alice")
            await #expect(throws: TweetSourceFailure.upstream(status: 404, problem: nil)) {
                try await client.user(username: "alice")
            }
            await #expect(throws: TweetSourceFailure.upstream(
                status: 404, problem: XAPIProblem(title: "Unauthorized", type: "about:blank", detail: "Unauthorized", status: 401))) {
                try await client.tweets(of: alice, maxResults: 10, cursor: nil)
            }
        }
    }

    // MARK: - Rate limits

    @Test("A 429 with a near reset waits for it, then succeeds")
    func shortRateLimit() async throws {
        let reset = Int(referenceDate.timeIntervalSince1970) + 5
        try await withClient({ _, index in
            index == 0
                ? .respond(status: 429, headers: [("x-rate-limit-remaining", "0"), ("x-rate-limit-reset", "\(reset)")],
                           body: #"{"title":"Too Many Requests","status":429}"#)
                : .respond(status: 200, body: XBodies.user())
        }) { client, server, sleeper in
            _ = try await client.user(username: "alice")
            #expect(server.requests.count == 2)
            #expect(sleeper.sleeps == [.seconds(5)])
        }
    }

    @Test("A 429 with a far reset reports rate limiting with the reset time")
    func longRateLimit() async throws {
        let reset = Int(referenceDate.timeIntervalSince1970) + 900
        try await withClient({ _, _ in
            .respond(status: 429, headers: [("x-rate-limit-remaining", "0"), ("x-rate-limit-reset", "\(reset)")], body: "{}")
        }) { client, server, sleeper in
            await #expect(throws: TweetSourceFailure.rateLimited(resetAt: Date(timeIntervalSince1970: Double(reset)))) {
                try await client.user(username: "alice")
            }
            #expect(server.requests.count == 1)
            #expect(sleeper.sleeps.isEmpty)
        }
    }

    @Test("A 429 whose reset is not a time a tweet can have is rate limiting without a reset, not a crash", arguments: [
        "1e16", "-1e16", "inf", "nan", "1e400", "soon",
    ])
    func unreadableRateLimitReset(reset: String) async throws {
        try await withClient({ _, _ in
            .respond(status: 429, headers: [("x-rate-limit-remaining", "0"), ("x-rate-limit-reset", reset)], body: "{}")
        }) { client, server, sleeper in
            await #expect(throws: TweetSourceFailure.rateLimited(resetAt: nil)) {
                try await client.user(username: "alice")
            }
            #expect(server.requests.count == 1)
            #expect(sleeper.sleeps.isEmpty)
        }
    }

    @Test("A request timeout too long for NIO's nanoseconds is taken as a year, not a trap")
    func hugeRequestTimeout() async throws {
        try await withClient(timeout: .seconds(Int64.max), { _, _ in .respond(status: 200, body: XBodies.user()) }) { client, server, _ in
            _ = try await client.user(username: "alice")
            #expect(server.requests.count == 1)
        }
    }

    @Test("A spent budget stops requests until the reset, without calling X")
    func spentBudget() async throws {
        let reset = Int(referenceDate.timeIntervalSince1970) + 600
        try await withClient({ _, _ in
            .respond(status: 200, headers: [("x-rate-limit-remaining", "0"), ("x-rate-limit-reset", "\(reset)")],
                     body: XBodies.user())
        }) { client, server, _ in
            _ = try await client.user(username: "alice")
            await #expect(throws: TweetSourceFailure.rateLimited(resetAt: Date(timeIntervalSince1970: Double(reset)))) {
                try await client.user(username: "alice")
            }
            #expect(server.requests.count == 1)
        }
    }

    // MARK: - Service over the fake server

    @Test("The service answers stale from the store when the X API goes down")
    func serviceStaleWhenDown() async throws {
        let down = LockedFlag()
        try await withStore { store, _ async throws in
            try await withClient({ request, _ in
                if down.value { return .respond(status: 503, body: #"{"title":"Service Unavailable"}"#) }
                return request.path.hasPrefix("/2/users/by/")
                    ? .respond(status: 200, body: XBodies.user())
                    : .respond(status: 200, body: XBodies.tweets(1...3, next: nil))
            }) { client, _, _ in
                let classifier = CountingClassifier()
                let service = TweetService(store: store, source: client, classifier: classifier, logger: testLogger)
                let fresh = try await service.timeline(username: "alice")
                #expect(fresh.tweets.map(\.theme) == [.happy, .happy, .happy])
                down.value = true
                let stale = try await service.timeline(username: "alice")
                #expect(stale.failure?.kind == "upstream")
                #expect(stale.tweets == fresh.tweets)
                #expect(classifier.classifiedCount == 3)
            }
        }
    }

    @Test("The bearer token never reaches the logs")
    func tokenNotLogged() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "test", factory: { _ in logs })
        logger.logLevel = .trace
        try await withClient(logger: logger, { _, index in
            index == 0 ? .respond(status: 500, body: "{}") : .respond(status: 200, body: XBodies.user())
        }) { client, _, _ in
            _ = try await client.user(username: "alice")
        }
        let lines = logs.entries.map { "\($0.level) \($0.message) \($0.metadata)" }
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { !$0.contains("s3cr3t") })
    }
}

final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var _value = false
    var value: Bool {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
}

