import Foundation
import Testing
import Tweets
@testable import SentimentServer

@Suite("POST /v1/classify")
struct ClassifyRouteTests {
    // MARK: - JSON

    @Test("Texts are answered one result per input, in order, with label, probabilities, score and theme")
    func textsAreAnsweredInOrder() async throws {
        try await TestServer.with { server in
            let answer = try await server.post("/v1/classify", json: ["texts": ["I love this", "so sad today", "a note"]])
            #expect(answer.status == 200)
            #expect(answer.contentType == "application/json")
            let body = try answer.object()
            #expect(body["model"] as? String == KeywordClassifier().modelID)
            let results = try #require(body["results"] as? [[String: Any]])
            #expect(results.map { $0["index"] as? Int } == [0, 1, 2])
            #expect(results.map { $0["label"] as? String } == ["positive", "negative", "neutral"])
            #expect(results.map { ($0["theme"] as? [String: Any])?["name"] as? String } == ["happy", "sad", "neutral"])
            #expect(results.map { ($0["theme"] as? [String: Any])?["emoji"] as? String } == ["😃", "😔", "😐"])
            #expect(results.map { ($0["theme"] as? [String: Any])?["color"] as? String } == ["#FFD60A", "#0A84FF", "#8E8E93"])
            #expect(results.map { $0["unsupported"] as? Bool } == [false, false, false])
            #expect(results.allSatisfy { $0["id"] is NSNull })
            let first = try #require(results.first)
            let probabilities = try #require(first["probabilities"] as? [String: Double])
            #expect(probabilities == ["negative": 0.05, "neutral": 0.15, "positive": 0.8])
            #expect(abs((first["score"] as? Double ?? 0) - 0.75) < 1e-9)
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")
        }
    }

    @Test("Items keep their ids, strings and numbers alike")
    func itemsKeepTheirIDs() async throws {
        try await TestServer.with { server in
            let answer = try await server.post("/v1/classify", json: ["items": [
                ["id": "a-1", "text": "great stuff"], ["id": 42, "text": "awful"], ["text": "no id"],
            ]])
            #expect(answer.status == 200)
            let results = try #require(try answer.object()["results"] as? [[String: Any]])
            #expect(results[0]["id"] as? String == "a-1")
            #expect(results[1]["id"] as? Int == 42)
            #expect(results[2]["id"] is NSNull)
            #expect(results.map { $0["mood"] as? String } == ["happy", "sad", "neutral"])
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")
        }
    }

    @Test("A text in another language has no label and no theme, and says so")
    func unsupportedLanguageHasNoLabel() async throws {
        try await TestServer.with { server in
            let answer = try await server.post("/v1/classify", json: ["texts": ["¡Hola amigos!"]])
            let result = try #require((try answer.object()["results"] as? [[String: Any]])?.first)
            #expect(result["label"] is NSNull)
            #expect(result["theme"] is NSNull)
            #expect(result["unsupported"] as? Bool == true)
            #expect(result["lang"] as? String == "es")
            #expect(result["mood"] as? String == "unsupported_language")
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")
        }
    }

