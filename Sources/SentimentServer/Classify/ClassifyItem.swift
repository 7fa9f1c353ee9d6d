import Foundation
import Sentiment
import Tweets

/// One input of `POST /v1/classify`: its position, the caller's id, and its
/// text or why it cannot be classified.
struct ClassifyItem: Sendable {
    /// 0-based position in the request.
    var index: Int
    /// The caller's id (a string or a number), or `.null`.
    var id: JSONValue
    /// The text, or a per-item error.
    var text: Result<String, ItemError>

    /// Reads one element of `texts`.
    static func fromText(_ value: JSONValue, index: Int, limits: ClassifyLimits) -> ClassifyItem {
        guard case .string(let text) = value else {
            return ClassifyItem(index: index, id: .null, text: .failure(.notAString("texts[\(index)] is \(value.typeName), not a string")))
        }
        return ClassifyItem(index: index, id: .null, text: check(text, field: "texts[\(index)]", limits: limits))
    }

    /// Reads one element of `items` (or one NDJSON line): `{"id": …, "text": "…"}`, or a bare string.
    ///
    /// - Parameters:
    ///   - written: the item as the request writes it, so that a number id is
    ///     refused when it would come back as another number (`1e-400` as `0`).
    ///   - field: how errors name the item: `items[3]`, or `line 4` for NDJSON.
    static func fromItem(_ value: JSONValue, written: JSONText?, index: Int, field: String, limits: ClassifyLimits) -> ClassifyItem {
        let member = { (name: String) in field.hasPrefix("line ") ? "\(field): \(name)" : "\(field).\(name)" }
        // A bare string's errors name its own place (`line 3`, `items[1]`), not a `texts[…]`.
        if case .string(let text) = value {
            return ClassifyItem(index: index, id: .null, text: check(text, field: field, limits: limits))
        }
        guard case .object(let object) = value else {
            return ClassifyItem(index: index, id: .null,
                                text: .failure(.notAnObject("\(field) is \(value.typeName), not an object with a text")))
        }
        let id = object["id"] ?? .null
        guard id == .null || isID(id) else {
            let advice = id == .unrepresentableNumber ? "write it as a string" : "use a string or a number"
            return ClassifyItem(index: index, id: .null,
                                text: .failure(.invalidID("\(member("id")) is \(id.typeName); \(advice)")))
        }
        if case let (number, echo)? = alteredEcho(of: id, written: written) {
            return ClassifyItem(index: index, id: .null, text: .failure(.invalidID(
                "\(member("id")) is the number \(number), which would come back as \(echo); write it as a string")))
        }
        guard let text = object["text"], text != .null else {
            return ClassifyItem(index: index, id: id, text: .failure(.missingText("\(field) has no \"text\"")))
        }
        guard case .string(let string) = text else {
            return ClassifyItem(index: index, id: id, text: .failure(.notAString("\(member("text")) is \(text.typeName), not a string")))
        }
        return ClassifyItem(index: index, id: id, text: check(string, field: member("text"), limits: limits))
    }

