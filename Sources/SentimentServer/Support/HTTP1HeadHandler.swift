import NIOCore
import NIOHTTP1

/// What only the HTTP/1 request head shows, handled next to the HTTP/1 decoder:
/// Hummingbird sees requests after their HTTP version is gone.
///
/// - **Closing.** Hummingbird closes a connection after a response only when
///   the request says `Connection: close`, in that case. So an HTTP/1.0 request
///   without `keep-alive` (ApacheBench's, which waits for the close) left the
///   connection open until the idle timeout, and so did `Connection: Close`. A
///   request that NIO reads as not keep-alive (RFC 9112 §9.3) gets
///   `Connection: close`.
/// - **`Expect: 100-continue`.** A client that asks waits for `100 Continue`
///   before it sends the body (curl, for a body over 1 MiB, gives up waiting
///   after a second). It is sent at once (RFC 9110 §10.1.1).
final class HTTP1HeadHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.version != .http1_0, head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" }) {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
        }
        if !head.isKeepAlive, head.headers["connection"] != ["close"] {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}

/// Hummingbird adds its extra channel handlers after its HTTP/1 → HTTP types
/// codec; this one puts an ``HTTP1HeadHandler`` right after the HTTP/1
/// decoder instead, where the version is still known, and leaves.
final class HTTP1HeadHandlerInstaller: ChannelInboundHandler, RemovableChannelHandler {
    /// Never read: the handler leaves the pipeline as soon as it is added.
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        if let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self) {
            try? pipeline.addHandler(HTTP1HeadHandler(), position: .after(decoder.handler))
        } else {
            assertionFailure("no HTTP/1 request decoder in the pipeline")
        }
        pipeline.removeHandler(context: context, promise: nil)
    }
}
