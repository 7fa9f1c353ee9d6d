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
}
