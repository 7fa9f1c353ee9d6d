import Foundation

/// JSON text with `\uD83D`-style escapes of half a surrogate pair — what
/// tools that cut text at a UTF-16 length leave of an emoji — made readable.
///
/// Foundation's `JSONDecoder` and `JSONSerialization` refuse a whole document
/// for one such escape, so one cut emoji in one tweet would lose a whole
/// page of an X API timeline, or an archive entry. `sentiment classify`
/// keeps such a text with U+FFFD and a warning; the tweet service and the
/// server's `/v1/classify` keep it with U+FFFD.
package enum LoneSurrogateEscapes {
    /// `json` with every escape of a lone surrogate replaced by `\uFFFD`
    /// (six bytes for six, so nothing else moves), or nil when it has none.
    /// Pairs, and `\\u…` (an escaped backslash before a `u`), stay as they are.
    static func replaced(in json: Data) -> Data? {
        var bytes = [UInt8](json)
        var replacedAny = false
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\\") else {
                i += 1
                continue
            }
            guard let unit = codeUnit(bytes, at: i) else {
                i += 2  // another escape: its character is not a backslash that starts one
                continue
            }
            switch unit {
            case 0xD800...0xDBFF:
                if let next = codeUnit(bytes, at: i + 6), (0xDC00...0xDFFF).contains(next) {
                    i += 12
                    continue
                }
            case 0xDC00...0xDFFF:
                break
            default:
                i += 6
                continue
            }
            bytes.replaceSubrange(i..<(i + 6), with: Array(#"\uFFFD"#.utf8))
            replacedAny = true
            i += 6
        }
        return replacedAny ? Data(bytes) : nil
    }

    /// `JSONSerialization.jsonObject(with:)`, tried again with lone surrogates
    /// replaced when it fails; nil when the text is not JSON either way.
    static func jsonObject(with data: Data, options: JSONSerialization.ReadingOptions = []) -> Any? {
        if let object = try? JSONSerialization.jsonObject(with: data, options: options) { return object }
        return replaced(in: data).flatMap { try? JSONSerialization.jsonObject(with: $0, options: options) }
    }

    /// `JSONDecoder().decode(type, from: data)`, tried again with lone
    /// surrogates replaced when it fails; the first error when that fails too.
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            guard let repaired = replaced(in: data), let value = try? JSONDecoder().decode(type, from: repaired) else { throw error }
            return value
        }
    }

    /// The UTF-16 code unit of the `\uXXXX` escape at `i`, or nil when there is none.
    private static func codeUnit(_ bytes: [UInt8], at i: Int) -> UInt16? {
        guard i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { return nil }
        var value: UInt16 = 0
        for byte in bytes[(i + 2)..<(i + 6)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
