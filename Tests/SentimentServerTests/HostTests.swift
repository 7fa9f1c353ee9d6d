import Foundation
import NIOHTTP1
import Testing
@testable import SentimentServer

/// The `Host` a request names: required and single in HTTP/1.1, and a loopback
/// host on a server that listens on loopback alone (DNS rebinding).
@Suite("The Host header")
struct HostTests {
    @Test("On a loopback server, a request for another host is a 421 misdirected-request, so a rebound name can neither read nor clear the history")
    func anotherHostIsMisdirected() async throws {
        try await TestServer.with(seed: importSunnydays) { server in
            _ = try await server.request(.GET, "/v1/users/sunnydays/tweets?offline=1")
            for method in [HTTPMethod.GET, .DELETE] {
                let answer = try await server.request(method, "/v1/history", headers: [("Host", "rebound.example:8080")])
                #expect(answer.status == 421)
                #expect(answer.contentType == "application/problem+json")
                let problem = try answer.object()
                #expect(problem["code"] as? String == "misdirected-request")
                #expect((problem["detail"] as? String)?.contains("'rebound.example'") == true, "\(problem)")
            }
            let history = try await server.request(.GET, "/v1/history").object()
            #expect((history["history"] as? [Any])?.count == 1, "the history was not cleared")
        }
    }

    @Test("On a loopback server, loopback hosts are answered, with or without a port", arguments: [
        "localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:9", "[::1]", "[::1]:8080", "app.localhost:3000",
    ])
    func loopbackHostsAreAnswered(host: String) async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.GET, "/healthz", headers: [("Host", host)])
            #expect(answer.status == 200)
        }
    }

    @Test("An HTTP/1.1 request without a Host, with two, or with one that is not a host is a 400 invalid-host; HTTP/1.0 needs none", arguments: [
        ("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
        ("GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 400),
        ("GET /healthz HTTP/1.1\r\nHost: a b/c\r\nConnection: close\r\n\r\n", 400),
        ("GET /healthz HTTP/1.1\r\nHost: localhost:80x\r\nConnection: close\r\n\r\n", 400),
        ("GET /healthz HTTP/1.1\r\nX-Sentiment-Missing-Host: 1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 200),
        ("GET /healthz HTTP/1.0\r\n\r\n", 200),
    ])
    func hostIsRequiredOnceInHTTP11(request: String, status: Int) async throws {
        try await TestServer.with { server in
            let (response, problem) = try await server.rawAnswer(to: request)
            #expect(response.status == status)
            if status == 400 {
                #expect(problem["code"] as? String == "invalid-host", "\(problem)")
            }
        }
    }

    @Test("A Host value's host is read from a name, an address or a bracketed IPv6 address, each with an optional port")
    func hostOfAuthority() {
        #expect(HostMiddleware.host(ofAuthority: "example.com:443") == "example.com")
        #expect(HostMiddleware.host(ofAuthority: "[::1]:8080") == "[::1]")
        #expect(HostMiddleware.host(ofAuthority: "10.0.0.1") == "10.0.0.1")
        #expect(HostMiddleware.host(ofAuthority: "a b") == nil)
        #expect(HostMiddleware.host(ofAuthority: "host:") == "host")
        #expect(HostMiddleware.host(ofAuthority: "::1") == nil)
        #expect(HostMiddleware.host(ofAuthority: "[::1") == nil)
        #expect(HostMiddleware.host(ofAuthority: ":80") == nil)
    }
}
