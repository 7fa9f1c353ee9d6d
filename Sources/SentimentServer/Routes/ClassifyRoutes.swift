import Foundation
import Hummingbird
import NIOCore
import Sentiment
import Tweets

/// `POST /v1/classify`: the mood of texts, one result per input, in order.
///
/// - `application/json`: `{"texts": ["…", …]}` or `{"items": [{"id": …, "text": "…"}, …]}`
///   → `{"model": "…", "results": [ClassifyResult…]}`. At most
///   ``ClassifyLimits/maximumItems`` items and ``ClassifyLimits/maximumBodyBytes`` bytes,
///   else 413; a body that is not JSON or not one of these shapes is a 400.
/// - `application/x-ndjson`: one `{"id": …, "text": "…"}` (or a bare JSON string)
///   per line → one result per line, streamed as the lines arrive and are
///   classified in batches. A bad line is a per-item error. Over
///   ``ClassifyLimits/maximumStreamItems`` items or ``ClassifyLimits/maximumStreamBytes``
///   bytes the answer is a 413 when the length is known up front, else every
///   line that ends within the limit is answered and the stream ends with a
///   line `{"error": {problem}}`.
///
/// A bad item (not a string, empty, too long, a bad id) is answered with
/// `{"index", "id", "error": {"code", "detail"}}` in its place: one bad item
/// never fails the batch.
struct ClassifyRoutes {
    let classifier: any TweetClassifier
    let limits: ClassifyLimits
    let thresholds: ThemeThresholds
    let metrics: ServerMetrics

    static let ndjson = "application/x-ndjson"

    func register(on router: Router<ServerRequestContext>) {
        router.post("/v1/classify") { request, context in
            try await classify(request, context: context)
        }
    }

    func classify(_ request: Request, context: ServerRequestContext) async throws -> Response {
        if let coding = Self.contentCoding(of: request.headers[values: .contentEncoding]) {
            throw Problem.unsupportedContentEncoding(coding)
        }
        switch request.headers[.contentType].flatMap(Self.mediaType) {
        case nil, "application/json":
            return try await classifyJSON(request, context: context)
        case Self.ndjson, "application/jsonl", "application/jsonlines":
            return try classifyStream(request, context: context)
        case let other?:
            throw Problem.unsupportedMediaType(other)
        }
    }

    /// The media type of a `Content-Type` value, lowercased and without
    /// parameters (`"application/json"` for `"Application/JSON; charset=utf-8"`),
    /// or `nil` when it is empty (`""`, `";"`, `"; charset=utf-8"`), which counts as missing.
    static func mediaType(of contentType: String) -> String? {
        let type = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        return type.isEmpty ? nil : type
    }

    /// The first content coding other than `identity` in the `Content-Encoding`
    /// fields, lowercased, or `nil` when the body is sent as it is.
    static func contentCoding(of fields: [String]) -> String? {
        headerListItems(fields).lazy.map { $0.lowercased() }.first { $0 != "identity" }
    }

    // MARK: - JSON

