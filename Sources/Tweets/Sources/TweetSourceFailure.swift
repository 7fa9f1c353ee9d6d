import Foundation

/// Why a ``TweetSource`` could not answer.
///
/// Sources throw only this type (and `CancellationError`), so callers can tell
/// a network problem from an upstream refusal, rate limiting or an unknown user.
///
/// JSON (in a stale ``Timeline``): `{"kind": "upstream", "message": "…", "status": 503}`,
/// with `status` for `upstream` and `reset_at` (ISO 8601 or `null`) for `rate_limited`.
public enum TweetSourceFailure: Error, Sendable, Hashable {
    /// The connection could not be made or broke (refused, reset, DNS, TLS, dropped mid-response).
    case connection(String)
    /// No complete answer within the request timeout.
    case timeout
    /// The upstream answered with an error status (4xx other than 429, or 5xx after the retries).
    case upstream(status: Int, problem: XAPIProblem?)
    /// The upstream's rate limit is exhausted until `resetAt` (when it said).
    case rateLimited(resetAt: Date?)
    /// The upstream does not know this username (or the account is suspended or deleted).
    case unknownUser(String)
    /// The upstream answered 2xx with a body that could not be understood.
    case malformedResponse(String)
    /// The source is not usable at all (no credentials, missing archive file).
    case unavailable(String)

    /// A stable machine-readable name: `connection`, `timeout`, `upstream`,
    /// `rate_limited`, `unknown_user`, `malformed_response` or `unavailable`.
    public var kind: String {
        switch self {
        case .connection: "connection"
        case .timeout: "timeout"
        case .upstream: "upstream"
        case .rateLimited: "rate_limited"
        case .unknownUser: "unknown_user"
        case .malformedResponse: "malformed_response"
        case .unavailable: "unavailable"
        }
    }

    /// Whether the retry policy retries it: connection errors, timeouts and 5xx.
    public var isTransient: Bool {
        switch self {
        case .connection, .timeout: true
        case .upstream(let status, _): (500...599).contains(status)
        default: false
        }
    }

    /// A one-line, human-readable reason (never contains credentials).
    public var message: String {
        switch self {
        case .connection(let reason): "connection failed: \(reason)"
        case .timeout: "the request timed out"
        case .upstream(let status, let problem):
            if let detail = problem?.detail ?? problem?.title { "upstream error \(status): \(detail)" } else { "upstream error \(status)" }
        case .rateLimited(let resetAt):
            if let resetAt { "rate limited until \(TweetDate.iso8601String(resetAt))" } else { "rate limited" }
        case .unknownUser(let username): "unknown user @\(username)"
        case .malformedResponse(let reason): "malformed response: \(reason)"
        case .unavailable(let reason): reason
        }
    }
}

extension TweetSourceFailure: CustomStringConvertible {
    /// The same as ``message``.
    public var description: String { message }
}

extension TweetSourceFailure: Codable {
    enum CodingKeys: String, CodingKey {
        case kind, message, status, problem
        case resetAt = "reset_at"
    }

    /// Encodes `kind`, `message`, and `status`/`problem` or `reset_at` when they apply.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
        switch self {
        case .upstream(let status, let problem):
            try container.encode(status, forKey: .status)
            try container.encodeIfPresent(problem, forKey: .problem)
        case .rateLimited(let resetAt):
            try container.encode(resetAt.map(TweetDate.iso8601String), forKey: .resetAt)
        default:
            break
        }
    }

    /// Decodes what ``encode(to:)`` writes: the reason of a free-text case is
    /// its message without the words ``message`` puts before it, so a decoded
    /// failure equals the one encoded and says the same.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let message = try container.decodeIfPresent(String.self, forKey: .message) ?? ""
        func reason(after prefix: String) -> String {
            message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
        }
        switch try container.decode(String.self, forKey: .kind) {
        case "connection": self = .connection(reason(after: "connection failed: "))
        case "timeout": self = .timeout
        case "upstream":
            self = .upstream(status: try container.decode(Int.self, forKey: .status),
                             problem: try container.decodeIfPresent(XAPIProblem.self, forKey: .problem))
        case "rate_limited":
            self = .rateLimited(resetAt: try container.decodeIfPresent(String.self, forKey: .resetAt).flatMap(TweetDate.parse))
        case "unknown_user": self = .unknownUser(reason(after: "unknown user @"))
        case "malformed_response": self = .malformedResponse(reason(after: "malformed response: "))
        default: self = .unavailable(message)
        }
    }
}
