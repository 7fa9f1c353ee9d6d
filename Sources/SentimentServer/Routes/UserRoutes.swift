import Foundation
import Hummingbird
import Logging
import Tweets

/// `GET /v1/users?query=` (search as you type) and
/// `GET /v1/users/{username}/tweets?cursor=&limit=&offline=1` (a page of a timeline;
/// a `HEAD` of it answers from the store, as `offline=1`, and records no search).
struct UserRoutes {
    let services: ServerServices
    let options: TweetService.Options
    let offline: Bool

    func register(on router: Router<ServerRequestContext>) {
        router.get("/v1/users") { request, context in
            try await search(request, context: context)
        }
        router.get("/v1/users/{username}/tweets") { request, context in
            try await tweets(request, context: context)
        }
    }

    /// `{"query": "…", "users": [User…], "recent": [SearchHistoryEntry…]}`: stored
    /// users whose username or name starts with the query, then the searched
    /// usernames that start with it (all of them for an empty query), most recent first.
    func search(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let query = try request.formQueryParameter("query") ?? ""
        // Code points, as openapi.json's `maxLength` counts them (JSON Schema),
        // not grapheme clusters: "e" and a combining accent are two.
        let length = query.unicodeScalars.count
        guard length <= TweetStore.maximumPrefixLength else {
            throw Problem.invalidParameter(
                "query must be at most \(TweetStore.maximumPrefixLength) characters (code points), not \(length)")
        }
        let limit = try Self.limit(request, default: 10, maximum: 50)
        let service = TweetService(store: services.store, source: nil, classifier: services.classifier, options: options,
                                   logger: context.logger)
        let users = try await service.searchUsers(prefix: query, limit: limit)
        let key = User.key(for: query)
        let recent = try await service.searchHistory().filter { key.isEmpty || User.key(for: $0.username).hasPrefix(key) }
        return try Self.json(UserSearch(query: query, users: users, recent: Array(recent.prefix(limit))))
    }

    /// The ``Tweets/Timeline`` JSON: `{"user", "tweets", "next_cursor", "stale", "failure"}`.
    func tweets(_ request: Request, context: ServerRequestContext) async throws -> Response {
        // Hummingbird hands path parameters over as sent: `%40name` is `@name`.
        let rawUsername = try context.parameters.require("username")
        let username = rawUsername.removingPercentEncoding ?? rawUsername
        let cursor = request.uri.queryParameters.get("cursor").flatMap { $0.isEmpty ? nil : $0 }
        let limit = try Self.limit(request, default: options.pageSize, maximum: 100)
        let offlineParameter = try Self.offline(request)
        // HEAD is safe: it asks the store alone and is not a search for the history.
        let isHead = request.method == .head
        let counting = CountingClassifier(services.classifier)
        // Why the store alone answers, if it does: a 404's detail names it.
        let storeOnly: StoreOnlyReason? = offline ? .serverOffline : isHead ? .head : offlineParameter ? .offlineParameter : nil
        let service = TweetService(store: services.store, source: storeOnly != nil ? nil : services.source,
                                   classifier: counting, options: options, logger: context.logger)
        let timeline: Timeline
        do {
            timeline = try await service.timeline(username: username, cursor: cursor, limit: limit, recordsSearch: !isHead)
        } catch let error as TweetServiceError {
            throw Self.problem(for: error, storeOnly: storeOnly)
        }
        let metrics = services.metrics
        metrics.recordClassified(counting.classified, endpoint: "timeline")
        metrics.tweetsServed.increment(by: timeline.tweets.count)
        // Texts classified include fetched tweets beyond this page; hits count the page alone.
        metrics.cacheHits.increment(by: timeline.tweets.count - timeline.newlyClassified)
        if timeline.isStale { metrics.staleAnswers.increment() }
        return try Self.json(timeline)
    }

    /// Why a timeline is read from the store alone, without asking the X API.
    enum StoreOnlyReason: Sendable {
        /// `sentiment serve --offline`.
        case serverOffline
        /// `?offline=1` (or `true`, `yes`).
        case offlineParameter
        /// A `HEAD` request, which is safe: it never asks the X API.
        case head

        /// The end of a `nothing-stored` detail: "nothing is stored for @name …".
        var clause: String {
            switch self {
            case .serverOffline: "and the server is offline"
            case .offlineParameter: "and offline=1 asks the store alone, not the X API"
            case .head: "and a HEAD request asks the store alone, not the X API"
            }
        }
    }

    /// The problem of a timeline's error; `storeOnly` says why the X API was
    /// not asked, for `nothing-stored` (`nil`: it was, and the walk had ended).
    static func problem(for error: TweetServiceError, storeOnly: StoreOnlyReason?) -> Problem {
        switch error {
        case .invalidUsername(let text):
            Problem(status: .badRequest, code: "invalid-username", title: "Not a username",
                    detail: "'\(text)' is not a username (1–50 letters, digits or _)")
        case .invalidCursor:
            Problem(status: .badRequest, code: "invalid-cursor", title: "Invalid cursor",
                    detail: "the cursor was not produced by this server for this user's tweets; start again without one")
        case .unknownUser(let username):
            Problem(status: .notFound, code: "unknown-user", title: "Unknown user", detail: "the X API has no user @\(username)")
        case .nothingStored(let username, nil):
            Problem(status: .notFound, code: "nothing-stored", title: "Nothing stored",
                    detail: "nothing is stored for @\(username)" + (storeOnly.map { " \($0.clause)" } ?? ""))
        case .nothingStored(let username, let failure?):
            Problem(status: .badGateway, code: "upstream-failed", title: "Upstream failed",
                    detail: "\(Self.xAPIFailed(failure)) and nothing is stored for @\(username)", failure: failure)
        case .ownerRequired:
            Problem(status: .badRequest, code: "owner-required", title: "Owner required", detail: error.description)
        }
    }

    /// What became of the X API, for a 502's detail: "the X API failed
    /// (upstream error 503)", or, when it was never asked (no token), "the X
    /// API cannot be asked (no X API token: set X_BEARER_TOKEN)".
    static func xAPIFailed(_ failure: TweetSourceFailure) -> String {
        if case .unavailable = failure { return "the X API cannot be asked (\(failure.message))" }
        return "the X API failed (\(failure.message))"
    }

    static func limit(_ request: Request, default value: Int, maximum: Int) throws -> Int {
        guard let text = request.uri.queryParameters.get("limit") else { return value }
        guard let number = Int(text), (1...maximum).contains(number) else {
            throw Problem.invalidParameter("limit must be a whole number from 1 to \(maximum), not '\(text)'")
        }
        return number
    }

    /// The `offline` query parameter: `1`, `true`, `yes` (any case) for
    /// offline; `0`, `false`, `no` or none for not; anything else is a 400.
    static func offline(_ request: Request) throws -> Bool {
        guard let text = request.uri.queryParameters.get("offline") else { return false }
        switch text.lowercased() {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw Problem.invalidParameter("offline must be 1, true, yes, 0, false or no, not '\(text)'")
        }
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers,
                        body: .init(byteBuffer: ByteBuffer(bytes: try JSONCoding.encoder.encode(value))))
    }
}

/// `GET /v1/users` answer.
struct UserSearch: Encodable {
    var query: String
    var users: [User]
    var recent: [SearchHistoryEntry]
}
