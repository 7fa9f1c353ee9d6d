import Foundation
import Testing
@testable import SentimentServer

/// How `POST /v1/classify` reads what clients send: content types, ids, blank
/// texts, and the errors of bodies that cannot be read.
@Suite("POST /v1/classify: reading request bodies")
struct ClassifyBodyTests {
    // MARK: - Content types

    @Test("An empty media type counts as a missing Content-Type, and the body is read as JSON",
          arguments: ["", ";", "   ", "; charset=utf-8", ";charset=utf-8"])
    func emptyMediaTypeIsJSON(contentType: String) async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: Data(#"{"texts": ["I love it"]}"#.utf8),
                                                  headers: [("Content-Type", contentType)], contentType: nil)
            #expect(answer.status == 200)
            let results = try #require(try answer.object()["results"] as? [[String: Any]])
            #expect(results.map { $0["label"] as? String } == ["positive"])
            // The server is still up.
            #expect(try await server.request(.GET, "/healthz").status == 200)
        }
    }

    @Test("A media type is named without its parameters in a 415")
    func unsupportedMediaTypeIsNamedWithoutParameters() async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: Data("a".utf8),
                                                  contentType: "Text/Plain; charset=utf-8")
            #expect(answer.status == 415)
            let detail = try answer.object()["detail"] as? String ?? ""
            #expect(detail.hasPrefix("'text/plain' is neither"), "detail: \(detail)")
        }
    }

    // MARK: - Ids

    @Test("Integer ids are echoed exactly, beyond the 53 bits of a Double")
    func integerIDsAreEchoedExactly() async throws {
        try await TestServer.with { server in
            let body = #"{"items": [{"id": 9007199254740993, "text": "a"}, {"id": 12345678901234567890, "text": "b"}, "#
                + #"{"id": -9223372036854775808, "text": "c"}, {"id": 2.5, "text": "d"}, {"id": 7, "text": "e"}, "#
                + #"{"id": 123456789012345678901234567890, "text": "f"}, {"id": -18446744073709551617, "text": "g"}, "#
                + #"{"id": 99999999999999999999999999999999999999, "text": "h"}]}"#
            let answer = try await server.request(.POST, "/v1/classify", body: Data(body.utf8))
            #expect(answer.status == 200)
            for id in ["9007199254740993", "12345678901234567890", "-9223372036854775808", "2.5", "7",
                       "123456789012345678901234567890", "-18446744073709551617", "99999999999999999999999999999999999999"] {
                #expect(answer.text.contains(#""id":\#(id),"#), "id \(id) in \(answer.text)")
            }
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")
        }
    }

    @Test("An id that cannot be echoed as written (beyond a double's range, or 39 digits) fails its own item, in JSON and in NDJSON, and the others are classified")
    func unrepresentableIDFailsItsOwnItem() async throws {
        try await TestServer.with { server in
            let body = #"{"items": [{"id": 1, "text": "great"}, {"id": 1e400, "text": "a"}, {"id": -1e999, "text": "b"}, "#
                + #"{"id": 4, "text": "c", "weight": 1e999}, {"id": 1234567890123456789012345678901234567891, "text": "d"}]}"#
            let answer = try await server.request(.POST, "/v1/classify", body: Data(body.utf8))
            #expect(answer.status == 200, "\(answer.text)")
            let results = try #require(try answer.object()["results"] as? [[String: Any]])
            #expect(results.count == 5)
            #expect(results.map { $0["index"] as? Int } == [0, 1, 2, 3, 4])
            #expect(results[0]["label"] as? String == "positive")
            for result in [results[1], results[2], results[4]] {
                let error = result["error"] as? [String: Any]
                #expect(error?["code"] as? String == "invalid-id", "\(result)")
                #expect((error?["detail"] as? String)?.hasSuffix("id is a number that cannot be kept as written (beyond a double's range, or 39 digits or more); write it as a string") == true,
                        "\(result)")
                #expect(result["id"] is NSNull)
            }
            #expect(results[3]["id"] as? Int == 4 && results[3]["label"] != nil, "an unknown member beyond range is ignored: \(results[3])")
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")

            let lines = #"{"id": 1e400, "text": "a"}"# + "\n" + #"{"id": 2, "text": "b"}"# + "\n"
            let ndjson = try await server.request(.POST, "/v1/classify", body: Data(lines.utf8), contentType: "application/x-ndjson")
            #expect(ndjson.status == 200)
            let records = ndjson.text.split(separator: "\n")
            #expect(records.count == 2, "\(ndjson.text)")
            #expect(records.first?.contains(#""detail":"line 1: id is a number that cannot be kept as written (beyond a double's range, or 39 digits or more); write it as a string""#) == true,
                    "\(ndjson.text)")
            #expect(records.last?.contains(#""id":2,"#) == true && records.last?.contains(#""label""#) == true, "\(ndjson.text)")
        }
    }

    @Test("A number id comes back as the same number, or is its item's invalid-id error when it would not (1e-400 as 0), in JSON and in NDJSON")
    func numberIDsComeBackAsTheSameNumber() async throws {
        try await TestServer.with { server in
            let altered = [("1e-400", "0"), ("12345678901234567.5", "12345678901234567"), ("-1.000000000000000001", "-1")]
            // The same number in another spelling, as JSON readers read it alike.
            let respelt = [("1.0", "1"), ("2.50", "2.5"), ("1e2", "100"), ("-0", "0"), ("1E20", "100000000000000000000"), ("0.5e1", "5")]
            let kept = ["0.1", "2.5", "-3", "7"]
            let ids = altered.map(\.0) + respelt.map(\.0) + kept
            let body = #"{"items": ["# + ids.map { #"{"text": "great", "id": \#($0)}"# }.joined(separator: ", ") + "]}"
            let answer = try await server.request(.POST, "/v1/classify", body: Data(body.utf8))
            #expect(answer.status == 200, "\(answer.text)")
            let results = try #require(try answer.object()["results"] as? [[String: Any]])
            #expect(results.count == ids.count)
            for (index, (id, echo)) in altered.enumerated() {
                let error = results[index]["error"] as? [String: Any]
                #expect(error?["code"] as? String == "invalid-id", "\(results[index])")
                #expect(error?["detail"] as? String == "items[\(index)].id is the number \(id), which would come back as \(echo); write it as a string",
                        "\(results[index])")
                #expect(results[index]["id"] is NSNull)
            }
            for (id, echo) in respelt + kept.map({ ($0, $0) }) {
                #expect(answer.text.contains(#""id":\#(echo),"index""#), "id \(id) in \(answer.text)")
            }
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")

            let lines = #"{"id": 1.5e-400, "text": "a"}"# + "\n" + #"{"text": "b", "id": 1e-400}"# + "\n" + #"{"id": 0.5, "text": "c"}"# + "\n"
            let ndjson = try await server.request(.POST, "/v1/classify", body: Data(lines.utf8), contentType: "application/x-ndjson")
            #expect(ndjson.status == 200)
            let records = ndjson.text.split(separator: "\n")
            #expect(records.count == 3, "\(ndjson.text)")
            #expect(records.first?.contains(#""detail":"line 1: id is the number 1.5e-400, which would come back as 0; write it as a string""#) == true,
                    "\(ndjson.text)")
            #expect(records.dropFirst().first?.contains(#""detail":"line 2: id is the number 1e-400, which would come back as 0; write it as a string""#) == true,
                    "\(ndjson.text)")
            #expect(records.last?.contains(#""id":0.5,"#) == true && records.last?.contains(#""label""#) == true, "\(ndjson.text)")
        }
    }

    // MARK: - Bodies that cannot be read

    @Test("A body that cannot be decoded is a 400 with the real reason", arguments: [
        (Data(#"{"texts": ["a"#.utf8) + Data([0xFF, 0xFE]) + Data(#""]}"#.utf8), "UTF-8"),
        (Data(#"{"items": [{"id": 1, "text": "a"}"#.utf8), "JSON"),
    ])
    func undecodableBodiesNameTheRealReason(body: Data, expected: String) async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: body)
            #expect(answer.status == 400)
            let problem = try answer.object()
            #expect(problem["code"] as? String == "malformed-body")
            let detail = problem["detail"] as? String ?? ""
            #expect(detail.localizedCaseInsensitiveContains(expected), "detail: \(detail)")
            #expect(!detail.contains("Dictionary"), "detail: \(detail)")
        }
    }

    @Test("A member that is null counts as absent", arguments: [
        #"{"texts": ["a", "b"], "items": null}"#,
        #"{"texts": null, "items": ["a", {"text": "b"}]}"#,
    ])
    func nullMemberCountsAsAbsent(body: String) async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: Data(body.utf8))
            #expect(answer.status == 200, "\(answer.text)")
            #expect((try answer.object()["results"] as? [Any])?.count == 2)
        }
    }

    // MARK: - Blank texts

    @Test("Texts of only invisible characters are empty-text errors, like spaces")
    func invisibleTextsAreEmpty() async throws {
        try await TestServer.with { server in
            let texts = ["\u{200B}", "\u{00A0}\u{3000}", "\u{0000}", "\u{2060}\u{FEFF}\n\u{2028}\u{85}", "\t\u{1F}",
                         "\u{200D}\u{00AD}\u{FE0F}", "a\u{200B}", "\u{200D}❤️"]
            let answer = try await server.post("/v1/classify", json: ["texts": texts])
            #expect(answer.status == 200)
            let results = try #require(try answer.object()["results"] as? [[String: Any]])
            #expect(results.map { ($0["error"] as? [String: Any])?["code"] as? String }
                == ["empty-text", "empty-text", "empty-text", "empty-text", "empty-text", "empty-text", nil, nil])
            try OpenAPIDocument.shared.validate(answer, path: "/v1/classify", method: "post")
        }
    }

    // MARK: - NDJSON

    @Test("A null text is a missing text, in JSON and in NDJSON")
    func nullTextIsMissing() async throws {
        try await TestServer.with { server in
            let json = try await server.request(.POST, "/v1/classify", body: Data(#"{"items": [{"id": "a", "text": null}]}"#.utf8))
            #expect(json.status == 200)
            let results = try #require(try json.object()["results"] as? [[String: Any]])
            #expect((results.first?["error"] as? [String: Any])?["code"] as? String == "missing-text", "\(json.text)")
            #expect(results.first?["id"] as? String == "a")

            let ndjson = try await server.request(.POST, "/v1/classify", body: Data(#"{"id": null, "text": null}"#.utf8),
                                                  contentType: "application/x-ndjson")
            #expect(ndjson.text.contains(#""code":"missing-text""#), "\(ndjson.text)")
        }
    }

    @Test("NDJSON errors name the body's line, blank lines counted")
    func ndjsonErrorsNameThePhysicalLine() async throws {
        try await TestServer.with { server in
            let answer = try await server.request(.POST, "/v1/classify", body: Data("\"one\"\n\n{bad\n   \n42\n".utf8),
                                                  contentType: "application/x-ndjson")
            #expect(answer.status == 200)
            let lines = answer.text.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(answer.text)")
            #expect(lines.count == 3 && lines[1].contains(#""detail":"line 3: not valid JSON"#), "\(answer.text)")
            #expect(lines.count == 3 && lines[2].contains(#""detail":"line 5 is a number"#), "\(answer.text)")
            #expect(lines.count == 3 && lines[2].contains(#""index":2"#), "items are still counted without the blank lines")
        }
    }

    @Test("A bare string's error names its NDJSON line, or its place in items, not a texts[…] the body does not have")
    func bareStringErrorsNameTheirPlace() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.maximumTextLength = 10 }) { server in
            let ndjson = try await server.request(.POST, "/v1/classify", body: Data("\"ok\"\n\n\"   \"\n\"far too long a text\"\n".utf8),
                                                  contentType: "application/x-ndjson")
            let lines = try ndjson.text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(lines.map { ($0["error"] as? [String: Any])?["detail"] as? String }
                == [nil, "line 3 is empty or blank", "line 4 has 19 characters; at most 10"], "\(ndjson.text)")

            let json = try await server.request(.POST, "/v1/classify", body: Data(#"{"items": ["fine", " "]}"#.utf8))
            let results = try #require(try json.object()["results"] as? [[String: Any]])
            #expect(results.map { ($0["error"] as? [String: Any])?["detail"] as? String } == [nil, "items[1] is empty or blank"])
        }
    }

    @Test("The error line that ends an NDJSON stream carries the request id")
    func ndjsonErrorLineHasTheRequestID() async throws {
        try await TestServer.with(configure: { $0.classifyLimits.maximumStreamItems = 2 }) { server in
            let body = (0..<4).map { #"{"id": \#($0), "text": "ok"}"# }.joined(separator: "\n")
            let answer = try await server.request(.POST, "/v1/classify", body: Data(body.utf8),
                                                  headers: [("X-Request-ID", "stream-42")],
                                                  contentType: "application/x-ndjson", streamed: true)
            #expect(answer.status == 200)
            let last = try #require(answer.text.split(separator: "\n").last)
            let line = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
            let error = try #require(line["error"] as? [String: Any])
            #expect(error["code"] as? String == "too-many-items")
            #expect(error["request_id"] as? String == "stream-42")
            try OpenAPIDocument.shared.validate(schema: "StreamError", line)
        }
    }
}
