import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a host name or address in a setting points at, read as an IP address
/// — never by its spelling, so `127.example.com` is a name and `2130706433`,
/// `0x7f.1` and `::ffff:127.0.0.1` are loopback.
///
/// A name that is not an IP literal is not loopback, except `localhost` and
/// names under `.localhost` (RFC 6761). Nothing is resolved through DNS.
enum HostAddress {
    /// Whether `host` is a loopback address: `127.0.0.0/8` in any form
    /// `inet_aton` accepts (`127.1`, `0177.0.0.1`, `2130706433`), `::1`, an
    /// IPv4-mapped `::ffff:127.x.x.x`, or `localhost`. Brackets and an IPv6 zone are ignored.
    static func isLoopback(_ host: String) -> Bool {
        let name = normalized(host)
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if let ipv4 = ipv4(name) { return ipv4 >> 24 == 127 }
        guard let bytes = ipv6(name) else { return false }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        if let mapped = mappedIPv4(bytes) { return mapped >> 24 == 127 }
        return false
    }

    /// Whether a connection to `host` stays on this machine: loopback, or an
    /// unspecified address (`0.0.0.0/8`, `::`, `::ffff:0.0.0.0`), which Linux connects to the local host.
    static func isLocal(_ host: String) -> Bool {
        if isLoopback(host) { return true }
        let name = normalized(host)
        if let ipv4 = ipv4(name) { return ipv4 >> 24 == 0 }
        guard let bytes = ipv6(name) else { return false }
        if bytes.allSatisfy({ $0 == 0 }) { return true }
        if let mapped = mappedIPv4(bytes) { return mapped >> 24 == 0 }
        return false
    }

    /// The address to bind for `host`: `127.0.0.1` for a name under
    /// `.localhost`, which RFC 6761 puts on loopback but the system resolver
    /// does not know; `host` itself otherwise.
    static func bindable(_ host: String) -> String {
        let name = normalized(host)
        return name.hasSuffix(".localhost") ? "127.0.0.1" : host
    }

    /// `host:port` as a URL writes it, an IPv6 literal in brackets (`[::1]:8080`).
    static func authority(_ host: String, port: Int) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Lowercased, without brackets, an IPv6 zone (`%lo`) or a final dot.
    private static func normalized(_ host: String) -> String {
        var name = host.lowercased().trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if let zone = name.firstIndex(of: "%") { name = String(name[..<zone]) }
        if name.hasSuffix("."), name.count > 1 { name.removeLast() }
        return name
    }

    /// The address of an IPv4 literal in any form `inet_aton` accepts, in host byte order.
    private static func ipv4(_ name: String) -> UInt32? {
        // inet_aton stops at white space and ignores the rest; a host has none.
        guard !name.isEmpty, !name.contains(where: \.isWhitespace) else { return nil }
        var address = in_addr()
        guard inet_aton(name, &address) != 0 else { return nil }
        return UInt32(bigEndian: address.s_addr)
    }

    /// The 16 bytes of an IPv6 literal.
    private static func ipv6(_ name: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, name, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or IPv4-compatible (`::a.b.c.d`) IPv6 address.
    private static func mappedIPv4(_ bytes: [UInt8]) -> UInt32? {
        let prefix = bytes[0..<10].allSatisfy { $0 == 0 }
        guard prefix, (bytes[10] == 0xFF && bytes[11] == 0xFF) || (bytes[10] == 0 && bytes[11] == 0) else { return nil }
        return bytes[12...].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
