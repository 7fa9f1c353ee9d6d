import Foundation
import Sentiment
import Logging
import Tweets

/// Everything `sentiment serve` is configured with, resolved from flags, the
/// environment and the ``Profile``'s defaults, in that order.
///
/// | Setting     | Flag           | Environment           | Default |
/// |-------------|----------------|-----------------------|---------|
/// | profile     | `--profile`    | `SENTIMENT_PROFILE`   | `prod` |
/// | host        | `--host`       | `SENTIMENT_HOST`      | `127.0.0.1` |
/// | port        | `--port`       | `SENTIMENT_PORT`      | `8080` |
/// | database    | `--db`         | `SENTIMENT_DB`        | `$XDG_DATA_HOME/swift-sentiment/tweets.sqlite` |
/// | model       | `--model`      | `SENTIMENT_MODEL`     | `Models/default` |
/// | log level   | `--log-level`  | `SENTIMENT_LOG_LEVEL` | the profile's |
/// | upstream    | `--api-url`    | `X_API_URL`           | the profile's |
/// | API key     | —              | `SENTIMENT_API_KEY`   | none |
/// | X token     | —              | `X_BEARER_TOKEN`      | `$XDG_CONFIG_HOME/swift-sentiment/x-bearer-token` |
///
/// ```swift
/// let configuration = try ServerConfiguration.resolve(flags: .init(port: 0, databasePath: "/tmp/t.sqlite"))
/// try configuration.validate()
/// ```
public struct ServerConfiguration: Sendable {
    /// The default port: 8080.
    public static let defaultPort = 8080
    /// The default host: `127.0.0.1` (loopback only).
    public static let defaultHost = "127.0.0.1"
    /// `SENTIMENT_HOST`.
    public static let hostEnvironmentVariable = "SENTIMENT_HOST"
    /// `SENTIMENT_PORT`.
    public static let portEnvironmentVariable = "SENTIMENT_PORT"
    /// `SENTIMENT_LOG_LEVEL`.
    public static let logLevelEnvironmentVariable = "SENTIMENT_LOG_LEVEL"
    /// `SENTIMENT_API_KEY`.
    public static let apiKeyEnvironmentVariable = "SENTIMENT_API_KEY"

    /// The deployment profile.
    public var profile: Profile
    /// The address to listen on.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// The tweet database file.
    public var databasePath: String
    /// The model directory; `nil` for `SentimentModel.loadDefault()`.
    public var modelDirectory: String?
    /// The log level.
    public var logLevel: Logger.Level
    /// The X API base URL.
    public var upstreamBaseURL: URL
    /// The X API token; `nil` makes every upstream call fail as `unavailable`
    /// (stored tweets are still answered, marked stale).
    public var bearerToken: BearerToken?
    /// Answer every timeline from the store alone (no upstream at all).
    public var offline: Bool
    /// The key that write endpoints require (`Authorization: Bearer KEY` or
    /// `X-API-Key: KEY`). Required when ``host`` is not loopback; enforced
    /// whenever it is set. `SENTIMENT_API_KEY` is read with whitespace and
    /// newlines at either end trimmed, as a key file's last newline; a key set
    /// here with them is refused by ``validate()``, since headers are trimmed.
    public var apiKey: String?
    /// The limits of `POST /v1/classify`.
    public var classifyLimits: ClassifyLimits
    /// Upstream retries.
    public var retryPolicy: RetryPolicy
    /// The upstream request timeout.
    public var upstreamTimeout: Duration
    /// Tweets per page: 20.
    public var pageSize: Int
    /// How long a connection may send nothing before it is closed: 30 s. It
    /// covers a request whose head or body stops arriving, and an idle
    /// keep-alive connection; a request that has been read may take longer to answer.
    public var idleTimeout: Duration = .seconds(30)
    /// How long a graceful shutdown waits for the requests in flight: 30 s.
    /// Then they are cancelled, and the database is closed.
    public var shutdownTimeout: Duration = .seconds(30)

