import Foundation
import Testing

/// The repository's OpenAPI document (`Sources/SentimentServer/Public/openapi.json`)
/// and a small JSON Schema checker for the keywords it uses: `type` (one or
/// several), `required`, `properties`, `additionalProperties: false`, `items`,
/// `enum`, `oneOf`, `anyOf`, `$ref`, `minimum`, `maximum`, `minLength`,
/// `maxLength`, `pattern`.
struct OpenAPIDocument: @unchecked Sendable {
    static let path = packageRoot.appendingPathComponent("Sources/SentimentServer/Public/openapi.json")
    static let shared: OpenAPIDocument = {
        let data = try! Data(contentsOf: path)
        return OpenAPIDocument(root: try! JSONSerialization.jsonObject(with: data) as! [String: Any])
    }()

    let root: [String: Any]

    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    /// Checks that a real answer is documented for its route, status and
    /// content type, and that its body matches the documented schema.
    func validate(_ answer: TestServer.Answer, path: String, method: String,
                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let operation = try #require((root["paths"] as? [String: Any])?[path] as? [String: Any])[method] as? [String: Any]
        let responses = try #require(operation?["responses"] as? [String: Any], "\(method) \(path) is not documented",
                                     sourceLocation: sourceLocation)
        let response = try #require(responses[String(answer.status)] as? [String: Any],
                                    "\(method) \(path) does not document status \(answer.status)", sourceLocation: sourceLocation)
        guard let content = response["content"] as? [String: Any] else {
            #expect(answer.body.isEmpty, "\(answer.status) documents no body", sourceLocation: sourceLocation)
            return
        }
        let type = answer.contentType.split(separator: ";")[0].trimmingCharacters(in: .whitespaces)
        let media = try #require(content[type] as? [String: Any],
                                 "\(method) \(path) \(answer.status) does not document \(type)", sourceLocation: sourceLocation)
        let schema = try #require(media["schema"] as? [String: Any])
        guard type.hasSuffix("json") else {
            // Text (Prometheus exposition): the media type is what the document promises.
            #expect(schema["type"] as? String == "string", "\(method) \(path) \(answer.status): \(type) with a non-string schema",
                    sourceLocation: sourceLocation)
            return
        }
        let value = try answer.json()
        let errors = check(value, against: schema, at: "$")
        #expect(errors.isEmpty, "\(method) \(path) \(answer.status): \(errors.joined(separator: "; "))", sourceLocation: sourceLocation)
    }

    /// Checks a value against a named schema of `components/schemas`.
    func validate(schema name: String, _ value: Any, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let errors = check(value, against: ["$ref": "#/components/schemas/\(name)"], at: "$")
        #expect(errors.isEmpty, "\(name): \(errors.joined(separator: "; "))", sourceLocation: sourceLocation)
    }

    /// The mismatches of `value` against `schema`; empty when it matches.
    func check(_ value: Any, against schema: [String: Any], at path: String) -> [String] {
        if let reference = schema["$ref"] as? String {
            let name = String(reference.dropFirst("#/components/schemas/".count))
            guard let target = ((root["components"] as? [String: Any])?["schemas"] as? [String: Any])?[name] as? [String: Any] else {
                return ["\(path): unknown $ref \(reference)"]
            }
            return check(value, against: target, at: path)
        }
        if let choices = schema["oneOf"] as? [[String: Any]] {
            let matching = choices.filter { check(value, against: $0, at: path).isEmpty }.count
            if matching != 1 {
                let reasons = choices.map { check(value, against: $0, at: path).joined(separator: ", ") }
                return ["\(path): matches \(matching) of oneOf (\(reasons.joined(separator: " | ")))"]
            }
        }
        if let choices = schema["anyOf"] as? [[String: Any]], !choices.contains(where: { check(value, against: $0, at: path).isEmpty }) {
            return ["\(path): matches none of anyOf"]
        }
        var errors: [String] = []
        if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }),
            !types.contains(where: { Self.value(value, hasType: $0) })
        {
            return ["\(path): \(Self.describe(value)) is not \(types.joined(separator: " or "))"]
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal($0, value) }) {
            errors.append("\(path): \(Self.describe(value)) is not one of \(options)")
        }
        if let number = value as? NSNumber, !Self.isBoolean(value) {
            if let minimum = schema["minimum"] as? Double, number.doubleValue < minimum { errors.append("\(path): below \(minimum)") }
            if let maximum = schema["maximum"] as? Double, number.doubleValue > maximum { errors.append("\(path): above \(maximum)") }
        }
        if let string = value as? String {
            if let minimum = schema["minLength"] as? Int, string.count < minimum { errors.append("\(path): shorter than \(minimum)") }
            if let maximum = schema["maxLength"] as? Int, string.count > maximum { errors.append("\(path): longer than \(maximum)") }
            if let pattern = schema["pattern"] as? String, string.range(of: pattern, options: .regularExpression) == nil {
                errors.append("\(path): '\(string)' does not match \(pattern)")
            }
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                errors.append("\(path): missing \(key)")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, child) in object {
                if let childSchema = properties[key] as? [String: Any] {
                    errors += check(child, against: childSchema, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    errors.append("\(path): unexpected property \(key)")
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() { errors += check(element, against: items, at: "\(path)[\(index)]") }
        }
        return errors
    }

    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(describing: type(of: value)).contains("Boolean") || String(cString: number.objCType) == "c"
    }

    static func value(_ value: Any, hasType type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "boolean": return isBoolean(value)
        case "integer": return !isBoolean(value) && (value as? NSNumber).map { $0.doubleValue.rounded() == $0.doubleValue } == true
        case "number": return !isBoolean(value) && value is NSNumber
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return false
        }
    }

    static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
        switch (lhs, rhs) {
        case (let a as String, let b as String): a == b
        case (let a as NSNumber, let b as NSNumber): a == b
        case (is NSNull, is NSNull): true
        default: false
        }
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case is NSNull: "null"
        case let string as String: "'\(string)'"
        default: "\(value)"
        }
    }
}
