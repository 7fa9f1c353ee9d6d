import Foundation

/// An X API app-only bearer token.
///
/// Its `description` is redacted, so interpolating it into a log message or an
/// error never leaks it; only ``XAPIClient`` reads ``value``, to build the
/// `Authorization` header.
public struct BearerToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret itself.
    public let value: String

    /// Wraps a token; `nil` when it is empty or only whitespace.
    public init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        self.value = trimmed
    }

    /// `"<redacted>"`.
    public var description: String { "<redacted>" }
    /// `"BearerToken(<redacted>)"`.
    public var debugDescription: String { "BearerToken(<redacted>)" }

    /// The environment variable holding the token: `X_BEARER_TOKEN`.
    public static let environmentVariable = "X_BEARER_TOKEN"

    /// The token from, in order: the `X_BEARER_TOKEN` environment variable, then
    /// the first line of the file ``configFile(environment:)``. `nil` when neither has one.
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> BearerToken? {
        if let value = environment[environmentVariable], let token = BearerToken(value) { return token }
        let file = configFile(environment: environment)
        guard let text = try? String(contentsOf: file, encoding: .utf8),
            let line = text.split(whereSeparator: \.isNewline).first
        else { return nil }
        return BearerToken(String(line))
    }

    /// `$XDG_CONFIG_HOME/swift-sentiment/x-bearer-token`, with `XDG_CONFIG_HOME`
    /// defaulting to `~/.config`. Keep it readable by its owner only (`chmod 600`).
    public static func configFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            base = URL(fileURLWithPath: config, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent("swift-sentiment", isDirectory: true).appendingPathComponent("x-bearer-token")
    }
}
