import Sentiment
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server could not listen on its address when it started: the port is
/// in use, the host is not an address of this machine, or the port needs
/// privileges the process does not have. `sentiment serve` reports it with
/// exit status 69.
public struct ListenError: DescribedError {
    /// The configured host.
    public var host: String
    /// The configured port.
    public var port: Int
    /// The `errno` of the failed `bind` (`EADDRINUSE`, `EADDRNOTAVAIL`, `EACCES`, …),
    /// or 0 when the host name has no address.
    public var errno: Int32

    public var description: String {
        let address = HostAddress.authority(host, port: port)
        if errno == 0 { return "cannot listen on \(address): the name has no address (give an IP address or a name of this machine)" }
        let hint = errno == EADDRINUSE ? " (another process listens there; choose another --port)" : ""
        return "cannot listen on \(address): \(String(cString: strerror(errno)))\(hint)"
    }
}
