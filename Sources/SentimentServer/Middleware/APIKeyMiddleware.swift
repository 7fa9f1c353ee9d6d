import Foundation
import Hummingbird

/// Requires the server's API key on the routes it guards (the write endpoints).
///
/// The key is read from `Authorization: Bearer KEY` or `X-API-Key: KEY` and
/// compared in constant time. A missing or wrong key is answered `401` with a
/// problem body. With no key configured (a loopback-only server, see
/// ``ServerConfiguration/validate()``) every request passes.
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    static let header = HeaderName.apiKey

    let apiKey: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let apiKey else { return try await next(request, context) }
        var given = request.headers[Self.header]
        if given == nil, let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") {
            given = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        }
        guard let given, Self.constantTimeEquals(Array(given.utf8), Array(apiKey.utf8)) else {
            context.logger.notice("write refused: missing or wrong API key")
            throw Problem.unauthorized
        }
        return try await next(request, context)
    }

    /// Compares without an early exit, so the time taken does not reveal how much of the key matched.
    static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference = UInt8(lhs.count == rhs.count ? 0 : 1)
        for index in 0..<max(lhs.count, rhs.count) {
            let a = index < lhs.count ? lhs[index] : 0
            let b = index < rhs.count ? rhs[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }
}
