import Foundation
import Logging
import Tweets

/// A deployment profile: the defaults that differ between a developer's
/// machine, the staging server and production.
///
/// The profile is chosen with `--profile` or `SENTIMENT_PROFILE` and defaults
/// to ``prod``, so forgetting the flag never gives production a development
/// setting. The rules that keep them apart (``ServerConfiguration/validate()``):
///
/// | Profile | Upstream default          | Log level | Retries        | Guard |
/// |---------|---------------------------|-----------|----------------|-------|
/// | `dev`   | `http://127.0.0.1:8089`   | `debug`   | none           | listens on loopback only |
/// | `stage` | `https://api.x.com`       | `info`    | 4 s, 8 s       | upstream must be `https` and not loopback |
/// | `prod`  | `https://api.x.com`       | `notice`  | 4 s, 8 s       | upstream must be `https` and not loopback |
public enum Profile: String, Sendable, Hashable, CaseIterable, Codable {
    /// A developer's machine: a local fake X API, verbose logs, no retry waits.
    case dev
    /// The staging server: the real X API, informative logs.
    case stage
    /// Production: the real X API, quiet logs.
    case prod

    /// The profile a name gives, in any case (`prod`, `PROD`), as `--profile`
    /// and `SENTIMENT_PROFILE` both read it; `nil` for another name.
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// The environment variable that selects the profile: `SENTIMENT_PROFILE`.
    public static let environmentVariable = "SENTIMENT_PROFILE"

    /// The profile used when none is named: ``prod``.
    public static let `default` = Profile.prod

    /// The local fake X API a development server talks to: `http://127.0.0.1:8089`.
    public static let developmentUpstream = URL(string: "http://127.0.0.1:8089")!

    /// The X API base URL when neither `--api-url` nor `X_API_URL` names one.
    public var defaultUpstreamBaseURL: URL {
        switch self {
        case .dev: Self.developmentUpstream
        case .stage, .prod: XAPIConfiguration.defaultBaseURL
        }
    }

    /// The log level when neither `--log-level` nor `SENTIMENT_LOG_LEVEL` names one.
    public var defaultLogLevel: Logger.Level {
        switch self {
        case .dev: .debug
        case .stage: .info
        case .prod: .notice
        }
    }

    /// How upstream failures are retried: none in development (fast feedback),
    /// ``RetryPolicy/standard`` elsewhere.
    public var retryPolicy: RetryPolicy {
        switch self {
        case .dev: .none
        case .stage, .prod: .standard
        }
    }

    /// Whether the upstream must be a public `https` URL (every profile but `dev`).
    public var requiresPublicUpstream: Bool { self != .dev }

    /// Whether the server may only listen on a loopback address (`dev`).
    public var requiresLoopbackHost: Bool { self == .dev }
}
