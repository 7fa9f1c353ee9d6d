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
        let cancelled = NIOLockedValueBox(false)
        do {
            let store = try openStore(configuration: configuration, logger: logger)
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
                    try await serviceGroup(running: app, configuration: configuration, handlingSignals: true,
                                           logger: logger, cancelled: cancelled).run()
                } catch let error as IOError where !listening.withLockedValue({ $0 }) {
                    // Before the server listens, the only system call that fails is the bind.
                    throw ListenError(host: configuration.host, port: configuration.port, errno: error.errnoCode)
                } catch let error where !listening.withLockedValue({ $0 })
                    && (error is SocketAddressError || error is SocketAddressError.UnknownHost) {
                    // The host name did not resolve to an address to bind.
                    throw ListenError(host: configuration.host, port: configuration.port, errno: 0)
                }
            }
            do {
                try store.close()
            } catch let error as TweetStoreError {
                // Replaced or removed while serving: left to the files now at its path.
                let requests = cancelled.withLockedValue { $0 } ? "requests past the shutdown timeout cancelled" : "requests finished"
                logger.error("stopped: \(requests), database not closed: \(error)", metadata: ["db": "\(configuration.databasePath)"])
                return
            }
        }
        let requests = cancelled.withLockedValue { $0 } ? "requests past the shutdown timeout cancelled" : "requests finished"
        logger.notice("stopped: \(requests), database closed", metadata: ["db": "\(configuration.databasePath)"])
    }

    /// The tweet database for `configuration`: written as usual, or, when the
    /// server is offline and the file is there but may not be written (a
    /// shared or archived snapshot), read as it is, as `sentiment tweets
    /// --offline` and `history` read it: timelines show the stored tweets
    /// classified without storing the labels, no search is recorded, and
    /// clearing the history is refused (409). Online, the server stores what
    /// it fetches, so such a file is refused. Offline, a missing file is not
    /// made (``DatabaseOpenError/isMissing``).
    static func openStore(configuration: ServerConfiguration, logger: Logger) throws -> TweetStore {
        let path = configuration.databasePath
        // As `tweets --offline`: a mistyped --db is said, not made.
        if configuration.offline, !FileManager.default.fileExists(atPath: path) {
            throw DatabaseOpenError.missing(path: path)
        }
        do {
            guard configuration.offline, FileManager.default.fileExists(atPath: path),
                  let reason = ReadOnlyReason(existingFileAt: path)
            else { return try TweetStore(path: path, logger: logger) }
            let store = try TweetStore(readingPath: path, logger: logger)
            logger.notice("the database is read-only: serving it as it is, storing nothing",
                          metadata: ["db": "\(path)", "reason": "\(reason)"])
            return store
        } catch {
            throw DatabaseOpenError(path: path, underlying: error, offline: configuration.offline)
        }
    }

    /// The service group that runs `app`: a graceful shutdown — on SIGTERM or
    /// SIGINT when `handlingSignals`, or by `triggerGracefulShutdown()` — waits
    /// at most ``ServerConfiguration/shutdownTimeout`` for the requests in
    /// flight, then cancels them.
    ///
    /// Requests cancelled that way are logged as a warning.
    public static func serviceGroup(
        running app: some Service,
        configuration: ServerConfiguration,
        handlingSignals: Bool = true,
        logger: Logger
    ) -> ServiceGroup {
        serviceGroup(running: app, configuration: configuration, handlingSignals: handlingSignals, logger: logger,
                     cancelled: NIOLockedValueBox(false))
    }

    /// ``serviceGroup(running:configuration:handlingSignals:logger:)``, setting
    /// `cancelled` when the shutdown timeout cancels the requests in flight.
    static func serviceGroup(
        running app: some Service,
        configuration: ServerConfiguration,
        handlingSignals: Bool,
        logger: Logger,
        cancelled: NIOLockedValueBox<Bool>
    ) -> ServiceGroup {
        let watched = ShutdownWatch(wrapped: app, timeout: configuration.shutdownTimeout, logger: logger,
                                    cancelled: cancelled)
        var group = ServiceGroupConfiguration(
            services: [watched], gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [], logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
        return ServiceGroup(configuration: group)
    }
}
