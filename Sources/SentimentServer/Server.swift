import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Tweets

/// Runs the whole server until a shutdown signal: what `sentiment serve` does.
public enum Server {
    /// Opens the database, starts the HTTP client and the application, and
    /// serves until SIGTERM or SIGINT.
    ///
    /// On a signal the server stops accepting connections, finishes the requests
    /// in flight (for at most ``ServerConfiguration/shutdownTimeout``, then
    /// cancels them), shuts the HTTP client down and closes the database.
    ///
    /// - Parameters:
    ///   - configuration: a validated configuration.
    ///   - classifier: the loaded model.
    ///   - metrics: the metrics `/metrics` shows.
    ///   - logger: the server's logger.
    ///   - onServerRunning: called with the bound port once the server listens.
    /// - Throws: `DatabaseOpenError` when the database cannot be opened,
    ///   `ListenError` when the address cannot be listened on; other errors
    ///   when the page's files are missing.
    public static func run(
        configuration: ServerConfiguration,
        classifier: any TweetClassifier,
        metrics: ServerMetrics,
        logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        do {
            let store: TweetStore
            do {
                store = try TweetStore(path: configuration.databasePath, logger: logger)
            } catch {
                throw DatabaseOpenError(path: configuration.databasePath, underlying: error)
            }
            try await HTTPClient.withHTTPClient(configuration: XAPIClient.httpConfiguration) { http in
                let source = ServerServices.makeSource(configuration: configuration, httpClient: http, metrics: metrics,
                                                       logger: logger)
                let services = ServerServices(classifier: classifier, store: store, source: source, metrics: metrics)
                let listening = NIOLockedValueBox(false)
                let app = try buildApplication(configuration: configuration, services: services, logger: logger,
                                               onServerRunning: { port in
                                                   listening.withLockedValue { $0 = true }
                                                   await onServerRunning(port)
                                               })
                do {
                    try await serviceGroup(running: app, configuration: configuration, logger: logger).run()
                } catch let error as IOError where !listening.withLockedValue({ $0 }) {
                    // Before the server listens, the only system call that fails is the bind.
                    throw ListenError(host: configuration.host, port: configuration.port, errno: error.errnoCode)
                } catch let error where !listening.withLockedValue({ $0 })
                    && (error is SocketAddressError || error is SocketAddressError.UnknownHost) {
                    // The host name did not resolve to an address to bind.
                    throw ListenError(host: configuration.host, port: configuration.port, errno: 0)
                }
            }
            try store.close()
        }
        logger.notice("stopped: requests finished, database closed", metadata: ["db": "\(configuration.databasePath)"])
    }

    /// The service group that runs `app`: a graceful shutdown — on SIGTERM or
    /// SIGINT when `handlingSignals`, or by `triggerGracefulShutdown()` — waits
    /// at most ``ServerConfiguration/shutdownTimeout`` for the requests in
    /// flight, then cancels them.
    public static func serviceGroup(
        running app: some Service,
        configuration: ServerConfiguration,
        handlingSignals: Bool = true,
        logger: Logger
    ) -> ServiceGroup {
        var group = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [], logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
        return ServiceGroup(configuration: group)
    }
}