    private func classifyJSON(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let data = try await request.body.collect(limit: limits.maximumBodyBytes, declaredLength: request.contentLength)
        let value: JSONValue
        do {
            // An escape of half a surrogate pair (an emoji cut at a UTF-16
            // length) is read as U+FFFD: one such text does not fail the batch.
            value = try LoneSurrogateEscapes.decode(JSONValue.self, from: data)
        } catch {
            throw Problem.malformedBody(JSONCoding.describe(error, data: data))
        }
        guard case .object(let object) = value else {
            throw Problem.malformedBody("the body is \(value.typeName); expected an object with \"texts\" or \"items\"")
        }
        let items: [ClassifyItem]
        // A member that is `null` counts as absent.
        let present = { (name: String) in object[name].flatMap { $0 == .null ? nil : $0 } }
        switch (present("texts"), present("items")) {
        case (let texts?, nil):
            guard case .array(let array) = texts else {
                throw Problem.malformedBody("\"texts\" is \(texts.typeName); expected an array of strings")
            }
            guard array.count <= limits.maximumItems else { throw Problem.tooManyItems(array.count, limit: limits.maximumItems) }
            items = array.enumerated().map { ClassifyItem.fromText($1, index: $0, limits: limits) }
        case (nil, let list?):
            guard case .array(let array) = list else {
                throw Problem.malformedBody("\"items\" is \(list.typeName); expected an array of {\"id\", \"text\"} objects")
            }
            guard array.count <= limits.maximumItems else { throw Problem.tooManyItems(array.count, limit: limits.maximumItems) }
            // The body is copied and scanned as written only when an id is a number.
            let written = array.contains(where: ClassifyItem.hasNumberID)
                ? JSONText(document: ArraySlice(data)).member("items")?.elements.flatMap { $0.count == array.count ? $0 : nil } : nil
            items = array.enumerated().map {
                ClassifyItem.fromItem($1, written: written?[$0], index: $0, field: "items[\($0)]", limits: limits)
            }
        case (.some, .some):
            throw Problem.malformedBody("give either \"texts\" or \"items\", not both")
        case (nil, nil):
            throw Problem.malformedBody("expected an object with \"texts\" (an array of strings) or \"items\" (an array of {\"id\", \"text\"})")
        }
        let results = classifier.results(for: items, thresholds: thresholds)
        metrics.recordClassified(items.count { (try? $0.text.get()) != nil }, endpoint: "classify")
        let body = try JSONCoding.encoder.encode(ClassifyAnswer(model: classifier.modelID, results: results))
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    // MARK: - NDJSON

    private func classifyStream(_ request: Request, context: ServerRequestContext) throws -> Response {
        if let length = request.contentLength, length > limits.maximumStreamBytes {
            throw Problem.bodyTooLarge(limit: limits.maximumStreamBytes)
        }
        let body = request.body
        let classifier = classifier
        let limits = limits
        let thresholds = thresholds
        let metrics = metrics
        let logger = context.logger
        let requestID = context.requestID
        var headers = HTTPFields()
        headers[.contentType] = Self.ndjson
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // Room for the longest text however it is written: a character
            // outside the BMP escaped as a surrogate pair (`\uD83D\uDE00`) is
            // 12 bytes, and the id and the rest of the object fit in 4 KiB.
            var splitter = LineSplitter(maximumLineBytes: limits.maximumTextLength * 12 + 4096)
            var pending: [ClassifyItem] = []
            var count = 0
            var lineNumber = 0  // of the body's lines, blank ones included: what errors name
            var received = 0
            var stop: Problem?
            let encoder = JSONCoding.encoder

            func take(_ line: LineSplitter.Line) {
                lineNumber += 1
                let item: ClassifyItem
                switch line {
                case .text(let bytes):
                    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
                    let data = Data(bytes)
                    do {
                        let value = try LoneSurrogateEscapes.decode(JSONValue.self, from: data)
                        item = ClassifyItem.fromItem(value, written: JSONText(document: bytes[...]), index: count, field: "line \(lineNumber)", limits: limits)
                    } catch {
                        item = ClassifyItem(index: count, id: .null,
                                            text: .failure(.malformedJSON("line \(lineNumber): \(JSONCoding.describe(error, data: data))")))
                    }
                case .tooLong(let prefix):
                    item = ClassifyItem(index: count, id: ClassifyItem.leadingID(in: prefix),
                                        text: .failure(.textTooLong("line \(lineNumber) is too long")))
                }
                if count >= limits.maximumStreamItems {
                    stop = stop ?? Problem.tooManyItems(count + 1, limit: limits.maximumStreamItems)
                    return
                }
                pending.append(item)
                count += 1
            }

            func flush(_ writer: inout any ResponseBodyWriter) async throws {
                var start = 0
                while start < pending.count {
                    let batch = Array(pending[start..<min(pending.count, start + limits.streamBatchSize)])
                    start += batch.count
                    var output = ByteBuffer()
                    for result in classifier.results(for: batch, thresholds: thresholds) {
                        output.writeBytes(try encoder.encode(result))
                        output.writeInteger(UInt8(ascii: "\n"))
                    }
                    metrics.recordClassified(batch.count { (try? $0.text.get()) != nil }, endpoint: "classify")
                    try await writer.write(output)
                }
                pending.removeAll(keepingCapacity: true)
            }

            reading: for try await chunk in body {
                // Only the bytes within the limit are read, so every line that
                // ends within it is answered, however the body was chunked.
                let room = limits.maximumStreamBytes - received
                received += chunk.readableBytes
                splitter.append(chunk.readableBytesView.prefix(room))
                while let line = splitter.next() {
                    take(line)
                    if stop != nil { break reading }
                }
                if received > limits.maximumStreamBytes {
                    stop = Problem.bodyTooLarge(limit: limits.maximumStreamBytes)
                    break reading
                }
                try await flush(&writer)
            }
            if stop == nil, let line = splitter.finish() { take(line) }
            try await flush(&writer)
            if let stop {
                logger.notice("NDJSON stream stopped", metadata: ["reason": "\(stop.detail ?? stop.title)"])
                var output = ByteBuffer(bytes: try encoder.encode(["error": stop.body(instance: "/v1/classify", requestID: requestID)]))
                output.writeInteger(UInt8(ascii: "\n"))
                try await writer.write(output)
            }
            try await writer.finish(nil)
        })
    }
}

/// The JSON answer: `{"model": "…", "results": […]}`.
struct ClassifyAnswer: Encodable {
    var model: String
    var results: [ClassifyResult]
}

extension Request {
    /// The `Content-Length`, when the client sent one.
    var contentLength: Int? { headers[.contentLength].flatMap { Int($0) } }
}

extension RequestBody {
    /// The whole body, or a 413 ``Problem`` as soon as it is longer than `limit`.
    func collect(limit: Int, declaredLength: Int?) async throws -> Data {
        if let declaredLength, declaredLength > limit { throw Problem.bodyTooLarge(limit: limit) }
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.readableBytes <= limit else { throw Problem.bodyTooLarge(limit: limit) }
            data.append(contentsOf: chunk.readableBytesView)
        }
        return data
    }
}