    /// Creates a configuration with the profile's defaults for whatever is not given.
    public init(
        profile: Profile = .default,
        host: String = defaultHost,
        port: Int = defaultPort,
        databasePath: String,
        modelDirectory: String? = nil,
        logLevel: Logger.Level? = nil,
        upstreamBaseURL: URL? = nil,
        bearerToken: BearerToken? = nil,
        offline: Bool = false,
        apiKey: String? = nil,
        classifyLimits: ClassifyLimits = ClassifyLimits(),
        retryPolicy: RetryPolicy? = nil,
        upstreamTimeout: Duration = .seconds(10),
        pageSize: Int = 20
    ) {
        self.profile = profile
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.modelDirectory = modelDirectory
        self.logLevel = logLevel ?? profile.defaultLogLevel
        self.upstreamBaseURL = upstreamBaseURL ?? profile.defaultUpstreamBaseURL
        self.bearerToken = bearerToken
        self.offline = offline
        self.apiKey = apiKey
        self.classifyLimits = classifyLimits
        self.retryPolicy = retryPolicy ?? profile.retryPolicy
        self.upstreamTimeout = upstreamTimeout
        self.pageSize = pageSize
    }

    /// What the command line gave; `nil` means "not given".
    public struct Flags: Sendable {
        /// `--profile`.
        public var profile: Profile?
        /// `--host`.
        public var host: String?
        /// `--port`.
        public var port: Int?
        /// `--db`.
        public var databasePath: String?
        /// `--model`.
        public var modelDirectory: String?
        /// `--log-level`.
        public var logLevel: Logger.Level?
        /// `--api-url`.
        public var upstreamBaseURL: String?
        /// `--offline`.
        public var offline: Bool

        /// Creates flags.
        public init(profile: Profile? = nil, host: String? = nil, port: Int? = nil, databasePath: String? = nil,
                    modelDirectory: String? = nil, logLevel: Logger.Level? = nil, upstreamBaseURL: String? = nil,
                    offline: Bool = false) {
            self.profile = profile
            self.host = host
            self.port = port
            self.databasePath = databasePath
            self.modelDirectory = modelDirectory
            self.logLevel = logLevel
            self.upstreamBaseURL = upstreamBaseURL
            self.offline = offline
        }
    }

