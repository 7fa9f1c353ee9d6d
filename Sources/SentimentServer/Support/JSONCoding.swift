import Foundation

/// The server's JSON encoder and decoder.
enum JSONCoding {
    /// Sorted keys and unescaped slashes, as `sentiment tweets --format jsonl` writes.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A plain decoder.
    static var decoder: JSONDecoder { JSONDecoder() }

    /// A one-line, human-readable reason `data` could not be decoded, with the
    /// position of a syntax error ("not valid JSON: Invalid value around character 16.").
    static func describe(_ error: any Error, data: Data) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context):
            if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return "not valid JSON: the body is empty" }
            // JSONDecoder does not say where; JSONSerialization does.
            var reason = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            do {
                _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            } catch {
                reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? reason
            }
            return "not valid JSON: " + (reason ?? context.debugDescription)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

/// Any JSON value, for bodies whose items are checked one by one (so one bad
/// item is a per-item error, never a failed batch).
///
/// Whole numbers that fit `Int64` (or `UInt64`) are kept exactly, so a numeric
/// id such as `9007199254740993` is echoed as given; larger whole numbers are
/// `Decimal`s, exact up to 38 digits; other numbers are `Double`s. A number
/// that cannot be kept as given (`1e400`, which no `Double` holds, or a whole
/// number of 39 digits or more, which `Decimal` would round) is
/// `.unrepresentableNumber`, so the item that has it is the one that fails,
/// not the whole body, and no id comes back changed.
enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case number(Double)
    /// A whole number beyond 64 bits (`123456789012345678901234567890`).
    case decimal(Decimal)
    /// A number beyond a `Double`'s range (`1e400`, `-1e999`, which RFC 8259
    /// lets a document hold) or a whole number of 39 digits or more
    /// (`1234567890123456789012345678901234567890`); it is encoded as `null`.
    case unrepresentableNumber
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes whichever JSON value is there. A string that cannot be read (a
    /// lone surrogate) throws its own error, not a type mismatch of the last
    /// type tried.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let depth = decoder.codingPath.count
        /// The value as `type`, or `nil` when it is another JSON type.
        func attempt<T: Decodable>(_ type: T.Type) throws -> T? {
            do {
                return try container.decode(type)
            } catch DecodingError.typeMismatch(_, let context) where context.codingPath.count == depth {
                return nil
            }
        }
        if container.decodeNil() {
            self = .null
        } else if let value = try attempt(Bool.self) {
            self = .bool(value)
        } else if let value = try attempt(String.self) {
            self = .string(value)
        } else if let value = try attempt([JSONValue].self) {
            self = .array(value)
        } else if let value = try attempt([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(UInt64.self) {
            self = .unsignedInteger(value)
        } else {
            // Every other type was tried: this is a number, and the decoder
            // refuses it only when no Double can hold it.
            guard let number = try? container.decode(Double.self) else {
                self = .unrepresentableNumber
                return
            }
            if number.rounded() == number, abs(number) >= 0x1p63 {
                // Decimal keeps 38 digits exactly, and cuts off the rest.
                guard let decimal = try? container.decode(Decimal.self), decimal.magnitude < Self.exactDecimals else {
                    self = .unrepresentableNumber
                    return
                }
                self = .decimal(decimal)
            } else {
                self = .number(number)
            }
        }
    }

    /// 10^38: the whole numbers below it have at most the 38 digits that a
    /// `Decimal` keeps exactly.
    private static let exactDecimals = Decimal(sign: .plus, exponent: 38, significand: 1)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .unsignedInteger(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .decimal(let value): try container.encode(value)
        case .unrepresentableNumber: try container.encodeNil()
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The JSON type's name, for error messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .unsignedInteger, .number, .decimal: "a number"
        case .unrepresentableNumber: "a number that cannot be kept as written (beyond a double's range, or 39 digits or more)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One value of a JSON document as it is written, for what decoding forgets:
/// `1.0`, `1e0` and `1` are all the number 1, and `1e-400` is 0. `bytes` must
/// be JSON a decoder has read (anything else gives `nil`s, never a crash).
struct JSONText {
    let bytes: ArraySlice<UInt8>

    /// The whole of `document`, a UTF-8 byte order mark and white space before it skipped.
    init(document: ArraySlice<UInt8>) {
        var bytes = document
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        self.bytes = bytes.drop { Self.isSpace($0) }
    }

    private init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// The text, as written.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The first member called `name` of this object (the one a `JSONDecoder` keeps
    /// when a name is repeated), or `nil`.
    func member(_ name: String) -> JSONText? {
        guard bytes.first == UInt8(ascii: "{") else { return nil }
        let pairs = children()
        for keyIndex in stride(from: 0, to: pairs.count - 1, by: 2) {
            let (key, value) = (pairs[keyIndex], pairs[keyIndex + 1])
            let written = key.bytes.dropFirst().dropLast()
            let decoded = written.contains(UInt8(ascii: "\\")) ? try? JSONDecoder().decode(String.self, from: Data(key.bytes)) : nil
            if (decoded ?? String(decoding: written, as: UTF8.self)) == name { return value }
        }
        return nil
    }

    /// The elements of this array, or `nil`.
    var elements: [JSONText]? {
        bytes.first == UInt8(ascii: "[") ? children() : nil
    }

    /// The values inside this object or array, in order (an object's names and values taking turns).
    private func children() -> [JSONText] {
        var children: [JSONText] = []
        var index = bytes.startIndex + 1
        while true {
            while index < bytes.endIndex, Self.isSpace(bytes[index]) || bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: ":") {
                index += 1
            }
            guard index < bytes.endIndex, bytes[index] != UInt8(ascii: "}"), bytes[index] != UInt8(ascii: "]") else { return children }
            let start = index
            index = end(ofValueAt: start)
            children.append(JSONText(bytes[start..<index]))
        }
    }

    /// The index after the value that starts at `start`.
    private func end(ofValueAt start: Int) -> Int {
        var index = start, depth = 0
        repeat {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                index += 1
            default:
                guard depth == 0 else {
                    index += 1
                    continue
                }
                // A number or a literal: up to the next delimiter.
                while index < bytes.endIndex, !Self.isSpace(bytes[index]), !",:}]".utf8.contains(bytes[index]) { index += 1 }
            }
        } while depth > 0 && index < bytes.endIndex
        return min(index, bytes.endIndex)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
