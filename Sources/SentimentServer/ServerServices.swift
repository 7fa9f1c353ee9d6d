import AsyncHTTPClient
import Foundation
import Logging
import Sentiment
import Tweets

/// What the routes work with: the model, the database, the upstream and the metrics.
///
/// ```swift
/// let metrics = ServerMetrics(registry: PrometheusCollectorRegistry())
/// let services = ServerServices(
///     classifier: try SentimentModel.loadDefault(),
///     store: try TweetStore(path: configuration.databasePath, logger: logger),
///     source: ServerServices.makeSource(configuration: configuration, httpClient: .shared, metrics: metrics, logger: logger),
///     metrics: metrics)
/// ```
public struct ServerServices: Sendable {
    /// The sentiment model (or a test double).
    public var classifier: any TweetClassifier
    /// The tweet database.
    public var store: TweetStore
    /// Where timelines come from; `nil` answers from the store alone.
    public var source: (any TweetSource)?
    /// The metrics `/metrics` shows.
    public var metrics: ServerMetrics

    /// Creates the services.
    public init(classifier: any TweetClassifier, store: TweetStore, source: (any TweetSource)?, metrics: ServerMetrics) {
        self.classifier = classifier
        self.store = store
        self.source = source
        self.metrics = metrics
    }

    /// The upstream for a configuration, counted in `metrics`:
    ///
    /// - `nil` when ``ServerConfiguration/offline``;
    /// - a source that always fails as `unavailable` when there is no X token
    ///   (stored tweets are still answered, marked stale), said once in a
    ///   `notice` and not counted as upstream requests, since none is sent;
    /// - else an ``Tweets/XAPIClient`` on the configuration's base URL, timeout and retries.
    ///
    /// - Parameters:
    ///   - httpClient: the HTTP client (the caller shuts it down).
    ///   - sleeper: the clock for retry waits (each wait is counted as a retry).
    public static func makeSource(
        configuration: ServerConfiguration,
        httpClient: HTTPClient,
        metrics: ServerMetrics,
        sleeper: any Sleeper = SystemSleeper(),
        logger: Logger
    ) -> (any TweetSource)? {
        if configuration.offline { return nil }
        guard let token = configuration.bearerToken else {
            // Said once, here; not metered, as no request is sent, and each
            // timeline's failure is logged at debug (TweetService).
            logger.notice("no X API token: timelines are answered from the database, marked stale",
                          metadata: ["set": "\(BearerToken.environmentVariable)", "or_file": "\(BearerToken.configFile().path)"])
            return UnavailableTweetSource(reason: "no X API token: set \(BearerToken.environmentVariable)")
        }
        let client = XAPIClient(
            configuration: XAPIConfiguration(baseURL: configuration.upstreamBaseURL, bearerToken: token,
                                             requestTimeout: configuration.upstreamTimeout,
                                             retryPolicy: configuration.retryPolicy),
            httpClient: httpClient,
            sleeper: MeteredSleeper(base: sleeper, metrics: metrics),
            logger: logger)
        return MeteredTweetSource(base: client, metrics: metrics)
    }
}
