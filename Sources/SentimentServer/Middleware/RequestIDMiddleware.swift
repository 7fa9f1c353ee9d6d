import Foundation
import Hummingbird
import Logging

/// Gives each request an id and logs one line per request.
///
/// The id is the client's `X-Request-ID` when it is 1–128 letters, digits, `-`,
/// `_` or `.`; otherwise Hummingbird's own (`hb.request.id`), or a new UUID. It goes into the logger's metadata
/// (`request_id`), the context (``ServerRequestContext/requestID``) and the
/// `X-Request-ID` response header. The access line — method, path, route,
/// status, duration until the body is written — is logged at `info` (`debug`
/// for `/healthz` and `/metrics`).
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    static let header = HeaderName.requestID

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let id = request.headers[Self.header].flatMap(Self.sanitized)
            ?? context.logger[metadataKey: "hb.request.id"]?.description ?? UUID().uuidString.lowercased()
        context.requestID = id
        context.logger[metadataKey: "request_id"] = .string(id)
        let start = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[Self.header] = id
        let logger = context.logger
        let quiet = request.uri.path == "/healthz" || request.uri.path == "/metrics"
        let fields: Logger.Metadata = [
            "method": .string(request.method.rawValue),
            "path": .string(request.uri.path),
            "route": .string(context.endpointPath ?? "-"),
            "status": .stringConvertible(response.status.code),
        ]
        // Logged once the body is written, so a streamed answer's line has its
        // whole duration (and says so if the stream broke off).
        response.whenBodyWritten(for: request) { failure in
            let elapsed = ContinuousClock.now - start
            var metadata = fields
            metadata["duration_ms"] = .string(String(format: "%.1f", Double(elapsed.components.attoseconds) / 1e15
                + Double(elapsed.components.seconds) * 1000))
            if let failure { metadata["body_error"] = .string(String(describing: failure)) }
            logger.log(level: quiet ? .debug : .info, "request", metadata: metadata)
        }
        return response
    }

    static func sanitized(_ value: String) -> String? {
        guard (1...128).contains(value.utf8.count),
            value.utf8.allSatisfy({ $0 < 128 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")) })
        else { return nil }
        return value
    }
}