    @Test("Bad items are answered in their place; the others are classified")
    func badItemsNeverFailTheBatch() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.maximumTextLength = 20 }) { server in
            let answer = try await server.post("/v1/classify", json: ["items": [
                ["id": 1, "text": "I love it"],
                ["id": 2, "text": 7],
                ["id": 3],
                ["id": 4, "text": "   "],
                ["id": 5, "text": String(repeating: "a", count: 21)],
                ["id": ["nested"], "text": "fine"],
                "bare string ok",
                12,
                ["id": 9, "text": "so sad"],
            ]])
            #expect(answer.status == 200)
            let results = try #require(try answer.object()["results"] as? [[String: Any]])
            #expect(results.count == 9)
            #expect(results.map { $0["index"] as? Int } == Array(0..<9))
            let codes = results.map { ($0["error"] as? [String: Any])?["code"] as? String }
            #expect(codes == [nil, "not-a-string", "missing-text", "empty-text", "text-too-long", "invalid-id", nil,
                              "not-an-object", nil])
            #expect(results[0]["label"] as? String == "positive")
            #expect(results[8]["label"] as? String == "negative")
            #expect(results[1]["id"] as? Int == 2)
            let detail = try #require((results[1]["error"] as? [String: Any])?["detail"] as? String)
            #expect(detail.contains("items[1].text"))
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")
        }
    }

    @Test("An escape of half a surrogate pair (an emoji cut short) is read as U+FFFD, in JSON and NDJSON alike, and fails neither the batch nor its line")
    func loneSurrogateEscapeIsReadAsReplacement() async throws {
        try await TestServer.with { server in
            let json = #"{"items": [{"id": "a", "text": "I love it"}, {"id": "b", "text": "so sad today \ud83d"}]}"#
            let answer = try await server.request(.POST, "/v1/classify", body: Data(json.utf8))
            #expect(answer.status == 200)
            let results = try #require(try answer.object()["results"] as? [[String: Any]])
            #expect(results.map { $0["id"] as? String } == ["a", "b"])
            #expect(results.allSatisfy { $0["label"] is String && $0["error"] == nil }, "\(results)")

            let lines = #"{"id": "c", "text": "half \udc00 an emoji"}"# + "\n" + #"{"id": "d", "text": "fine"}"#
            let stream = try await server.request(.POST, "/v1/classify", body: Data(lines.utf8), contentType: "application/x-ndjson")
            let streamed = try stream.text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(streamed.map { $0["id"] as? String } == ["c", "d"])
            #expect(streamed.allSatisfy { $0["label"] is String && $0["error"] == nil }, "\(streamed)")
        }
    }

    // MARK: - Malformed bodies and limits

    @Test("Malformed bodies are 400 problem+json naming what is wrong", arguments: [
        (#"{"texts": ["a", }"#, "not valid JSON: Invalid value around character 16"),
        (#"["a", "b"]"#, "the body is an array"),
        (#"{"text": "a"}"#, "expected an object with \"texts\""),
        (#"{"texts": "a"}"#, "\"texts\" is a string"),
        (#"{"items": {"text": "a"}}"#, "\"items\" is an object"),
        (#"{"texts": [], "items": []}"#, "not both"),
        ("", "not valid JSON: the body is empty"),
    ])
    func malformedBodiesAreBadRequests(body: String, expected: String) async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: Data(body.utf8))
            #expect(answer.status == 400)
            #expect(answer.contentType == "application/problem+json")
            let problem = try answer.object()
            #expect(problem["status"] as? Int == 400)
            #expect(problem["type"] as? String == "urn:swift-sentiment:problem:malformed-body")
            #expect(problem["instance"] as? String == "/v1/classify")
            #expect((problem["request_id"] as? String)?.isEmpty == false)
            let detail = problem["detail"] as? String ?? ""
            #expect(detail.contains(expected), "detail: \(detail)")
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")
        }
    }

    @Test("More items than the limit is a 413 naming the limit")
    func tooManyItemsIs413() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.maximumItems = 3 }) { server in
            let ok = try await server.post("/v1/classify", json: ["texts": ["a", "b", "c"]])
            #expect(ok.status == 200)
            let answer = try await server.post("/v1/classify", json: ["texts": ["a", "b", "c", "d"]])
            #expect(answer.status == 413)
            #expect(answer.contentType == "application/problem+json")
            let problem = try answer.object()
            #expect(problem["code"] as? String == "too-many-items")
            #expect(problem["limit"] as? Int == 3)
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")
        }
    }

    @Test("A body over the size limit is a 413, with or without a Content-Length")
    func bodyTooLargeIs413() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.maximumBodyBytes = 2000 }) { server in
            let body = try JSONSerialization.data(withJSONObject: ["texts": Array(repeating: "lorem ipsum dolor", count: 200)])
            for streamed in [false, true] {
                let answer = try await server.request(.POST, "/v1/classify", body: body, streamed: streamed)
                #expect(answer.status == 413)
                let problem = try answer.object()
                #expect(problem["code"] as? String == "body-too-large")
                #expect(problem["limit"] as? Int == 2000)
            }
        }
    }

    @Test("Another content type is a 415")
    func otherContentTypeIs415() async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: Data("texts=a".utf8),
                                                  contentType: "application/x-www-form-urlencoded")
            #expect(answer.status == 415)
            #expect(try answer.object()["code"] as? String == "unsupported-media-type")
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")
        }
    }

    @Test("A compressed body is a 415 that says to send it uncompressed, for JSON and NDJSON alike", arguments: [
        ("application/json", ["gzip"], "gzip"), ("application/x-ndjson", ["GZIP"], "gzip"),
        ("application/json", ["identity, br"], "br"), ("application/json", ["identity", "deflate"], "deflate"),
    ])
    func compressedBodyIs415(contentType: String, encodings: [String], named: String) async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: Data([0x1f, 0x8b, 0x08, 0x00]),
                                                  headers: encodings.map { ("Content-Encoding", $0) }, contentType: contentType)
            #expect(answer.status == 415)
            #expect(answer.headers["accept-encoding"] == "identity")
            let problem = try answer.object()
            #expect(problem["code"] as? String == "unsupported-content-encoding")
            #expect((problem["detail"] as? String)?.contains("'\(named)'") == true, "\(problem)")
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")
        }
    }

    @Test("A body declared identity-encoded is read as it is")
    func identityEncodingIsAccepted() async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: Data(#"{"texts":["lovely"]}"#.utf8),
                                                  headers: [("Content-Encoding", "identity")], contentType: "application/json")
            #expect(answer.status == 200)
        }
    }

    // MARK: - NDJSON

    @Test("NDJSON in, NDJSON out: one result per line, bad lines in their place, blank lines skipped")
    func ndjsonStreamsOneResultPerLine() async throws {
        try await TestServer.with { server in
            let lines = [
                #"{"id": "a", "text": "I love mornings"}"#,
                #""a bare string that is sad""#,
                "",
                #"{"id": "b", "text": 3}"#,
                #"{"id": "c", "text": "unterminated"#,
                #"{"id": "d", "text": "plain"}"#,
            ]
            let answer = try await server.request(.POST, "/v1/classify", body: Data(lines.joined(separator: "\r\n").utf8),
                                                  contentType: "application/x-ndjson")
            #expect(answer.status == 200)
            #expect(answer.contentType == "application/x-ndjson")
            let results = try answer.text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(results.count == 5)
            #expect(results.map { $0["index"] as? Int } == [0, 1, 2, 3, 4])
            #expect(results.map { $0["label"] as? String } == ["positive", "negative", nil, nil, "neutral"])
            #expect(results.map { ($0["error"] as? [String: Any])?["code"] as? String }
                == [nil, nil, "not-a-string", "malformed-json", nil])
            #expect(results[0]["id"] as? String == "a")
            #expect(results[4]["id"] as? String == "d")
            for result in results { try OpenAPIDocument.shared.validate(schema: "ClassifyResult", result) }
        }
    }

    @Test("A text at the length limit is classified in NDJSON however it is escaped, and the limit counts code points")
    func ndjsonLimitFitsEscapedText() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.maximumTextLength = 1000 }) { server in
            // Every emoji written as a surrogate-pair escape, as Python's json.dumps writes it: 12 bytes a character.
            let escaped = "I love it " + String(repeating: #"\uD83D\uDE00"#, count: 990)
            let accents = "I hate this a" + String(repeating: #"\u0301"#, count: 2000)
            let lines = [#"{"id": "emoji", "text": "\#(escaped)"}"#, #"{"id": "accents", "text": "\#(accents)"}"#]
            let answer = try await server.request(.POST, "/v1/classify", body: Data(lines.joined(separator: "\n").utf8),
                                                  contentType: "application/x-ndjson")
            #expect(answer.status == 200)
            let results = try answer.text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(results.map { $0["id"] as? String } == ["emoji", "accents"])
            #expect(results[0]["error"] == nil, "1,000 code points are within the limit: \(results[0])")
            #expect(results[0]["label"] as? String == "positive")
            let error = try #require(results[1]["error"] as? [String: Any], "13 grapheme clusters but 2,013 code points")
            #expect(error["code"] as? String == "text-too-long")
            #expect((error["detail"] as? String)?.contains("2013 characters") == true, "\(error)")
        }
    }

    @Test("An NDJSON line too long to read keeps the id written before its text, and the next line is read")
    func overLongLineKeepsItsID() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.maximumTextLength = 10 }) { server in
            let long = String(repeating: "a", count: 6000)
            let lines = [#"{"id": "first", "text": "\#(long)"}"#, #"{"text": "\#(long)", "id": "late"}"#, #"{"id": 3, "text": "lovely"}"#]
            let answer = try await server.request(.POST, "/v1/classify", body: Data(lines.joined(separator: "\n").utf8),
                                                  contentType: "application/x-ndjson")
            #expect(answer.status == 200)
            let results = try answer.text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(results.map { $0["index"] as? Int } == [0, 1, 2])
            #expect(results[0]["id"] as? String == "first")
            #expect(results[1]["id"] is NSNull, "an id after the cut is not read: \(results[1])")
            #expect(results[2]["id"] as? Int == 3)
            #expect(results.prefix(2).allSatisfy { ($0["error"] as? [String: Any])?["code"] as? String == "text-too-long" })
        }
    }

    @Test("A large chunked NDJSON body is streamed back in order")
    func largeNDJSONIsStreamed() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.streamBatchSize = 64 }) { server in
            let texts = (0..<3000).map { ["I love #\($0)", "so sad #\($0)", "note #\($0)"][$0 % 3] }
            let body = texts.enumerated().map { #"{"id": \#($0), "text": "\#($1)"}"# }.joined(separator: "\n") + "\n"
            let answer = try await server.request(.POST, "/v1/classify", body: Data(body.utf8),
                                                  contentType: "application/x-ndjson", streamed: true)
            #expect(answer.status == 200)
            let lines = answer.text.split(separator: "\n")
            #expect(lines.count == 3000)
            let results = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(results.map { $0["id"] as? Int } == Array(0..<3000))
            #expect(results.map { $0["label"] as? String } == texts.map { KeywordClassifier.predict($0).label.rawValue })
        }
    }

    @Test("An NDJSON stream over the item limit ends with an error line")
    func ndjsonOverTheLimitEndsWithAnError() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.maximumStreamItems = 5 }) { server in
            let body = (0..<8).map { #"{"id": \#($0), "text": "ok"}"# }.joined(separator: "\n")
            let answer = try await server.request(.POST, "/v1/classify", body: Data(body.utf8),
                                                  contentType: "application/x-ndjson", streamed: true)
            #expect(answer.status == 200)
            let lines = answer.text.split(separator: "\n")
            #expect(lines.count == 6)
            let last = try #require(try JSONSerialization.jsonObject(with: Data(lines[5].utf8)) as? [String: Any])
            let error = try #require(last["error"] as? [String: Any])
            #expect(error["code"] as? String == "too-many-items")
            #expect(error["status"] as? Int == 413)
        }
    }

    @Test("An NDJSON stream over the byte limit answers every line that ends within the limit, not only those of earlier chunks")
    func ndjsonOverTheByteLimitAnswersTheLinesWithinIt() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.maximumStreamBytes = 200 }) { server in
            // 20 lines of 12 bytes, in one chunk: the first 16 end within the 200 bytes.
            let body = (0..<20).map { String(format: #""text %04d""#, $0) + "\n" }.joined()
            let answer = try await server.request(.POST, "/v1/classify", body: Data(body.utf8),
                                                  contentType: "application/x-ndjson", streamed: true)
            #expect(answer.status == 200)
            let lines = try answer.text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(lines.dropLast().map { $0["index"] as? Int } == Array(0..<16))
            let error = try #require(lines.last?["error"] as? [String: Any])
            #expect(error["code"] as? String == "body-too-large")
            #expect(error["limit"] as? Int == 200)
        }
    }

    @Test("An NDJSON body whose length is over the limit is a 413 before anything is classified")
    func ndjsonDeclaredTooLargeIs413() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.maximumStreamBytes = 100 }) { server in
            let body = String(repeating: #""abcdefghij""# + "\n", count: 20)
            let answer = try await server.request(.POST, "/v1/classify", body: Data(body.utf8), contentType: "application/x-ndjson")
            #expect(answer.status == 413)
            #expect(answer.contentType == "application/problem+json")
        }
    }

    // MARK: - Concurrency

    @Test("Many parallel classify calls give the same answers as one by one")
    func parallelCallsMatchSequentialOnes() async throws {
        try await TestServer.with { server in
            try await assertParallelMatchesSequential(server)
        }
    }
}

/// 60 requests of 1–20 texts each: sent one by one, then all at once; the bodies must be equal.
func assertParallelMatchesSequential(_ server: TestServer) async throws {
    let words = ["love", "hate", "the", "great", "awful", "a day", "😃", "rain", "sunny", "meh", "not bad", "GREAT!!!"]
    let requests: [[String]] = (0..<60).map { request in
        (0..<(1 + request % 20)).map { index in
            (0..<(1 + (request + index) % 5)).map { words[(request * 7 + index * 3 + $0) % words.count] }.joined(separator: " ")
        }
    }
    var sequential: [Data] = []
    for texts in requests {
        sequential.append(try await server.post("/v1/classify", json: ["texts": texts]).body)
    }
    let parallel = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
        for (index, texts) in requests.enumerated() {
            group.addTask { (index, try await server.post("/v1/classify", json: ["texts": texts]).body) }
        }
        var bodies = [Data](repeating: Data(), count: requests.count)
        for try await (index, body) in group { bodies[index] = body }
        return bodies
    }
    #expect(parallel == sequential)
}
