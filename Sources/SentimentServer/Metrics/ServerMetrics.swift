import CoreMetrics
import Foundation
import Metrics
import Prometheus
import NIOConcurrencyHelpers

/// The server's metrics, made with swift-metrics on a Prometheus registry.
///
/// The registry is passed in (never the global `MetricsSystem`), so tests get
/// a fresh one; `sentiment serve` also bootstraps `MetricsSystem` with the same
/// registry so that libraries' metrics appear on `/metrics` too.
///
/// | Name | Type | Labels |
/// |------|------|--------|
/// | `http_requests_total` | counter | `route`, `method`, `status` |
/// | `http_request_duration_seconds` | histogram | `route`, `method`, `status` |
/// | `sentiment_texts_classified_total` | counter | `endpoint` (`classify` or `timeline`) |
/// | `sentiment_tweets_served_total` | counter | — |
/// | `sentiment_classification_cache_hits_total` | counter | — (tweets served with a stored classification) |
/// | `sentiment_upstream_requests_total` | counter | `operation` (`user`, `tweets`) |
/// | `sentiment_upstream_failures_total` | counter | `kind` (``Tweets/TweetSourceFailure/kind``) |
/// | `sentiment_upstream_retries_total` | counter | — (each wait before a retry) |
/// | `sentiment_upstream_rate_limit_waits_total` | counter | — (each wait for a rate-limit reset) |
/// | `sentiment_stale_answers_total` | counter | — |
public final class ServerMetrics: Sendable {
    /// The registry `/metrics` reads.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let requestMetrics = NIOLockedValueBox<[RequestKey: (CoreMetrics.Counter, CoreMetrics.Timer?)]>([:])
    private let failureCounters = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])
    private let upstreamCounters = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])
    private let classifiedCounters = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])

    let tweetsServed: CoreMetrics.Counter
    let cacheHits: CoreMetrics.Counter
    let upstreamRetries: CoreMetrics.Counter
    let rateLimitWaits: CoreMetrics.Counter
    let staleAnswers: CoreMetrics.Counter

    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    /// Creates the metrics on `registry`.
    public init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500),
            .seconds(5), .seconds(10), .seconds(30),
        ]
        self.factory = factory
        tweetsServed = CoreMetrics.Counter(label: "sentiment_tweets_served_total", factory: factory)
        cacheHits = CoreMetrics.Counter(label: "sentiment_classification_cache_hits_total", factory: factory)
        upstreamRetries = CoreMetrics.Counter(label: "sentiment_upstream_retries_total", factory: factory)
        rateLimitWaits = CoreMetrics.Counter(label: "sentiment_upstream_rate_limit_waits_total", factory: factory)
        staleAnswers = CoreMetrics.Counter(label: "sentiment_stale_answers_total", factory: factory)
    }

    /// Records one answered request.
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let (counter, timer) = requestMetrics(route: route, method: method, status: status, timed: true)
        counter.increment()
        let (seconds, attoseconds) = duration.components
        timer?.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Records a request the HTTP parser refused (answered before any route):
    /// route `MalformedRequest`, method `-` (it may not have one). It is
    /// counted but not timed, so it has no `http_request_duration_seconds`
    /// series (one would stay at `_count 0` beside a count that grows).
    func recordMalformedRequest(status: Int) {
        requestMetrics(route: "MalformedRequest", method: "-", status: status, timed: false).counter.increment()
    }

    private func requestMetrics(route: String, method: String, status: Int, timed: Bool)
        -> (counter: CoreMetrics.Counter, timer: CoreMetrics.Timer?) {
        let key = RequestKey(route: route, method: method, status: status)
        return requestMetrics.withLockedValue { cache in
            if let found = cache[key] { return found }
            let dimensions = [("route", route), ("method", method), ("status", String(status))]
            let made = (CoreMetrics.Counter(label: "http_requests_total", dimensions: dimensions, factory: factory),
                        timed ? CoreMetrics.Timer(label: "http_request_duration_seconds", dimensions: dimensions, factory: factory) : nil)
            cache[key] = made
            return made
        }
    }

    /// Records texts the model classified for an endpoint (`classify` or `timeline`).
    func recordClassified(_ count: Int, endpoint: String) {
        guard count > 0 else { return }
        counter(in: classifiedCounters, key: endpoint, label: "sentiment_texts_classified_total", dimension: "endpoint")
            .increment(by: count)
    }

    /// Records an upstream request.
    func recordUpstreamRequest(operation: String) {
        counter(in: upstreamCounters, key: operation, label: "sentiment_upstream_requests_total", dimension: "operation")
            .increment()
    }

    /// Records an upstream failure by kind.
    func recordUpstreamFailure(kind: String) {
        counter(in: failureCounters, key: kind, label: "sentiment_upstream_failures_total", dimension: "kind").increment()
    }

    private func counter(in cache: NIOLockedValueBox<[String: CoreMetrics.Counter]>, key: String, label: String, dimension: String) -> CoreMetrics.Counter {
        cache.withLockedValue { counters in
            if let found = counters[key] { return found }
            let made = CoreMetrics.Counter(label: label, dimensions: [(dimension, key)], factory: factory)
            counters[key] = made
            return made
        }
    }

    /// The Prometheus text exposition of every metric in the registry.
    public func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}

extension ServerMetrics {
    /// Makes the metrics on a new registry and bootstraps the global
    /// `MetricsSystem` with it, so that libraries' metrics show on `/metrics` too.
    ///
    /// Call it once, from an executable (`sentiment serve`), before anything
    /// records a metric. Libraries and tests use ``init(registry:)`` instead.
    public static func bootstrappingMetricsSystem() -> ServerMetrics {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return ServerMetrics(registry: registry)
    }
}
