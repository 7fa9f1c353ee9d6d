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
