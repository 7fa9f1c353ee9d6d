import Hummingbird

/// Checks the `Host` a request names (RFC 9112 §3.2), and, on a server that
/// listens on loopback alone, that it names a loopback host.
///
/// An HTTP/1.1 request without a `Host`, with two, or with one that is not a
/// host and an optional port is a `400 invalid-host`. A loopback server
/// answers only `localhost`, names under `.localhost` and loopback addresses
/// (`127.0.0.1`, `[::1]`), with any port; another name is a `421
/// misdirected-request`. Without that, a web page that points a name of its
/// own at 127.0.0.1 (DNS rebinding) could have the user's browser read the
/// stored timelines and the history, clear it, and spend the X token's rate
/// limit. A server listening beyond loopback answers any host (its write
/// endpoints need the API key).
struct HostMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// Whether only loopback hosts are answered: the server listens on loopback alone.
    let loopbackOnly: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.headers[HeaderName.missingHost] != nil {
            throw Problem.invalidHost("the request has no Host header, which HTTP/1.1 requires")
        }
        if request.headers[HeaderName.host] != nil {
            throw Problem.invalidHost("the request has more than one Host header")
        }
        if let authority = request.head.authority {
            guard let host = Self.host(ofAuthority: authority) else {
                throw Problem.invalidHost("Host '\(authority)' is not a host name or address with an optional port")
            }
            if loopbackOnly, !HostAddress.isLoopback(host) {
                throw Problem.misdirectedRequest(host: host)
            }
        }
        return try await next(request, context)
    }

    /// RFC 3986's reg-name and IP-literal characters, built once, not per request.
    private static let hostCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=%[]:")

    /// The host of a `Host` value (`name`, `name:port`, `[v6]:port`), or nil
    /// when it is not one: a character a host name cannot hold, a port that
    /// is not digits.
    static func host(ofAuthority authority: String) -> String? {
        let host: Substring
        var port: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            port = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[colon...]
        } else {
            host = Substring(authority)
        }
        if !port.isEmpty {
            guard port.first == ":", port.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        }
        guard !host.isEmpty, host.allSatisfy({ hostCharacters.contains($0) }) else { return nil }
        if !host.hasPrefix("["), host.contains(where: { "[]:".contains($0) }) { return nil }
        return String(host)
    }
}
