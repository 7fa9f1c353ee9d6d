import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `sentiment` run as a user whom file permissions bind: this user, or root
/// without the capabilities that let it write (and read) anything, through
/// `setpriv`, since the tests may run as root (CI does).
enum BoundPermissions {
    static let setpriv = "/usr/bin/setpriv"

    /// Whether permissions can be made to bind the `sentiment` process.
    static let available = geteuid() != 0 || FileManager.default.isExecutableFile(atPath: setpriv)

    /// The executable (nil: `sentiment` itself) and arguments that run
    /// `sentiment arguments…` bound by permissions.
    static func command(_ arguments: [String]) -> (executable: URL?, arguments: [String])? {
        guard geteuid() == 0 else { return (nil, arguments) }
        guard let sentiment = SentimentExecutable.url else { return nil }
        return (URL(fileURLWithPath: setpriv),
                ["--bounding-set=-dac_override,-dac_read_search,-fowner", "--inh-caps=-all", sentiment.path] + arguments)
    }
}
