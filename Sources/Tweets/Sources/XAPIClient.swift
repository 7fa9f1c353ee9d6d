import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// A ``TweetSource`` over the X API v2, with an app-only bearer token.
///
/// Calls `GET /2/users/by/username/:username` and `GET /2/users/:id/tweets`
/// (`max_results` 5–100, `pagination_token`, `tweet.fields=created_at,lang,note_tweet`,
/// optional `exclude=retweets,replies`). Every request has a timeout
/// (``XAPIConfiguration/requestTimeout``) and is retried by the configuration's
/// ``RetryPolicy``. The `x-rate-limit-remaining` / `x-rate-limit-reset` headers
/// are remembered per endpoint: when a limit is spent, the next request waits
/// for the reset if it is near, else fails with
/// ``TweetSourceFailure/rateLimited(resetAt:)`` without calling X.
///
/// The token is never logged. The client does not own the `HTTPClient`: the
/// caller shuts it down (or uses `HTTPClient.shared`, or `HTTPClient.withHTTPClient`).
///
/// ```swift
/// try await HTTPClient.withHTTPClient { http in
///     let x = XAPIClient(configuration: .init(bearerToken: token), httpClient: http, logger: logger)
///     let user = try await x.user(username: "XDevelopers")
///     let page = try await x.tweets(of: user, maxResults: 20, cursor: nil)
/// }
/// ```
public actor XAPIClient: TweetSource {
    /// The largest body accepted: 8 MiB (a full page is about 100 kB).
    static let maximumBodySize = 8 << 20

    private let configuration: XAPIConfiguration
    private let httpClient: HTTPClient
    private let sleeper: any Sleeper
    private let baseLogger: Logger
    /// The calling request's logger (``RequestLogger/current``) when one is bound, else the client's own.
    private var logger: Logger { RequestLogger.current ?? baseLogger }
    private var limits: [String: RateLimit] = [:]

    private struct RateLimit {
        var remaining: Int
        var resetAt: Date
    }

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: base URL, token, timeout, retries.
    ///   - httpClient: the HTTP client to send requests with (not shut down by this type).
    ///   - sleeper: the clock for retry delays and rate-limit waits.
    ///   - logger: receives request outcomes at `debug` and retries at `notice`,
    ///     unless the caller binds a request's logger to ``RequestLogger/current``.
    public init(
        configuration: XAPIConfiguration,
        httpClient: HTTPClient = .shared,
        sleeper: any Sleeper = SystemSleeper(),
        logger: Logger
    ) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.sleeper = sleeper
        self.baseLogger = logger
    }

    // MARK: - TweetSource

    /// `GET /2/users/by/username/:username` with `user.fields=description,profile_image_url`.
    ///
    /// - Throws: ``TweetSourceFailure/unknownUser(_:)`` when X answers a
    ///   "resource not found/unavailable" error (with a 200 or a 404); other
    ///   ``TweetSourceFailure``s, among them `upstream(status: 404, …)` for a 404
    ///   that does not say so (a wrong base URL, a proxy's page): that is not
    ///   an answer about the user.
    public func user(username: String) async throws -> User {
        let key = User.key(for: username)
        guard User.isValidUsername(key) else { throw TweetSourceFailure.unknownUser(key) }
        let body: ByteBuffer
        do {
            body = try await get("/2/users/by/username/\(key)", query: [("user.fields", "description,profile_image_url")],
                                 endpoint: "users/by/username")
        } catch TweetSourceFailure.upstream(status: 404, let problem?) where problem.isResourceNotFound {
            throw TweetSourceFailure.unknownUser(key)
        }
        let response = try decode(XUserResponse.self, from: body)
        if let data = response.data { return data.user }
        if let errors = response.errors, errors.contains(where: \.isResourceNotFound) {
            throw TweetSourceFailure.unknownUser(key)
        }
        throw TweetSourceFailure.malformedResponse("user response without data")
    }

    /// `GET /2/users/:id/tweets` with `tweet.fields=created_at,lang,note_tweet`.
    ///
    /// `maxResults` is clamped to X's 5…100. The page's `nextCursor` is X's `meta.next_token`.
    /// A long post's text is its `note_tweet` text, whole (X's `text` stops at 280 characters).
    /// A user whose id is not X's (decimal digits: a made-up `local:name`, an
    /// archive's odd id) is unknown to X, and no request is sent with that id
    /// in its path.
    public func tweets(of user: User, maxResults: Int, cursor: String?) async throws -> Page<Tweet> {
        guard !user.id.isEmpty, user.id.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw TweetSourceFailure.unknownUser(user.username)
        }
        var query = [("max_results", String(min(100, max(5, maxResults)))), ("tweet.fields", "created_at,lang,note_tweet")]
        let exclusions = [configuration.excludeRetweets ? "retweets" : nil, configuration.excludeReplies ? "replies" : nil]
            .compactMap { $0 }
        if !exclusions.isEmpty { query.append(("exclude", exclusions.joined(separator: ","))) }
        if let cursor { query.append(("pagination_token", cursor)) }
        let body: ByteBuffer
        do {
            body = try await get("/2/users/\(user.id)/tweets", query: query, endpoint: "users/tweets")
        } catch TweetSourceFailure.upstream(status: 404, let problem?) where problem.isResourceNotFound {
            throw TweetSourceFailure.unknownUser(user.username)
        }
        let response = try decode(XTweetsResponse.self, from: body)
        if response.data == nil, let errors = response.errors, errors.contains(where: \.isResourceNotFound) {
            throw TweetSourceFailure.unknownUser(user.username)
        }
        let tweets = try (response.data ?? []).compactMap { try $0.tweet(defaultAuthorID: user.id) }
        return Page(items: tweets, nextCursor: response.meta?.next_token)
    }

    // MARK: - Requests

    private func get(_ path: String, query: [(String, String)], endpoint: String) async throws -> ByteBuffer {
        guard var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false) else {
            throw TweetSourceFailure.unavailable("invalid X API base URL")
        }
        components.path = components.path.hasSuffix("/") ? String(components.path.dropLast()) + path : components.path + path
        components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        guard let url = components.string else { throw TweetSourceFailure.unavailable("invalid X API URL") }

        return try await configuration.retryPolicy.run(sleeper: sleeper, logger: logger) {
            try await self.waitForRateLimitBudget(endpoint: endpoint)
            return try await self.send(url: url, path: path, endpoint: endpoint)
        }
    }

    /// Sends one request; maps every outcome other than 2xx to a ``TweetSourceFailure``.
    private func send(url: String, path: String, endpoint: String) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "Authorization", value: "Bearer \(configuration.bearerToken.value)")
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Accept", value: "application/json")

        // A timeout beyond a year is no timeout; NIO's nanoseconds are an Int64.
        let timeout = TimeAmount.nanoseconds(Int64(max(0, min(configuration.requestTimeout.seconds, 31_536_000)) * 1e9))
        let started = ContinuousClock.now
        let status: HTTPResponseStatus
        let headers: HTTPHeaders
        let body: ByteBuffer
        do {
            let response = try await httpClient.execute(request, deadline: .now() + timeout, logger: logger)
            status = response.status
            headers = response.headers
            body = try await response.body.collect(upTo: Self.maximumBodySize)
        } catch {
            let failure = try Self.failure(for: error)
            logger.debug("X API request failed", metadata: ["path": "\(path)", "failure": "\(failure.kind)"])
            throw failure
        }
        logger.debug("X API response", metadata: [
            "path": "\(path)", "status": "\(status.code)", "ms": "\((ContinuousClock.now - started).seconds * 1000)",
        ])
        recordRateLimit(headers, endpoint: endpoint)

        switch status.code {
        case 200..<300:
            return body
        case 429:
            throw TweetSourceFailure.rateLimited(resetAt: Self.resetDate(headers))
        default:
            let problem = (try? JSONDecoder().decode(XProblemBody.self, from: Data(body.readableBytesView)))?.problem
            throw TweetSourceFailure.upstream(status: Int(status.code), problem: problem)
        }
    }

    /// Classifies a transport error; rethrows cancellation as `CancellationError`.
    static func failure(for error: any Error) throws -> TweetSourceFailure {
        if let failure = error as? TweetSourceFailure { return failure }
        if error is CancellationError { throw error }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled:
                throw CancellationError()
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .getConnectionFromPoolTimeout,
                .tlsHandshakeTimeout:
                return .timeout
            default:
                return .connection(error.shortDescription)
            }
        }
        if error is NIOTooManyBytesError {
            return .malformedResponse("response body larger than \(maximumBodySize) bytes")
        }
        if let error = error as? IOError {
            // The system's words for the errno ("Connection refused"), without
            // the socket layer's wording around them.
            let reason = strerror(error.errnoCode).map { String(cString: $0) } ?? "error"
            return .connection("\(reason) (errno \(error.errnoCode))")
        }
        return .connection(String(describing: error))
    }

    private func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer) throws -> T {
        do {
            // One emoji cut in half in one tweet must not lose the page.
            return try LoneSurrogateEscapes.decode(type, from: Data(body.readableBytesView))
        } catch {
            throw TweetSourceFailure.malformedResponse("body is not the expected JSON (\(body.readableBytes) bytes)")
        }
    }

    // MARK: - Rate limits

    private func recordRateLimit(_ headers: HTTPHeaders, endpoint: String) {
        guard let remaining = headers.first(name: "x-rate-limit-remaining").flatMap({ Int($0) }),
            let resetAt = Self.resetDate(headers)
        else { return }
        limits[endpoint] = RateLimit(remaining: remaining, resetAt: resetAt)
    }

    /// Before a request: when the endpoint's budget is spent and the reset is
    /// ahead, wait for it if the policy allows, else fail without calling X.
    private func waitForRateLimitBudget(endpoint: String) async throws {
        guard let limit = limits[endpoint], limit.remaining <= 0 else { return }
        let now = sleeper.now()
        guard limit.resetAt > now else {
            limits[endpoint] = nil
            return
        }
        guard let wait = configuration.retryPolicy.rateLimitWait(until: limit.resetAt, now: now) else {
            throw TweetSourceFailure.rateLimited(resetAt: limit.resetAt)
        }
        logger.notice("rate limit spent, waiting for the reset", metadata: ["delay_s": "\(wait.seconds)"])
        try await sleeper.sleep(for: wait, reason: .rateLimit)
        limits[endpoint] = nil
    }

    /// `x-rate-limit-reset`: Unix seconds; `nil` when absent, not a number or
    /// outside years 0 to 9999 (``TweetDate/earliest`` … ``TweetDate/latest``).
    static func resetDate(_ headers: HTTPHeaders) -> Date? {
        guard let seconds = headers.first(name: "x-rate-limit-reset").flatMap({ Double($0) }),
            seconds >= TweetDate.earliest.timeIntervalSince1970, seconds <= TweetDate.latest.timeIntervalSince1970
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}

