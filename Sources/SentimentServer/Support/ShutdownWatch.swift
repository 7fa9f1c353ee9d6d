import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Runs a service and notes whether a shutdown had to cancel it.
///
/// A graceful shutdown waits for the requests in flight; past
/// ``ServerConfiguration/shutdownTimeout`` the service group cancels the
/// service, and with it those requests. ServiceLifecycle says so only at
/// `debug`, so the server said it stopped with its "requests finished" all
/// the same: this service logs the cancellation as a warning and records it
/// for the server's last line.
struct ShutdownWatch<Wrapped: Service>: Service {
    let wrapped: Wrapped
    let timeout: Duration
    let logger: Logger
    /// Set once the wrapped service was cancelled.
    let cancelled: NIOLockedValueBox<Bool>

    func run() async throws {
        defer {
            if Task.isCancelled {
                cancelled.withLockedValue { $0 = true }
                logger.warning("shutdown: the requests still in flight after the shutdown timeout were cancelled",
                               metadata: ["timeout": "\(timeout)"])
            }
        }
        try await wrapped.run()
    }
}
