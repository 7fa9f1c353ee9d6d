import NIOCore
import NIOHTTP1

/// Lets a request that does not keep its connection alive close it.
///
/// Hummingbird closes a connection after a response only when the request says
/// `Connection: close`, in that case, and it sees requests after their HTTP
/// version is gone. So an HTTP/1.0 request without `keep-alive` (ApacheBench's,
/// which waits for the close) left the connection open until the idle timeout,
/// and so did `Connection: Close`. Here, next to the HTTP/1 decoder, a request
/// that NIO reads as not keep-alive (RFC 9112 §9.3) gets `Connection: close`.
final class ConnectionCloseNormalizer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive, head.headers["connection"] != ["close"] else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}

/// Hummingbird adds its extra channel handlers after its HTTP/1 → HTTP types
/// codec; this one puts a ``ConnectionCloseNormalizer`` right after the HTTP/1
/// decoder instead, where the version is still known, and leaves.
final class ConnectionCloseInstaller: ChannelInboundHandler, RemovableChannelHandler {
    /// Never read: the handler leaves the pipeline as soon as it is added.
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        if let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self) {
            try? pipeline.addHandler(ConnectionCloseNormalizer(), position: .after(decoder.handler))
        } else {
            assertionFailure("no HTTP/1 request decoder in the pipeline")
        }
        pipeline.removeHandler(context: context, promise: nil)
    }
}
