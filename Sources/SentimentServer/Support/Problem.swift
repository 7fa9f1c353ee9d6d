import Foundation
import Hummingbird
import Tweets

/// An error answered as `application/problem+json` (RFC 9457).
///
/// ```json
/// {"type": "urn:swift-sentiment:problem:too-many-items", "title": "Too many items",
///  "status": 413, "detail": "1001 items; at most 1000 per request", "instance": "/v1/classify",
///  "request_id": "5f0c…", "limit": 1000}
/// ```
///
/// `type` is a stable URN whose last part is the machine-readable code (also in `code`).
public struct Problem: Error, Sendable, Hashable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The stable code, e.g. `too-many-items`; `type` is `urn:swift-sentiment:problem:<code>`.
    public var code: String
    /// A short, fixed summary of the problem type.
    public var title: String
    /// What went wrong with this request, for a person.
    public var detail: String?
    /// The limit that was exceeded, for 413s.
    public var limit: Int?
    /// The upstream failure, for 502s.
    public var failure: TweetSourceFailure?

    /// Creates a problem.
    public init(status: HTTPResponse.Status, code: String, title: String, detail: String? = nil, limit: Int? = nil,
                failure: TweetSourceFailure? = nil) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.limit = limit
        self.failure = failure
    }

    /// The `type` URI: `urn:swift-sentiment:problem:<code>`.
    public var type: String { "urn:swift-sentiment:problem:\(code)" }

    /// `application/problem+json`.
    public static let contentType = "application/problem+json"

    /// The body, with `instance` (the request path) and `request_id`.
    func body(instance: String?, requestID: String?) -> Body {
        Body(type: type, code: code, title: title, status: Int(status.code), detail: detail, instance: instance,
             requestID: requestID, limit: limit, failure: failure)
    }

    /// The response for a request.
    func response(instance: String?, requestID: String?) -> Response {
        let data = (try? JSONCoding.encoder.encode(body(instance: instance, requestID: requestID))) ?? Data()
        var headers = HTTPFields()
        headers[.contentType] = Self.contentType
        if status == .unauthorized { headers[.wwwAuthenticate] = #"Bearer realm="swift-sentiment""# }
        // RFC 9110 §12.5.3: a 415 for a content coding says which codings are taken.
        if code == "unsupported-content-encoding" { headers[.acceptEncoding] = "identity" }
        if code == Self.databaseBusy.code { headers[.retryAfter] = String(Self.databaseBusyRetryAfter) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The JSON shape.
    struct Body: Codable, Hashable {
        var type: String
        var code: String
        var title: String
        var status: Int
        var detail: String?
        var instance: String?
        var requestID: String?
        var limit: Int?
        var failure: TweetSourceFailure?

        enum CodingKeys: String, CodingKey {
            case type, code, title, status, detail, instance, limit, failure
            case requestID = "request_id"
        }
    }
}

extension Problem {
    /// 400: the body is not JSON, or not the expected shape.
    static func malformedBody(_ detail: String) -> Problem {
        Problem(status: .badRequest, code: "malformed-body", title: "Malformed request body", detail: detail)
    }

    /// 400: the request's HTTP framing or head cannot be parsed.
    static func malformedRequest(_ detail: String) -> Problem {
        Problem(status: .badRequest, code: "malformed-request", title: "Malformed request", detail: detail)
    }

    /// 431: the request line and headers are larger than the HTTP parser reads
    /// (RFC 6585 §5); the parser does not say which, so a long URL is one too.
    static func headTooLarge(_ detail: String) -> Problem {
        Problem(status: .requestHeaderFieldsTooLarge, code: "head-too-large", title: "Request head too large",
                detail: detail)
    }

    /// 400: the `Host` header is missing from an HTTP/1.1 request, repeated, or not a host.
    static func invalidHost(_ detail: String) -> Problem {
        Problem(status: .badRequest, code: "invalid-host", title: "Invalid Host header", detail: detail)
    }

    /// 421: a loopback server was asked for another host (``HostMiddleware``).
    static func misdirectedRequest(host: String) -> Problem {
        Problem(status: .misdirectedRequest, code: "misdirected-request", title: "Misdirected request",
                detail: "this server listens on loopback and answers only a loopback host "
                    + "(localhost, 127.0.0.1, [::1]), not '\(host)'")
    }

    /// 400: a query parameter or path segment is not valid.
    static func invalidParameter(_ detail: String) -> Problem {
        Problem(status: .badRequest, code: "invalid-parameter", title: "Invalid parameter", detail: detail)
    }

    /// 413: the body is larger than the limit.
    static func bodyTooLarge(limit: Int) -> Problem {
        Problem(status: .contentTooLarge, code: "body-too-large", title: "Request body too large",
                detail: "the body is larger than \(limit) bytes", limit: limit)
    }

    /// 413: more items than the limit.
    static func tooManyItems(_ count: Int, limit: Int) -> Problem {
        Problem(status: .contentTooLarge, code: "too-many-items", title: "Too many items",
                detail: "\(count) items; at most \(limit) per request", limit: limit)
    }

    /// 415: a content type the endpoint does not read.
    static func unsupportedMediaType(_ type: String) -> Problem {
        Problem(status: .unsupportedMediaType, code: "unsupported-media-type", title: "Unsupported media type",
                detail: "'\(type)' is neither application/json nor application/x-ndjson; send one of them as the Content-Type")
    }

    /// 415: a body in a content coding the server does not decode (`gzip`, …).
    static func unsupportedContentEncoding(_ coding: String) -> Problem {
        Problem(status: .unsupportedMediaType, code: "unsupported-content-encoding", title: "Unsupported content encoding",
                detail: "the body is sent in the content coding '\(coding)'; send it uncompressed (identity)")
    }

    /// 401: the write endpoint needs the API key.
    static let unauthorized = Problem(
        status: .unauthorized, code: "unauthorized", title: "API key required",
        detail: "send the server's API key as 'Authorization: Bearer KEY' or 'X-API-Key: KEY'")

    /// 404: no such route or file.
    static func notFound(_ path: String) -> Problem {
        Problem(status: .notFound, code: "not-found", title: "Not found", detail: "no resource at \(path)")
    }

    /// 409: a write to a database the server may only read (`serve --offline` on a read-only file).
    static let readOnlyDatabase = Problem(
        status: .conflict, code: "read-only-database", title: "Read-only database",
        detail: "the search history cannot be cleared: this server reads its database without writing to it (a file it may not write, served offline)")

    /// 503: another process holds the database's write lock past the busy
    /// timeout (10 s), so what the request writes (what it fetched or
    /// classified, or the cleared history) cannot be written; answered with
    /// `Retry-After` (``databaseBusyRetryAfter``).
    static let databaseBusy = Problem(
        status: .serviceUnavailable, code: "database-busy", title: "Database busy",
        detail: "another process holds the database's write lock, so what this request writes (the tweets fetched and their labels, "
            + "or the cleared search history) cannot be written; try again later")

    /// The `Retry-After` of ``databaseBusy``, in seconds: as long as the server waited for the lock.
    static let databaseBusyRetryAfter = 10

    /// 503: the database file was moved away, copied over or removed while
    /// the server had it open, so the server reads and writes it no more
    /// (``TweetStoreError/replacedWhileOpen(removed:)``) until it is started again.
    static func databaseReplaced(removed: Bool) -> Problem {
        Problem(status: .serviceUnavailable, code: "database-replaced", title: "Database replaced",
                detail: "the database file was \(removed ? "removed" : "replaced by another") while the server had it open, "
                    + "so the server no longer reads or writes it: restart the server to use the file now at its path")
    }

    /// 500: a bug or an unexpected failure; the detail stays in the logs.
    static let internalError = Problem(status: .internalServerError, code: "internal-error", title: "Internal server error",
                                       detail: "see the server's log for this request id")
}
