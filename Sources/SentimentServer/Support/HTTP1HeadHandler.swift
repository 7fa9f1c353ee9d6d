import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1

/// What only the HTTP/1 request head shows, handled next to the HTTP/1 codec:
/// Hummingbird sees requests after their HTTP version is gone, and answers
/// every one as HTTP/1.1.
///
/// - **Closing.** Hummingbird closes a connection after a response only when
///   the request says `Connection: close`, in that case. So an HTTP/1.0 request
///   without `keep-alive` (ApacheBench's, which waits for the close) left the
///   connection open until the idle timeout, and so did `Connection: Close`. A
///   request that NIO reads as not keep-alive (RFC 9112 §9.3) gets
///   `Connection: close`.
/// - **HTTP/1.0.** An HTTP/1.0 request is answered as HTTP/1.0, which has no
///   chunked framing (RFC 9112 §6.1): a body of unknown length (an NDJSON
///   stream) ends with the connection, which is then closed and says so. A
///   body of known length keeps a `keep-alive` connection open, with
///   `Connection: keep-alive` in the answer, as HTTP/1.0 clients expect.
/// - **A request NIO cannot parse** (an unknown method, a head over the
///   decoder's limits, a version other than HTTP/1, both `Content-Length` and
///   `Transfer-Encoding`) is answered by Hummingbird with a bare `400` and no
///   body; it gets the `malformed-request` problem and an `X-Request-ID` as
///   every other error does, or, for a head over the decoder's limit, the
///   `431` `head-too-large` problem (RFC 6585 §5).
/// - **`Host`.** An HTTP/1.1 request without one is marked
///   (``HeaderName/missingHost``) for ``HostMiddleware``, which refuses it:
///   HTTP/1.0 needs none, and past this handler the version is gone.
/// - **`Expect: 100-continue`.** A client that asks waits for `100 Continue`
///   before it sends the body (curl, for a body over 1 MiB, gives up waiting
///   after a second). It is sent at once (RFC 9110 §10.1.1), or, when the
///   request came on a connection still being answered (pipelined), once the
///   answers before it are complete, so that it never lands inside another.
final class HTTP1HeadHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request whose answer is not complete yet.
    private struct Pending {
        var version: HTTPVersion
        var keepAlive: Bool
        /// Still owed a `100 Continue`.
        var owedContinue: Bool
        /// Its answer ends the connection (HTTP/1.0 with no length).
        var closesAfter = false
    }

    /// Requests in the order they came, the one being answered first.
    private var pending: [Pending] = []

    /// What the decoder could not parse, once it has said so.
    private var parserError: HTTPParserError?
    /// Told the status of each answer to a request the decoder could not parse (for the metrics).
    private let onMalformed: @Sendable (Int) -> Void

    init(onMalformed: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.onMalformed = onMalformed
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError { parserError = error }
        context.fireErrorCaught(error)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let expects = head.version != .http1_0
            && head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" })
        pending.append(Pending(version: head.version, keepAlive: head.isKeepAlive, owedContinue: expects))
        // HTTP/1.1 requires a Host (RFC 9112 §3.2), HTTP/1.0 does not: only
        // this handler still knows the version, so it marks the request.
        head.headers.remove(name: HeaderName.missingHost.rawName)
        if head.version != .http1_0, head.headers["host"].isEmpty {
            head.headers.add(name: HeaderName.missingHost.rawName, value: "1")
        }
        if pending.count == 1 { sendOwedContinue(context: context) }
        if !head.isKeepAlive, head.headers["connection"] != ["close"] {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where parserError != nil && head.status == .badRequest
            && head.headers["content-length"] == ["0"] && head.headers["content-type"].isEmpty:
            // Hummingbird's answer to a parse error: the problem instead.
            let requestID = UUID().uuidString.lowercased()
            let problem = Self.problem(for: parserError!)
            head.status = HTTPResponseStatus(statusCode: Int(problem.status.code))
            let body = (try? JSONCoding.encoder.encode(problem.body(instance: nil, requestID: requestID))) ?? Data()
            head.headers.replaceOrAdd(name: "content-type", value: Problem.contentType)
            head.headers.replaceOrAdd(name: "content-length", value: String(body.count))
            head.headers.replaceOrAdd(name: HeaderName.requestID.rawName, value: requestID)
            // Every answer has a Date (RFC 9110 §6.6.1); Hummingbird's bare 400 has none.
            head.headers.replaceOrAdd(name: "date", value: Self.imfFixdate(Date()))
            // A request cut off by the client's close is not one the parser
            // refused: nobody reads its answer, and no metric counts it.
            if parserError != .invalidEOFState { onMalformed(Int(problem.status.code)) }
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: promise)
        case .head(var head) where head.status != .continue && pending.first?.version == .http1_0:
            head.version = .http1_0
            head.headers.remove(name: "transfer-encoding")
            if head.headers["content-length"].isEmpty {
                pending[0].closesAfter = true
                head.headers.replaceOrAdd(name: "connection", value: "close")
            } else if pending[0].keepAlive {
                head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            context.write(data, promise: promise)
            guard !pending.isEmpty else { return }
            let answered = pending.removeFirst()
            if answered.closesAfter {
                context.flush()
                context.close(promise: nil)
            } else {
                sendOwedContinue(context: context)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    /// `date` as HTTP writes it: "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110 §5.6.7).
    static func imfFixdate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// The problem a parse error is answered with.
    static func problem(for error: HTTPParserError) -> Problem {
        error == .headerOverflow ? .headTooLarge(describe(error)) : .malformedRequest(describe(error))
    }

    /// What a parse error means, for the person who sent the request: each
    /// of llhttp's errors as NIO names it, with every cause that raises it
    /// (llhttp raises one error for several: a Content-Length that is not a
    /// number and one beside Transfer-Encoding are both `invalidContentLength`).
    static func describe(_ error: HTTPParserError) -> String {
        switch error {
        case .headerOverflow: "the request line and headers are larger than this server reads"
        case .invalidMethod: "the method is not an HTTP method"
        case .invalidVersion: "the request line does not end in HTTP/1.0 or HTTP/1.1 and CRLF"
        case .invalidURL: "the request target is not a valid URL path"
        case .unexpectedContentLength: "the request has more than one Content-Length"
        case .invalidContentLength: "the Content-Length is not a number, or comes with Transfer-Encoding"
        case .invalidHeaderToken, .invalidCharactersUsed: "a header name or value holds a character HTTP does not allow"
        case .invalidConstant: "the request line or a header is malformed (a space in the target, a line end that is not CRLF)"
        case .lfExpected: "a line of the request head does not end in CRLF"
        case .invalidChunkSize: "a chunk size is not a hexadecimal number"
        case .paused: "the request is not HTTP/1.0 or HTTP/1.1 (HTTP/2 is not served over a plain connection)"
        default: "the request is not valid HTTP/1.1: its framing or line ends are malformed "
            + "(Transfer-Encoding beside Content-Length, a line end that is not CRLF)"
        }
    }

    /// Sends `100 Continue` to the request being answered, if it is owed one.
    private func sendOwedContinue(context: ChannelHandlerContext) {
        guard let first = pending.first, first.owedContinue else { return }
        pending[0].owedContinue = false
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: first.version, status: .continue))),
                              promise: nil)
    }
}

/// Hummingbird adds its extra channel handlers after its HTTP/1 → HTTP types
/// codec; this one puts an ``HTTP1HeadHandler`` right after the HTTP/1
/// decoder instead, where the version is still known, and leaves.
final class HTTP1HeadHandlerInstaller: ChannelInboundHandler, RemovableChannelHandler {
    /// Never read: the handler leaves the pipeline as soon as it is added.
    typealias InboundIn = NIOAny

    private let onMalformed: @Sendable (Int) -> Void

    /// - Parameter onMalformed: told the status of each answer to a request the decoder could not parse.
    init(onMalformed: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.onMalformed = onMalformed
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        if let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self) {
            try? pipeline.addHandler(HTTP1HeadHandler(onMalformed: onMalformed), position: .after(decoder.handler))
        } else {
            assertionFailure("no HTTP/1 request decoder in the pipeline")
        }
        pipeline.removeHandler(context: context, promise: nil)
    }
}
