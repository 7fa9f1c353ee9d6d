import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port that refuses connections for as long as this value lives:
/// a socket bound to it that never listens. Unlike a port that was bound and
/// closed, no other test's server can take it in the meantime.
final class RefusingPort: @unchecked Sendable {
    private let socket: Int32
    /// The port number.
    let port: Int

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(socket)
            throw POSIXError(.init(rawValue: code) ?? .EADDRINUSE)
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }

    /// `http://127.0.0.1:PORT`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
}
