import Hummingbird
import Logging

/// The request context of every route: Hummingbird's core storage and the request id.
public struct ServerRequestContext: RequestContext {
    /// Hummingbird's per-request storage (logger, parameters, route).
    public var coreContext: CoreRequestContextStorage
    /// The request's id: the client's `X-Request-ID` when it is sane, else a new one.
    /// Set by ``RequestIDMiddleware``; echoed in the `X-Request-ID` response header,
    /// in problem bodies and in every log line of the request.
    public var requestID: String

    /// Creates a context for a new request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        requestID = ""
    }
}
