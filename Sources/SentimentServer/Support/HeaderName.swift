import Hummingbird

/// An HTTP header name (`HTTPTypes.HTTPField.Name`, reached through what Hummingbird exports).
typealias HeaderName = HTTPFields.Element.Name

extension HeaderName {
    /// `X-Request-ID`.
    static let requestID = HeaderName("X-Request-ID")!
    /// `X-API-Key`.
    static let apiKey = HeaderName("X-API-Key")!
    /// `X-Content-Type-Options`.
    static let contentTypeOptions = HeaderName("X-Content-Type-Options")!
    /// `Referrer-Policy`.
    static let referrerPolicy = HeaderName("Referrer-Policy")!
    /// `Host`: a request's first is its authority, so one left among the
    /// fields is a second.
    static let host = HeaderName("Host")!
    /// Set by ``HTTP1HeadHandler`` on an HTTP/1.1 request without a `Host`
    /// (any that the client sent is removed first), for ``HostMiddleware``.
    static let missingHost = HeaderName("X-Sentiment-Missing-Host")!
}