    /// The `id` of an NDJSON object whose line was cut off, when a member
    /// before the cut holds it whole: `{"id": 7, "text": "…` gives 7, and
    /// `{"text": "…", "id": 7` (the id after the text) or an id cut off gives
    /// `.null`. Each top-level comma ends the members before it, which are
    /// read as an object of their own.
    static func leadingID(in prefix: [UInt8]) -> JSONValue {
        var depth = 0, inString = false, escaped = false
        for (offset, byte) in prefix.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ",") where depth == 1:
                let members = prefix[..<offset] + [UInt8(ascii: "}")]
                guard let value = try? LoneSurrogateEscapes.decode(JSONValue.self, from: Data(members)),
                      case .object(let object) = value else { return .null }
                if let id = object["id"] { return isID(id) && alteredEcho(of: id, written: JSONText(document: members)) == nil ? id : .null }
            default: break
            }
        }
        return .null
    }

    /// Whether `value` can be an item's id: a string or a number.
    private static func isID(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .integer, .unsignedInteger, .number, .decimal: true
        default: false
        }
    }

    /// The `id` of the object `written` and what it would be echoed as, when
    /// `id` is a number that would come back as another number: the decoder
    /// reads `1e-400` as 0, and `12345678901234567.5` (more digits than a
    /// double keeps) as 12345678901234567. `nil` for an id that is not a
    /// number, or that comes back as the same number, however spelt (`1.0`
    /// as `1`, `1e2` as `100`, `2.50` as `2.5`, which JSON readers read alike).
    private static func alteredEcho(of id: JSONValue, written: JSONText?) -> (String, String)? {
        guard isNumber(id), let text = written?.member("id")?.text, let data = try? JSONCoding.encoder.encode(id) else { return nil }
        let echo = String(decoding: data, as: UTF8.self)
        guard let value = DecimalNumber(text), value != DecimalNumber(echo) else { return nil }
        return (text.count > 40 ? String(text.prefix(40)) + "…" : text, echo)
    }

    /// Whether `value` is a number, the one kind of id decoding may alter.
    private static func isNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .integer, .unsignedInteger, .number, .decimal: true
        default: false
        }
    }

    /// Whether `item` is an object whose `id` is a number: only then is the
    /// request read as written (``JSONText``), to tell whether it comes back as another.
    static func hasNumberID(_ item: JSONValue) -> Bool {
        guard case .object(let object) = item, let id = object["id"] else { return false }
        return isNumber(id)
    }

    private static func check(_ text: String, field: String, limits: ClassifyLimits) -> Result<String, ItemError> {
        if BlankText.isBlank(text) { return .failure(.emptyText("\(field) is empty or blank")) }
        // Code points, not grapheme clusters: a cluster can hold any number of
        // combining marks, and every one of them is tokenized.
        let length = text.unicodeScalars.count
        if length > limits.maximumTextLength {
            return .failure(.textTooLong("\(field) has \(length) characters; at most \(limits.maximumTextLength)"))
        }
        return .success(text)
    }
}

/// Why one item was not classified. JSON: `{"code": "not-a-string", "detail": "texts[1] is a number, not a string"}`.
struct ItemError: Error, Sendable, Hashable, Encodable {
    /// `not-a-string`, `not-an-object`, `missing-text`, `empty-text`, `text-too-long`, `invalid-id` or `malformed-json`.
    var code: String
    /// What is wrong, naming the field.
    var detail: String

    static func notAString(_ detail: String) -> ItemError { ItemError(code: "not-a-string", detail: detail) }
    static func notAnObject(_ detail: String) -> ItemError { ItemError(code: "not-an-object", detail: detail) }
    static func missingText(_ detail: String) -> ItemError { ItemError(code: "missing-text", detail: detail) }
    static func emptyText(_ detail: String) -> ItemError { ItemError(code: "empty-text", detail: detail) }
    static func textTooLong(_ detail: String) -> ItemError { ItemError(code: "text-too-long", detail: detail) }
    static func invalidID(_ detail: String) -> ItemError { ItemError(code: "invalid-id", detail: detail) }
    static func malformedJSON(_ detail: String) -> ItemError { ItemError(code: "malformed-json", detail: detail) }
}

/// One answer of `POST /v1/classify`.
///
/// A classified item: `{"index", "id", "label", "probabilities", "score", "theme",
/// "mood", "unsupported", "lang"}`, where `theme` is `{"name", "emoji", "color"}`.
/// A text in a language the model does not support has `label: null`,
/// `theme: null`, `mood: "unsupported_language"`, `unsupported: true` and
/// `lang` the detected tag (`probabilities` and `score` are the raw output).
/// A bad item: `{"index", "id", "error": {"code", "detail"}}`.
struct ClassifyResult: Sendable, Encodable {
    var index: Int
    var id: JSONValue
    var outcome: Result<Prediction, ItemError>
    var thresholds: ThemeThresholds

    enum CodingKeys: String, CodingKey {
        case index, id, label, probabilities, score, theme, mood, unsupported, lang, error
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(id, forKey: .id)
        switch outcome {
        case .success(let prediction):
            let mood = Mood(prediction: prediction, sourceLanguage: nil, thresholds: thresholds)
            let supported = prediction.language.isSupported
            try container.encode(supported ? prediction.label : nil, forKey: .label)
            try container.encode(prediction.probabilities, forKey: .probabilities)
            try container.encode(prediction.score, forKey: .score)
            try container.encode(mood.theme, forKey: .theme)
            try container.encode(mood.name, forKey: .mood)
            try container.encode(!supported, forKey: .unsupported)
            try container.encode(prediction.language.tag, forKey: .lang)
        case .failure(let error):
            try container.encode(error, forKey: .error)
        }
    }
}
