import Foundation

/// Where the tweet database lives.
///
/// In order: the `--db PATH` flag, the `SENTIMENT_DB` environment variable,
/// then `$XDG_DATA_HOME/swift-sentiment/tweets.sqlite` with `XDG_DATA_HOME`
/// defaulting to `~/.local/share`. The file and its folders are created on
/// first use (``TweetStore/init(path:logger:)``).
public enum DatabaseLocation {
    /// `SENTIMENT_DB`.
    public static let environmentVariable = "SENTIMENT_DB"
    /// The file name inside the data directory: `tweets.sqlite`.
    public static let fileName = "tweets.sqlite"
    /// The folder inside the XDG data directory: `swift-sentiment`.
    public static let directoryName = "swift-sentiment"

    /// The database path for a flag value and an environment. A leading `~`
    /// or `~/` means `$HOME`, as a shell would read it: the shell leaves the
    /// `~` of `--db=~/x` and of a quoted `SENTIMENT_DB="~/x"` alone.
    public static func resolve(flag: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let flag, !flag.isEmpty { return expandingTilde(flag, environment: environment) }
        if let path = environment[environmentVariable], !path.isEmpty { return expandingTilde(path, environment: environment) }
        return defaultPath(environment: environment)
    }

    /// `path` with a leading `~` or `~/` replaced by the home directory
    /// (`~user` forms are left as they are).
    static func expandingTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + path.dropFirst()
    }

    /// `$XDG_DATA_HOME/swift-sentiment/tweets.sqlite`, or `~/.local/share/…` when
    /// `XDG_DATA_HOME` is unset or not absolute (as the XDG specification says).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local", isDirectory: true)
                .appendingPathComponent("share", isDirectory: true)
        }
        return base.appendingPathComponent(directoryName, isDirectory: true).appendingPathComponent(fileName).path
    }
}
