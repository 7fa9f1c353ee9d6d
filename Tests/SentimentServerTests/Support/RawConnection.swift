import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to the test server, for requests an HTTP client
/// will not send: odd header bytes, half-sent requests, `HEAD`.
///
/// Reads poll the socket and sleep between polls, so a waiting test never
/// blocks a thread of the concurrency pool.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32

    /// Connects to `127.0.0.1:port`.
    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(socket)
            throw POSIXError(.init(rawValue: errno) ?? .ECONNREFUSED)
        }
    }

    /// Connects to a test server's port.
    convenience init(_ server: TestServer) throws {
        try self.init(port: try #require(URL(string: server.baseURL)?.port))
    }

    deinit { close(socket) }

    /// Sends `text` as it is (use `\r\n` line ends).
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw POSIXError(.init(rawValue: errno) ?? .EPIPE) }
            sent += count
        }
    }

    /// What arrives until it holds `marker`, or `nil` when it does not after `timeout`
    /// (or the connection closes first).
    func receive(until marker: String, timeout: Duration) async throws -> Data? {
        guard let read = try await read(timeout: timeout, until: { $0.firstRange(of: Data(marker.utf8)) != nil }), !read.closed
        else { return nil }
        return read.received
    }

    /// What arrives until the server closes the connection, or `nil` when it
    /// is still open after `timeout`.
    func receiveUntilClosed(timeout: Duration) async throws -> Data? {
        try await read(timeout: timeout, until: { _ in false })?.received
    }

    /// Reads until `isEnough` says so of what arrived, or the server closes or
    /// resets the connection (`closed`); `nil` after `timeout` or on another error.
    private func read(timeout: Duration, until isEnough: (Data) -> Bool) async throws -> (received: Data, closed: Bool)? {
        var received = Data()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if isEnough(received) { return (received, false) }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 0) > 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = recv(socket, &buffer, buffer.count, 0)
                if count == 0 { return (received, true) }
                if count < 0 { return errno == ECONNRESET ? (received, true) : nil }
                received.append(contentsOf: buffer[0..<count])
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        return nil
    }
}

/// `127.0.0.1:port` as a socket address (port 0: any free port, when binding).
func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

/// A response read off a ``RawConnection``.
struct RawResponse {
    /// `200`.
    var status: Int
    /// Header names lowercased; a repeated header's last value.
    var headers: [String: String]
    /// The bytes after the head (all of them, whatever `Content-Length` says).
    var body: Data

    /// Parses a response head; `nil` until the head is complete.
    init?(_ data: Data) {
        guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let code = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        status = code
        headers = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        body = Data(data[end.upperBound...])
    }
}

extension TestServer {
    /// Sends `request` as it is on a new connection and reads the answer to
    /// the close, with its body read as a JSON object (a problem); the
    /// object is empty when the body is not one.
    func rawAnswer(to request: String) async throws -> (response: RawResponse, object: [String: Any]) {
        let connection = try RawConnection(self)
        try connection.send(request)
        let raw = try #require(try await connection.receiveUntilClosed(timeout: .seconds(10)))
        let response = try #require(RawResponse(raw))
        let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response, object)
    }
}
