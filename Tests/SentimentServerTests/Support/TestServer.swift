import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Prometheus
import ServiceLifecycle
import TestSupport
import Testing
@testable import SentimentServer
@testable import Tweets

/// A real server on 127.0.0.1 and a random port, with a temporary database,
/// run in a `ServiceGroup` and shut down gracefully after the test's body.
struct TestServer: Sendable {
    /// `http://127.0.0.1:<port>`.
    let baseURL: String
    let store: TweetStore
    let metrics: ServerMetrics
    let configuration: ServerConfiguration
    /// Starts a graceful shutdown (the body's requests in flight finish).
    let shutdown: @Sendable () async -> Void

    /// Runs `body` against a new server.
    ///
    /// - Parameters:
    ///   - upstream: a fake X API's base URL; `nil` runs offline.
    ///   - configure: changes to the configuration (port 0, a temporary database, the dev profile).
    ///   - seed: runs on the store before the server starts (imports).
    ///   - logger: the server's logger (`recordingLogger(_:)` to look at its lines).
    ///   - busyTimeout: how long the store's writes wait for another connection's write lock (10 s by default).
    static func with<T: Sendable>(
        upstream: URL? = nil,
        classifier: any TweetClassifier = KeywordClassifier(),
        logger: Logger = testLogger,
        busyTimeout: TimeInterval = TweetStore.busyTimeout,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        seed: (TweetService) async throws -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        // Hundreds of tests at once each held a server's sockets and a
        // database's files: one slot each (see `TaskSlots`).
        try await slots.holding {
            try await withoutSlot(upstream: upstream, classifier: classifier, logger: logger,
                                  busyTimeout: busyTimeout, configure: configure, seed: seed, body)
        }
    }

    /// How many servers `with` runs at once.
    static let slots = TaskSlots(limit: 16)

    private static func withoutSlot<T: Sendable>(
        upstream: URL?, classifier: any TweetClassifier, logger: Logger, busyTimeout: TimeInterval,
        configure: (inout ServerConfiguration) -> Void, seed: (TweetService) async throws -> Void,
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration(
            profile: .dev, port: 0, databasePath: folder.appendingPathComponent("tweets.sqlite").path,
            upstreamBaseURL: upstream, bearerToken: BearerToken("test-token"), offline: upstream == nil,
            retryPolicy: RetryPolicy.none)
        configure(&configuration)
        let store = try TweetStore(path: configuration.databasePath, logger: testLogger, busyTimeout: busyTimeout)
        try await seed(TweetService(store: store, source: nil, classifier: classifier, logger: testLogger))
        let metrics = ServerMetrics(registry: PrometheusCollectorRegistry())
        let source = ServerServices.makeSource(configuration: configuration, httpClient: .shared, metrics: metrics,
                                               logger: logger)
        let services = ServerServices(classifier: classifier, store: store, source: source, metrics: metrics)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try buildApplication(configuration: configuration, services: services, logger: logger) { port in
            portContinuation.yield(port)
            portContinuation.finish()
        }
        let group = Server.serviceGroup(running: app, configuration: configuration, handlingSignals: false,
                                       logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            let server = TestServer(baseURL: "http://127.0.0.1:\(port)", store: store, metrics: metrics,
                                    configuration: configuration, shutdown: { await group.triggerGracefulShutdown() })
            do {
                let result = try await body(server)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    // MARK: - Requests

    /// An answer: status, headers and body.
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        /// The body as JSON.
        func json() throws -> Any { try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
        /// The body as a JSON object.
        func object() throws -> [String: Any] { try #require(try json() as? [String: Any]) }
        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The `Content-Type` header.
        var contentType: String { headers["content-type"] ?? "" }
    }

    /// Sends a request and collects the whole answer.
    func request(_ method: HTTPMethod = .GET, _ path: String, body: Data? = nil, headers: [(String, String)] = [],
                 contentType: String? = "application/json", streamed: Bool = false) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
            if streamed {
                // No Content-Length: the body arrives in chunks of 1 kB.
                let chunks = stride(from: 0, to: body.count, by: 1024).map { ByteBuffer(bytes: body[$0..<min(body.count, $0 + 1024)]) }
                request.body = .stream(ChunkSequence(chunks: chunks), length: .unknown)
            } else {
                request.body = .bytes(ByteBuffer(bytes: body))
            }
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name.lowercased()] = header.value }
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return Answer(status: Int(response.status.code), headers: headers, body: Data(buffer: bytes))
    }

    /// `POST path` with a JSON body.
    func post(_ path: String, json: Any) async throws -> Answer {
        try await request(.POST, path, body: try JSONSerialization.data(withJSONObject: json))
    }
}

/// Chunks of a body as an `AsyncSequence`, yielding between them so that they go out separately.
struct ChunkSequence: AsyncSequence, Sendable {
    let chunks: [ByteBuffer]

    struct AsyncIterator: AsyncIteratorProtocol {
        var iterator: IndexingIterator<[ByteBuffer]>
        mutating func next() async -> ByteBuffer? {
            await Task.yield()
            return iterator.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(iterator: chunks.makeIterator()) }
}

/// Imports the sample archive `Examples/archive/sunnydays` into a store.
func importSunnydays(_ service: TweetService) async throws {
    let contents = try ArchiveParser.load(from: packageRoot.appendingPathComponent("Examples/archive/sunnydays"))
    _ = try await service.importArchive(contents, owner: "sunnydays")
}