extension XAPIClient {
    /// The HTTP client settings ``withClient(configuration:sleeper:logger:_:)`` uses:
    /// 5 s to connect, 10 s without a byte while reading. A refused connection
    /// fails the attempt at once (`retryConnectionEstablishment` off): the
    /// ``RetryPolicy`` alone decides whether and when to try again, so a user
    /// waits the policy's 4 s and 8 s, not another 5 s of the HTTP client's own
    /// retries inside each attempt.
    public static var httpConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5), read: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Runs `body` with a client over a new `HTTPClient`, shut down when `body` returns or throws.
    ///
    /// ```swift
    /// let timeline = try await XAPIClient.withClient(configuration: .init(bearerToken: token), logger: logger) { x in
    ///     try await TweetService(store: store, source: x, classifier: model, logger: logger).timeline(username: "jack")
    /// }
    /// ```
    public static func withClient<Result>(
        configuration: XAPIConfiguration,
        sleeper: any Sleeper = SystemSleeper(),
        logger: Logger,
        _ body: (XAPIClient) async throws -> Result
    ) async throws -> Result {
        try await HTTPClient.withHTTPClient(configuration: httpConfiguration) { http in
            try await body(XAPIClient(configuration: configuration, httpClient: http, sleeper: sleeper, logger: logger))
        }
    }
}
