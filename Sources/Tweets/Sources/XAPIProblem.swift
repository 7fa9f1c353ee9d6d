/// An error the X API v2 described in its body.
///
/// X answers errors either as an RFC 7807 problem object
/// (`{"title": "Unauthorized", "type": "about:blank", "status": 401, "detail": "Unauthorized"}`)
/// or, with status 200, as partial errors (`{"errors": [{"title": "Not Found Error",
/// "type": "https://api.twitter.com/2/problems/resource-not-found", "detail": "…"}]}`).
/// Both decode to this type.
public struct XAPIProblem: Sendable, Hashable, Codable {
    /// A short summary, e.g. `"Not Found Error"`.
    public var title: String?
    /// The problem type URI, e.g. `"https://api.twitter.com/2/problems/resource-not-found"`.
    public var type: String?
    /// A human-readable explanation.
    public var detail: String?
    /// The HTTP status the problem object states, when it does.
    public var status: Int?

    /// Creates a problem.
    public init(title: String? = nil, type: String? = nil, detail: String? = nil, status: Int? = nil) {
        self.title = title
        self.type = type
        self.detail = detail
        self.status = status
    }

    /// Whether this problem says the requested resource does not exist or is
    /// not available (suspended, deleted, protected).
    public var isResourceNotFound: Bool {
        let type = type ?? ""
        return type.hasSuffix("/resource-not-found") || type.hasSuffix("/resource-unavailable")
            || title == "Not Found Error"
    }
}
