import Foundation
import Hummingbird
import Logging
import NIOCore
import Tweets

/// Builds the HTTP application: the API, `/healthz`, `/metrics` and the web page.
///
/// Middleware, outermost first: request id and access log, metrics, problem+json
/// errors, the `Host` check (``HostMiddleware``); write routes add the API key check. Every `GET` route also answers
/// `HEAD`; a known path asked with another method is a 405 with `Allow`. A
/// connection that sends nothing for ``ServerConfiguration/idleTimeout`` (half
/// a request head, a stalled body, an idle keep-alive) is closed, and so is one
/// whose request does not keep it alive (HTTP/1.0 without `keep-alive`,
/// `Connection: close` in any case) once answered. `Expect: 100-continue` is
/// answered at once (``HTTP1HeadHandler``).
///
/// The application is a swift-service-lifecycle `Service`: run it in the
/// group of ``Server/serviceGroup(running:configuration:handlingSignals:logger:)``,
/// and on SIGTERM or SIGINT the requests in flight finish (for at most
/// ``ServerConfiguration/shutdownTimeout``) before it returns.
///
/// ```swift
/// let app = try buildApplication(configuration: configuration, services: services, logger: logger)
/// try await Server.serviceGroup(running: app, configuration: configuration, logger: logger).run()
/// ```
///
/// - Parameters:
///   - configuration: host, port, limits, API key, page size (call ``ServerConfiguration/validate()`` first).
///   - services: the model, store, upstream and metrics.
///   - logger: the server's logger; each request's lines add `request_id`.
///   - onServerRunning: called with the bound port once the server listens (useful with port 0).
/// - Throws: when the page's files cannot be read.
public func buildApplication(
    configuration: ServerConfiguration,
    services: ServerServices,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    // HEAD works wherever GET does: the GET route answers, without its body.
    let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: MetricsMiddleware(metrics: services.metrics))
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: HostMiddleware(loopbackOnly: configuration.listensOnLoopbackOnly))

    let options = TweetService.Options(pageSize: configuration.pageSize)
    ClassifyRoutes(classifier: services.classifier, limits: configuration.classifyLimits, thresholds: options.thresholds,
                   metrics: services.metrics).register(on: router)
    UserRoutes(services: services, options: options, offline: configuration.offline).register(on: router)
    HistoryRoutes(services: services, apiKey: configuration.apiKey).register(on: router)
    HealthRoutes(services: services, profile: configuration.profile).register(on: router)
    try StaticFiles.bundled().register(on: router)
    // After the routes: it wraps only the router's not-found answer.
    router.add(middleware: MethodNotAllowedMiddleware(router: router))

    return Application(
        router: router,
        server: .http1(configuration: .init(additionalChannelHandlers: [HTTP1HeadHandlerInstaller { [metrics = services.metrics] status in
                                                metrics.recordMalformedRequest(status: status)
                                            }],
                                            idleTimeout: TimeAmount(configuration.idleTimeout))),
        configuration: ApplicationConfiguration(address: .hostname(HostAddress.bindable(configuration.host), port: configuration.port)),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            logger.notice("listening", metadata: [
                "address": "http://\(HostAddress.authority(configuration.host, port: port))", "profile": "\(configuration.profile.rawValue)",
                "model": "\(services.classifier.modelID)", "db": "\(configuration.databasePath)",
            ])
            await onServerRunning(port)
        },
        logger: logger
    )
}
