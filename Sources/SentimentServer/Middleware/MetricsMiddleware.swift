import Hummingbird

/// Counts and times every request by route, method and status (see ``ServerMetrics``).
///
/// Placed outside ``ProblemMiddleware``, so errors are counted with the status
/// the client saw. A request is timed until its body is written (a streamed
/// NDJSON answer included); a HEAD request, whose body is never written, when
/// its answer is ready. Unknown paths are counted under the route `NotFound`,
/// so scanners cannot blow up the label set; a method a known path does not
/// take (405) under that path's route.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response = try await next(request, context)
        let route = context.endpointPath ?? "NotFound"
        let method = request.method.rawValue
        let status = Int(response.status.code)
        let metrics = metrics
        response.whenBodyWritten(for: request) { _ in
            metrics.recordRequest(route: route, method: method, status: status, duration: ContinuousClock.now - start)
        }
        return response
    }
}
