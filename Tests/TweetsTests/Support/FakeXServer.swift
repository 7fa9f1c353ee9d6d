import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A local stand-in for the X API, shared by TweetsTests and SentimentServerTests
/// (the latter links this file): a real HTTP/1.1 server on 127.0.0.1 and a
/// random port, answering each request with what a test's handler says.
final class FakeXServer: @unchecked Sendable {
    /// A request as the server saw it.
    struct Request: Sendable {
        var path: String
        var query: [String: String]
        var headers: [String: String]
    }

    /// What to do with a request.
    enum Reply: Sendable {
        /// A status, headers and body.
        case respond(status: Int, headers: [(String, String)] = [], body: String)
        /// Close the connection without answering.
        case drop
        /// Never answer (for timeouts).
        case hang
        /// Answer after a pause (for requests in flight during a shutdown).
        indirect case delayed(Duration, Reply)
    }

    private let lock = NSLock()
    private var _requests: [Request] = []
    private let handler: @Sendable (Request, Int) -> Reply
    private var channel: (any Channel)?

    /// Every request received, in order.
    var requests: [Request] { lock.withLock { _requests } }
    /// `http://127.0.0.1:<port>`.
    private(set) var baseURL = URL(string: "http://127.0.0.1")!

    /// Starts a server; `handler` gets each request and its 0-based index.
    static func start(_ handler: @escaping @Sendable (Request, Int) -> Reply) async throws -> FakeXServer {
        let server = FakeXServer(handler: handler)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(server: server))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        server.channel = channel
        server.baseURL = URL(string: "http://127.0.0.1:\(channel.localAddress!.port!)")!
        return server
    }

    private init(handler: @escaping @Sendable (Request, Int) -> Reply) {
        self.handler = handler
    }

    func stop() async throws {
        try await channel?.close()
    }

    fileprivate func reply(to head: HTTPRequestHead) -> Reply {
        let components = URLComponents(string: head.uri)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        let request = Request(path: components?.path ?? head.uri, query: query, headers: headers)
        let index = lock.withLock {
            _requests.append(request)
            return _requests.count - 1
        }
        return handler(request, index)
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let server: FakeXServer
        var head: HTTPRequestHead?

        init(server: FakeXServer) { self.server = server }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
            case .body:
                break
            case .end:
                guard let head else { return }
                answer(server.reply(to: head), head: head, context: context)
            }
        }

        private func answer(_ reply: Reply, head: HTTPRequestHead, context: ChannelHandlerContext) {
            switch reply {
            case .delayed(let pause, let reply):
                let (seconds, attoseconds) = pause.components
                // The handler and its context stay on their event loop.
                let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
                    bound.value.handler.answer(reply, head: head, context: bound.value.context)
                }
            case .drop:
                context.close(promise: nil)
            case .hang:
                break
            case .respond(let status, let extra, let body):
                var headers = HTTPHeaders([("Content-Type", "application/json"),
                                           ("Content-Length", String(body.utf8.count))])
                headers.add(contentsOf: extra)
                let responseHead = HTTPResponseHead(version: head.version, status: .init(statusCode: status),
                                                    headers: headers)
                context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}

/// Canned X API v2 bodies.
enum XBodies {
    static func user(id: String = "100", username: String = "Alice") -> String {
        #"{"data":{"id":"\#(id)","name":"Alice Example","username":"\#(username)","description":"Made up.","profile_image_url":"https://example.com/a.png"}}"#
    }

    static let unknownUser = #"{"errors":[{"value":"nobody","detail":"Could not find user with username: [nobody].","title":"Not Found Error","resource_type":"user","parameter":"username","resource_id":"nobody","type":"https://api.twitter.com/2/problems/resource-not-found"}]}"#

    static let unauthorized = #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#

    static func tweets(_ ids: ClosedRange<Int>, next: String?) -> String {
        let data = ids.reversed().map { id in
            #"{"id":"\#(id)","text":"tweet \#(id) is great &amp; fun","created_at":"2024-05-01T10:\#(String(format: "%02d", id % 60)):00.000Z","lang":"en","edit_history_tweet_ids":["\#(id)"]}"#
        }
        let meta = next.map { #"{"result_count":\#(ids.count),"next_token":"\#($0)"}"# } ?? #"{"result_count":\#(ids.count)}"#
        return #"{"data":[\#(data.joined(separator: ","))],"meta":\#(meta)}"#
    }
}