    /// Resolves flags, then the environment, then the profile's defaults.
    ///
    /// - Throws: ``ConfigurationError`` when an environment value cannot be
    ///   read (an unknown profile or log level, a port that is not a number, a
    ///   base URL that is not `http(s)`). Call ``validate()`` afterwards for the
    ///   rules that tie settings together.
    public static func resolve(
        flags: Flags,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> ServerConfiguration {
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        let profile: Profile
        if let given = flags.profile {
            profile = given
        } else if let text = value(Profile.environmentVariable) {
            guard let named = Profile(name: text) else {
                throw .invalidValue(name: Profile.environmentVariable, value: text, expected: "dev, stage or prod")
            }
            profile = named
        } else {
            profile = .default
        }
        var port = defaultPort
        if let given = flags.port {
            port = given
        } else if let text = value(portEnvironmentVariable) {
            guard let number = Int(text) else {
                throw .invalidValue(name: portEnvironmentVariable, value: text, expected: "a port number")
            }
            port = number
        }
        var logLevel: Logger.Level?
        if let given = flags.logLevel {
            logLevel = given
        } else if let text = value(logLevelEnvironmentVariable) {
            guard let level = Self.logLevel(named: text) else {
                throw .invalidValue(name: logLevelEnvironmentVariable, value: text,
                                    expected: "trace, debug, info, notice, warning, error or critical")
            }
            logLevel = level
        }
        var upstream: URL?
        if let text = flags.upstreamBaseURL ?? value(XAPIConfiguration.baseURLEnvironmentVariable) {
            guard let url = XAPIConfiguration.baseURL(flag: text, environment: [:]) else {
                throw .invalidValue(name: flags.upstreamBaseURL != nil ? "--api-url" : XAPIConfiguration.baseURLEnvironmentVariable,
                                    value: text, expected: "an http(s) URL")
            }
            upstream = url
        }
        return ServerConfiguration(
            profile: profile,
            host: flags.host ?? value(hostEnvironmentVariable) ?? defaultHost,
            port: port,
            databasePath: DatabaseLocation.resolve(flag: flags.databasePath, environment: environment),
            modelDirectory: flags.modelDirectory,
            logLevel: logLevel,
            upstreamBaseURL: upstream,
            bearerToken: BearerToken.resolve(environment: environment),
            offline: flags.offline,
            apiKey: value(apiKeyEnvironmentVariable).map(trimmedKey)
        )
    }

    /// The log level a name gives, in any case (`warning`, `WARNING`), as
    /// `--log-level` and `SENTIMENT_LOG_LEVEL` both read it; `nil` for another name.
    public static func logLevel(named name: String) -> Logger.Level? {
        Logger.Level(rawValue: name.lowercased())
    }

    /// A key with whitespace and newlines at either end trimmed; a blank one as
    /// it is, for ``validate()`` to refuse.
    private static func trimmedKey(_ key: String) -> String {
        let trimmed = key.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? key : trimmed
    }

    /// Whether ``host`` is a loopback address (`127.0.0.0/8`, `::1`, `localhost`).
    public var listensOnLoopbackOnly: Bool { Self.isLoopback(host) }

    /// Whether write endpoints check ``apiKey``: whenever a key is set.
    public var requiresAPIKey: Bool { apiKey != nil }

    /// Checks the rules that tie settings together.
    ///
    /// - Throws: ``ConfigurationError/apiKeyRequired(host:)`` when listening
    ///   beyond loopback without an API key;
    ///   ``ConfigurationError/profileViolation(profile:reason:)`` when the
    ///   `dev` profile would listen beyond loopback, or another profile would
    ///   call a development upstream (`http`, or a loopback or unspecified
    ///   address such as `0.0.0.0`);
    ///   ``ConfigurationError/invalidValue(name:value:expected:)`` for a port
    ///   outside 0–65535 or an empty database path.
    public func validate() throws(ConfigurationError) {
        guard (0...65535).contains(port) else {
            throw .invalidValue(name: "port", value: String(port), expected: "0–65535")
        }
        guard !databasePath.isEmpty else { throw .invalidValue(name: "database", value: "", expected: "a file path") }
        if profile.requiresLoopbackHost, !listensOnLoopbackOnly {
            throw .profileViolation(profile: profile, reason: "the dev profile listens on loopback only, not \(host)")
        }
        if profile.requiresPublicUpstream, !offline {
            let scheme = upstreamBaseURL.scheme?.lowercased()
            let why = scheme != "https" ? "is not https"
                : HostAddress.isLocal(upstreamBaseURL.host ?? "") ? "points at this machine" : nil
            if let why {
                throw .profileViolation(
                    profile: profile,
                    reason: "the upstream \(upstreamBaseURL.absoluteString) \(why), as a development URL does; "
                        + "use --profile dev, or the X API's https URL")
            }
        }
        if let apiKey, !apiKey.isEmpty, apiKey.allSatisfy(\.isWhitespace) {
            // Header values are trimmed, so no request could ever present it.
            throw .invalidValue(name: Self.apiKeyEnvironmentVariable, value: apiKey, expected: "a key that is not blank")
        }
        if let apiKey, apiKey.first?.isWhitespace == true || apiKey.last?.isWhitespace == true {
            // Nor one that starts or ends with whitespace (the environment's is trimmed).
            throw .invalidValue(name: Self.apiKeyEnvironmentVariable, value: apiKey,
                                expected: "a key without whitespace at either end")
        }
        if !listensOnLoopbackOnly, (apiKey ?? "").isEmpty {
            throw .apiKeyRequired(host: host)
        }
    }

    /// Whether a host name or address is loopback, read as an IP address:
    /// `127.0.0.0/8` in any form `inet_aton` accepts (`127.1`, `2130706433`),
    /// `::1`, `::ffff:127.0.0.1`, or `localhost`. Any other name — `127.example.com`
    /// included — is not.
    public static func isLoopback(_ host: String) -> Bool {
        HostAddress.isLoopback(host)
    }
}

/// Why a ``ServerConfiguration`` cannot be used.
public enum ConfigurationError: Sendable, Hashable, DescribedError {
    /// A setting's value cannot be read.
    case invalidValue(name: String, value: String, expected: String)
    /// The server would listen beyond loopback without an API key for its write endpoints.
    case apiKeyRequired(host: String)
    /// A setting breaks the profile's rule.
    case profileViolation(profile: Profile, reason: String)

    /// A one-line reason for a person.
    public var description: String {
        switch self {
        case .invalidValue(let name, let value, let expected): "\(name): '\(value)' is not \(expected)"
        case .apiKeyRequired(let host):
            "listening on \(host) (beyond loopback) requires an API key for write endpoints: set \(ServerConfiguration.apiKeyEnvironmentVariable)"
        case .profileViolation(let profile, let reason): "profile \(profile.rawValue): \(reason)"
        }
    }
}
