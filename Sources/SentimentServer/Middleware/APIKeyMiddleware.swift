import Foundation
import Hummingbird

/// Requires the server's API key on the routes it guards (the write endpoints).
///
/// The key is read from `Authorization: Bearer KEY` and from `X-API-Key: KEY`:
/// the request passes when either carries the right key (a wrong or empty
/// `X-API-Key`, which a proxy or a client default may add, does not hide a
/// right `Authorization`, nor the other way round). Every key presented is
/// compared, each in constant time. A missing or wrong key is answered `401`
/// with a problem body. With no key configured (a loopback-only server, see
/// ``ServerConfiguration/validate()``) every request passes.
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    static let header = HeaderName.apiKey

    let apiKey: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let apiKey else { return try await next(request, context) }
        let expected = Array(apiKey.utf8)
        var accepted = false
        for given in Self.presentedKeys(request.headers) {
            // Every key is compared, so the time taken does not tell which header matched.
            accepted = Self.constantTimeEquals(Array(given.utf8), expected) || accepted
        }
        guard accepted else {
            context.logger.notice("write refused: missing or wrong API key")
            throw Problem.unauthorized
        }
        return try await next(request, context)
    }

    /// The keys a request presents: each `X-API-Key` value, then each
    /// `Authorization: Bearer` credentials (the scheme in any case).
    static func presentedKeys(_ headers: HTTPFields) -> [String] {
        let bearer = headers[values: .authorization].compactMap { authorization -> String? in
            guard authorization.lowercased().hasPrefix("bearer ") else { return nil }
            return String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        }
        return headers[values: Self.header] + bearer
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
