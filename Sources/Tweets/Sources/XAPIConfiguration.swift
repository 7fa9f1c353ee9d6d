import Foundation

/// How ``XAPIClient`` reaches the X API v2.
public struct XAPIConfiguration: Sendable {
    /// `https://api.x.com`.
    public static let defaultBaseURL = URL(string: "https://api.x.com")!
    /// The environment variable that overrides the base URL: `X_API_URL`.
    public static let baseURLEnvironmentVariable = "X_API_URL"

    /// The API root; paths such as `/2/users/by/username/…` are appended to it.
    public var baseURL: URL
    /// The app-only token sent as `Authorization: Bearer …`.
    public var bearerToken: BearerToken
    /// The longest a request may take to get its response head; the body must
    /// then keep arriving (the HTTP client's read timeout bounds the gaps).
    public var requestTimeout: Duration
    /// Ask X to leave retweets out of timelines (`exclude=retweets`).
    public var excludeRetweets: Bool
    /// Ask X to leave replies out of timelines (`exclude=replies`).
    public var excludeReplies: Bool
    /// When to retry a request.
    public var retryPolicy: RetryPolicy
    /// The `User-Agent` header.
    public var userAgent: String

    /// Creates a configuration.
    public init(
        baseURL: URL = defaultBaseURL,
        bearerToken: BearerToken,
        requestTimeout: Duration = .seconds(10),
        excludeRetweets: Bool = false,
        excludeReplies: Bool = false,
        retryPolicy: RetryPolicy = .standard,
        userAgent: String = "swift-sentiment/1.0"
    ) {
        self.baseURL = baseURL
        self.bearerToken = bearerToken
        self.requestTimeout = requestTimeout
        self.excludeRetweets = excludeRetweets
        self.excludeReplies = excludeReplies
        self.retryPolicy = retryPolicy
        self.userAgent = userAgent
    }

    /// The base URL from a flag, else `X_API_URL`, else ``defaultBaseURL``.
    ///
    /// - Returns: `nil` when the given text is not an `http` or `https` URL.
    public static func baseURL(flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        guard let text = flag ?? environment[baseURLEnvironmentVariable], !text.isEmpty else { return defaultBaseURL }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else { return nil }
        return url
    }
}
