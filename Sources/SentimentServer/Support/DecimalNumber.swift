/// The exact value of a JSON number as written, for telling whether two
/// spellings are the same number (`1.0`, `1e0` and `1`; `-0` and `0`): its
/// sign and significant digits, without leading or trailing zeros, and the
/// power of ten of the last digit.
struct DecimalNumber: Equatable {
    let isNegative: Bool
    let digits: [UInt8]
    let exponent: Int

    /// Reads `text`, JSON's number grammar (`-`, digits, an optional fraction
    /// and exponent); `nil` for anything else or an exponent beyond `Int`.
    init?(_ text: String) {
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var rest = Array(text.utf8)[...]
        let isNegative = rest.first == UInt8(ascii: "-")
        if isNegative { rest = rest.dropFirst() }
        let whole = rest.prefix(while: isDigit)
        rest = rest.dropFirst(whole.count)
        var fraction = rest.prefix(0)
        if rest.first == UInt8(ascii: ".") {
            fraction = rest.dropFirst().prefix(while: isDigit)
            guard !fraction.isEmpty else { return nil }
            rest = rest.dropFirst(1 + fraction.count)
        }
        var power = 0
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            guard let written = Int(String(decoding: rest.dropFirst(), as: UTF8.self)) else { return nil }
            power = written
            rest = []
        }
        guard !whole.isEmpty, rest.isEmpty else { return nil }
        var digits = Array((whole + fraction).drop { $0 == UInt8(ascii: "0") })
        var (exponent, overflow) = power.subtractingReportingOverflow(fraction.count)
        while !overflow, digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            (exponent, overflow) = exponent.addingReportingOverflow(1)
        }
        guard !overflow else { return nil }
        self.isNegative = isNegative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }
}
