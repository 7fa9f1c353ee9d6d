import Hummingbird
import Logging

/// Turns every error into an `application/problem+json` response.
///
/// ``Problem``s are answered as they are; Hummingbird's `HTTPError`s (a route
/// not found, a body over the limit) keep their status; anything else is a
/// 500 whose detail goes to the log, not the client.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Self.problem(for: error, path: request.uri.path)
            if problem.status.code >= 500 {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            return problem.response(instance: request.uri.path, requestID: context.requestID)
        }
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
        default:
            return .internalError
        }
    }
}
