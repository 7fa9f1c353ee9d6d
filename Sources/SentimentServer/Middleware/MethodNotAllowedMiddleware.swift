import Hummingbird

/// Answers `405 Method Not Allowed`, with `Allow`, when a path has routes but
/// none for the request's method (`POST /healthz`, `DELETE /v1/classify`).
///
/// Hummingbird's router answers such a request as if the path did not exist
/// (404). Added after every route, this middleware wraps only that not-found
/// answer: it looks the path up in the route table and lists the methods it
/// does have (`HEAD` wherever `GET` is). A path with no route stays a 404.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// The registered routes: a path pattern and its methods.
    let routes: [(path: RouterPath, methods: Set<HTTPRequest.Method>)]

    /// Takes the route table of `router` once every route is registered.
    init(router: Router<Context>) {
        var table: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in router.routes {
            table[route.path.description, default: (route.path, [])].methods.insert(route.method)
        }
        routes = table.values.sorted { $0.path.description < $1.path.description }.map { route in
            (route.path, route.methods.contains(.get) ? route.methods.union([.head]) : route.methods)
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let (pattern, allowed) = allowedMethods(for: request.uri.path)
            guard let pattern, !allowed.contains(request.method) else { throw error }
            // The route the metrics count the answer under: the path is known.
            context.coreContext.endpointPath.value = pattern
            let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            let problem = Problem(status: .methodNotAllowed, code: "method-not-allowed", title: "Method not allowed",
                                  detail: "\(request.method.rawValue) is not allowed on \(request.uri.path); use \(allow)")
            var response = problem.response(instance: request.uri.path, requestID: context.requestID)
            response.headers[.allow] = allow
            return response
        }
    }

    /// The methods of the routes whose pattern matches `path`, and the first
    /// such pattern (nil when no route matches).
    func allowedMethods(for path: String) -> (pattern: String?, methods: Set<HTTPRequest.Method>) {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        var pattern: String?
        var methods: Set<HTTPRequest.Method> = []
        for route in routes where route.path.components.count == components.count {
            if zip(route.path.components, components).allSatisfy({ $0 ~= $1 }) {
                pattern = pattern ?? route.path.description
                methods.formUnion(route.methods)
            }
        }
        return (pattern, methods)
    }
}
