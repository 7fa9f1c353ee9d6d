import Hummingbird
import Logging
import NIOHTTP1
import Tweets

/// Turns every error into an `application/problem+json` response.
///
/// ``Problem``s are answered as they are; Hummingbird's `HTTPError`s (a route
/// not found, a body over the limit) keep their status; a request whose body
/// breaks HTTP's framing or ends early (NIO's `HTTPParserError`) is a 400
/// `malformed-request`, the client's fault; a database whose write lock
/// another process holds past the busy timeout is a 503 `database-busy`
/// with `Retry-After`; a database file replaced or removed while the
/// server had it open is a 503 `database-replaced`; anything else is a
/// 500 whose detail goes to the log, not the client. 5xx answers are logged
/// (``logLevel(for:)``).
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Self.problem(for: error, path: request.uri.path)
            if let level = Self.logLevel(for: problem) {
                context.logger.log(level: level, "request failed", metadata: ["error": "\(Self.logged(error))"])
            }
            return problem.response(instance: request.uri.path, requestID: context.requestID)
        }
    }

    /// How a problem is logged: an expected upstream failure (502
    /// `upstream-failed`: the X API is down and nothing is stored) or a
    /// database another process locks (503 `database-busy`) at `warning`,
    /// other 5xx — the server's own failures — at `error`, 4xx not at all.
    static func logLevel(for problem: Problem) -> Logger.Level? {
        switch problem.status.code {
        case ..<500: nil
        case 502 where problem.code == "upstream-failed": .warning
        case 503 where problem.code == Problem.databaseBusy.code: .warning
        default: .error
        }
    }

    /// How `error` reads in the log: a ``Problem`` as its code and detail
    /// ("upstream-failed: the X API failed (HTTP 503) …"), anything else in
    /// full, for the server's own failures to be found.
    static func logged(_ error: any Error) -> String {
        guard let problem = error as? Problem else { return String(reflecting: error) }
        return "\(problem.code): \(problem.detail ?? problem.title)"
    }

    static func problem(for error: any Error, path: String) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as HTTPError:
            switch error.status {
            case .notFound: return .notFound(path)
            case .contentTooLarge: return Problem(status: .contentTooLarge, code: "body-too-large", title: "Request body too large",
                                                  detail: error.body)
            default:
                return Problem(status: error.status, code: "http-\(error.status.code)", title: error.status.reasonPhrase,
                               detail: error.body)
            }
        case let error as HTTPParserError:
            let detail = error == .invalidEOFState
                ? "the connection closed before the request's body ended"
                : "the request's HTTP framing is malformed (\(error))"
            return .malformedRequest(detail)
        case let error where TweetStore.isBusy(error):
            return .databaseBusy
        case TweetStoreError.replacedWhileOpen(let removed):
            return .databaseReplaced(removed: removed)
        default:
            return .internalError
        }
    }
}
