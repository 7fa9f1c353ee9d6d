import Foundation
import Hummingbird

extension Request {
    /// The query parameter `name` read as an HTML form writes it: `+` is a
    /// space (`%2B` a plus), then percent-escapes are decoded; `nil` when the
    /// query does not have it. Hummingbird's `queryParameters` leaves `+` as
    /// it is, so `?query=Sunny+D` from a form or Python's `requests` would
    /// search for "Sunny+D". A `%` not followed by two hexadecimal digits
    /// stays as it is (`100%`), as a browser's `URLSearchParams` reads it.
    ///
    /// - Throws: an `invalid-parameter` ``Problem`` when the decoded bytes
    ///   are not UTF-8 (`%FF`): no text was meant, and searching for the
    ///   escape's letters would answer as if there were.
    func formQueryParameter(_ name: String) throws -> String? {
        guard let query = uri.query else { return nil }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == name else { continue }
            guard parts.count == 2 else { return "" }
            guard let value = String(validating: Self.formDecoded(parts[1].utf8), as: UTF8.self) else {
                throw Problem.invalidParameter(
                    "\(name) is not UTF-8 text once its percent-escapes are decoded: \(parts[1].prefix(100))")
            }
            return value
        }
        return nil
    }

    /// The bytes of a form-encoded value: `+` a space, `%XX` its byte.
    private static func formDecoded(_ encoded: Substring.UTF8View) -> [UInt8] {
        let bytes = Array(encoded)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
                continue
            }
            decoded.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
