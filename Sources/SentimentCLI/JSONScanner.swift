/// A minimal JSON scanner over the bytes of one line: it validates the whole
/// document (RFC 8259) and hands the values its client asks for back as spans
/// of the line, without building any objects or `String`s.
///
/// The client is a `JSONMemberVisitor` that sees each member key of the objects
/// it descends into and answers `skip`, `capture(slot)` (report the value's
/// span) or `descend(context)` (read the nested object with another context).
/// Everything else is validated and skipped. Strings are decoded later, only
/// those that are used, with `decodeString(_:in:into:)`.
///
/// Cost: one pass over the line; string bodies are scanned 8 bytes at a time.
/// Nesting deeper than `maxDepth` is an error (the scanner recurses).
struct JSONScanner {
    /// The deepest nesting of objects and arrays accepted.
    static let maxDepth = 512

    private let base: UnsafePointer<UInt8>
    private let count: Int
    private var position = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        base = bytes.count > 0 ? bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) : UnsafePointer(bitPattern: 1)!
    }

    // MARK: - Entry points

    /// Validates `bytes` as one JSON document (a value with optional whitespace
    /// around it) and returns the span of its value.
    ///
    /// When the value is an object, `visitor` is asked about its members in
    /// `context`; pass `nil` to only validate.
    ///
    /// - Throws: `JSONError` with the byte offset of the first problem.
    static func scanDocument<Visitor: JSONMemberVisitor>(
        _ bytes: UnsafeRawBufferPointer, context: UInt8?, visitor: inout Visitor
    ) throws(JSONError) -> JSONSpan {
        var scanner = JSONScanner(bytes)
        let span = try scanner.value(context: context, depth: 0, visitor: &visitor)
        scanner.skipWhitespace()
        if scanner.position < scanner.count {
            throw JSONError(.unexpectedByte(scanner.base[scanner.position]), at: scanner.position)
        }
        return span
    }

    /// Reads the object at `span` of `bytes` (a span a previous scan reported),
    /// asking `visitor` about its members in `context`.
    static func scanObject<Visitor: JSONMemberVisitor>(
        _ span: JSONSpan, in bytes: UnsafeRawBufferPointer, context: UInt8, visitor: inout Visitor
    ) throws(JSONError) {
        var scanner = JSONScanner(bytes)
        scanner.position = span.start
        _ = try scanner.value(context: context, depth: 0, visitor: &visitor)
    }

    /// The spans of the elements of the array at `span` of `bytes`, in order.
    static func elements(of span: JSONSpan, in bytes: UnsafeRawBufferPointer) throws(JSONError) -> [JSONSpan] {
        precondition(span.kind == .array)
        var scanner = JSONScanner(bytes)
        scanner.position = span.start + 1
        var elements: [JSONSpan] = []
        var ignored = JSONIgnoringVisitor()
        scanner.skipWhitespace()
        if scanner.peek() == UInt8(ascii: "]") { return elements }
        while true {
            elements.append(try scanner.value(context: nil, depth: 1, visitor: &ignored))
            scanner.skipWhitespace()
            guard scanner.position < scanner.count else { throw JSONError(.unexpectedEnd, at: scanner.count) }
            let next = scanner.base[scanner.position]
            scanner.position += 1
            if next == UInt8(ascii: "]") { return elements }
            if next != UInt8(ascii: ",") { throw JSONError(.unexpectedByte(next), at: scanner.position - 1) }
        }
    }

    // MARK: - Values

    private mutating func value<Visitor: JSONMemberVisitor>(
        context: UInt8?, depth: Int, visitor: inout Visitor
    ) throws(JSONError) -> JSONSpan {
        skipWhitespace()
        guard position < count else { throw JSONError(.unexpectedEnd, at: count) }
        switch base[position] {
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "{"): return try object(context: context, depth: depth + 1, visitor: &visitor)
        case UInt8(ascii: "["): return try array(depth: depth + 1, visitor: &visitor)
        case UInt8(ascii: "t"): return try literal("true", kind: .bool)
        case UInt8(ascii: "f"): return try literal("false", kind: .bool)
        case UInt8(ascii: "n"): return try literal("null", kind: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case let byte: throw JSONError(.unexpectedByte(byte), at: position)
        }
    }

    private mutating func object<Visitor: JSONMemberVisitor>(
        context: UInt8?, depth: Int, visitor: inout Visitor
    ) throws(JSONError) -> JSONSpan {
        if depth > Self.maxDepth { throw JSONError(.tooDeep, at: position) }
        let start = position
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return JSONSpan(kind: .object, start: start, end: position)
        }
        while true {
            skipWhitespace()
            guard position < count else { throw JSONError(.unexpectedEnd, at: count) }
            guard base[position] == UInt8(ascii: "\"") else { throw JSONError(.unexpectedByte(base[position]), at: position) }
            let key = try string()
            try expect(UInt8(ascii: ":"))
            let action: JSONMemberAction
            if let context, key.hasEscapes {
                // Rare ("\u0074ext"): the key is compared decoded.
                let decoded = ByteBuffer(capacity: key.end - key.start)
                Self.decodeString(key, in: UnsafeRawBufferPointer(start: base, count: count), into: decoded)
                action = withExtendedLifetime(decoded) { visitor.action(forKey: decoded.bytes, in: context) }
            } else if let context {
                action = visitor.action(forKey: UnsafeRawBufferPointer(start: base + key.start, count: key.end - key.start), in: context)
            } else {
                action = .skip
            }
            switch action {
            case .skip:
                _ = try value(context: nil, depth: depth, visitor: &visitor)
            case .capture(let slot):
                let span = try value(context: nil, depth: depth, visitor: &visitor)
                visitor.capture(span, slot: slot)
            case .descend(let inner):
                _ = try value(context: inner, depth: depth, visitor: &visitor)
            }
            skipWhitespace()
            guard position < count else { throw JSONError(.unexpectedEnd, at: count) }
            let next = base[position]
            position += 1
            if next == UInt8(ascii: "}") { return JSONSpan(kind: .object, start: start, end: position) }
            if next != UInt8(ascii: ",") { throw JSONError(.unexpectedByte(next), at: position - 1) }
        }
    }

    private mutating func array<Visitor: JSONMemberVisitor>(depth: Int, visitor: inout Visitor) throws(JSONError) -> JSONSpan {
        if depth > Self.maxDepth { throw JSONError(.tooDeep, at: position) }
        let start = position
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return JSONSpan(kind: .array, start: start, end: position)
        }
        while true {
            _ = try value(context: nil, depth: depth, visitor: &visitor)
            skipWhitespace()
            guard position < count else { throw JSONError(.unexpectedEnd, at: count) }
            let next = base[position]
            position += 1
            if next == UInt8(ascii: "]") { return JSONSpan(kind: .array, start: start, end: position) }
            if next != UInt8(ascii: ",") { throw JSONError(.unexpectedByte(next), at: position - 1) }
        }
    }

    /// A string; the span is its body between the quotes.
    private mutating func string() throws(JSONError) -> JSONSpan {
        position += 1
        let start = position
        var hasEscapes = false
        while true {
            // Eight bytes at a time until one may be a quote, a backslash or a control character.
            while position &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let mask = Self.specialBytes(word)
                if mask != 0 {
                    position += mask.trailingZeroBitCount >> 3
                    break
                }
                position += 8
            }
            guard position < count else { throw JSONError(.unexpectedEnd, at: count) }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return JSONSpan(kind: .string, start: start, end: position - 1, hasEscapes: hasEscapes)
            } else if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                guard position + 1 < count else { throw JSONError(.unexpectedEnd, at: count) }
                switch base[position + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 2
                case UInt8(ascii: "u"):
                    for i in 2..<6 {
                        guard position + i < count else { throw JSONError(.unexpectedEnd, at: count) }
                        guard Self.hexValue(base[position + i]) != nil else {
                            throw JSONError(.invalidUnicodeEscape, at: position)
                        }
                    }
                    position += 6
                default:
                    throw JSONError(.invalidEscape, at: position)
                }
            } else if byte < 0x20 {
                throw JSONError(.controlCharacter, at: position)
            } else {
                position += 1
            }
        }
    }

    /// Nonzero where `word` may hold `"`, `\` or a byte below 0x20; the lowest
    /// set byte is always a real one (borrows only carry upwards).
    @inline(__always)
    private static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control) & highs
    }

    private mutating func number() throws(JSONError) -> JSONSpan {
        let start = position
        if base[position] == UInt8(ascii: "-") { position += 1 }
        guard position < count else { throw JSONError(.unexpectedEnd, at: count) }
        if base[position] == UInt8(ascii: "0") {
            position += 1
        } else if Self.isDigit(base[position]) {
            while position < count && Self.isDigit(base[position]) { position += 1 }
        } else {
            throw JSONError(.invalidNumber, at: start)
        }
        if position < count && base[position] == UInt8(ascii: ".") {
            position += 1
            guard position < count else { throw JSONError(.unexpectedEnd, at: count) }
            guard Self.isDigit(base[position]) else { throw JSONError(.invalidNumber, at: start) }
            while position < count && Self.isDigit(base[position]) { position += 1 }
        }
        if position < count && (base[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            if position < count && (base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")) {
                position += 1
            }
            guard position < count else { throw JSONError(.unexpectedEnd, at: count) }
            guard Self.isDigit(base[position]) else { throw JSONError(.invalidNumber, at: start) }
            while position < count && Self.isDigit(base[position]) { position += 1 }
        }
        return JSONSpan(kind: .number, start: start, end: position)
    }

    private mutating func literal(_ word: StaticString, kind: JSONSpan.Kind) throws(JSONError) -> JSONSpan {
        let start = position
        let expected = word.utf8Start
        for i in 0..<word.utf8CodeUnitCount {
            guard position < count else { throw JSONError(.unexpectedEnd, at: count) }
            guard base[position] == expected[i] else { throw JSONError(.unexpectedByte(base[position]), at: position) }
            position += 1
        }
        return JSONSpan(kind: kind, start: start, end: position)
    }

    // MARK: - Bytes

    @inline(__always)
    private func peek() -> UInt8? { position < count ? base[position] : nil }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < count {
            switch base[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): position += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(JSONError) {
        skipWhitespace()
        guard position < count else { throw JSONError(.unexpectedEnd, at: count) }
        guard base[position] == byte else { throw JSONError(.unexpectedByte(base[position]), at: position) }
        position += 1
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: - Decoding strings

    /// Appends the UTF-8 of the string at `span` of `bytes` (a span this scanner
    /// reported, so already validated) to `output`, decoding escapes: `\n`,
    /// `\"`, `\uXXXX` and surrogate pairs. A lone surrogate becomes U+FFFD;
    /// returns true if there was one.
    @discardableResult
    static func decodeString(_ span: JSONSpan, in bytes: UnsafeRawBufferPointer, into output: ByteBuffer) -> Bool {
        precondition(span.kind == .string)
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard span.hasEscapes else {
            output.append(UnsafeRawBufferPointer(start: base + span.start, count: span.end - span.start))
            return false
        }
        var loneSurrogate = false
        output.reserve(span.end - span.start)
        var i = span.start
        var runStart = i
        while i < span.end {
            guard base[i] == UInt8(ascii: "\\") else {
                i += 1
                continue
            }
            output.append(UnsafeRawBufferPointer(start: base + runStart, count: i - runStart))
            let kind = base[i + 1]
            i += 2
            switch kind {
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "u"):
                var scalar = hex4(base + i)
                i += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate: only a following low surrogate completes it.
                    if i + 6 <= span.end, base[i] == UInt8(ascii: "\\"), base[i + 1] == UInt8(ascii: "u") {
                        let low = hex4(base + i + 2)
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                        } else {
                            scalar = 0xFFFD
                            loneSurrogate = true
                        }
                    } else {
                        scalar = 0xFFFD
                        loneSurrogate = true
                    }
                } else if (0xDC00..<0xE000).contains(scalar) {
                    scalar = 0xFFFD
                    loneSurrogate = true
                }
                appendUTF8(scalar, to: output)
            default: output.append(kind)  // \" \\ \/
            }
            runStart = i
        }
        output.append(UnsafeRawBufferPointer(start: base + runStart, count: span.end - runStart))
        return loneSurrogate
    }

    /// The string at `span` decoded, for tests and error messages.
    static func decodedString(_ span: JSONSpan, in bytes: UnsafeRawBufferPointer) -> String {
        let buffer = ByteBuffer(capacity: span.end - span.start)
        decodeString(span, in: bytes, into: buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    private static func hex4(_ p: UnsafePointer<UInt8>) -> UInt32 {
        (hexValue(p[0])! << 12) | (hexValue(p[1])! << 8) | (hexValue(p[2])! << 4) | hexValue(p[3])!
    }

    private static func appendUTF8(_ scalar: UInt32, to output: ByteBuffer) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

// MARK: - Spans, visitors, errors

/// Where a JSON value lies in the scanned bytes.
struct JSONSpan: Equatable, Sendable {
    /// The type of a JSON value.
    enum Kind: UInt8, Sendable {
        case string, number, object, array, bool, null

        /// "a number", "an object", "a boolean", … for messages.
        var withArticle: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .object: "an object"
            case .array: "an array"
            case .bool: "a boolean"
            case .null: "null"
            }
        }
    }

    var kind: Kind
    /// For a string, the first byte after the opening quote; otherwise the
    /// value's first byte.
    var start: Int
    /// For a string, the closing quote; otherwise one past the value's last byte.
    var end: Int
    /// Whether the string has backslash escapes (then decode it with
    /// `JSONScanner.decodeString`); false for other kinds.
    var hasEscapes = false
}

/// What the scanner does with the value of one object member.
enum JSONMemberAction: Equatable {
    /// Validate and forget it.
    case skip
    /// Report its span to the visitor's `capture(_:slot:)`.
    case capture(UInt8)
    /// If it is an object, read its members in this context; otherwise skip it.
    case descend(UInt8)
}

/// A `JSONScanner` client: picks the members it wants.
protocol JSONMemberVisitor {
    /// What to do with member `key` (its raw bytes between the quotes, not
    /// unescaped) of an object read in `context`.
    func action(forKey key: UnsafeRawBufferPointer, in context: UInt8) -> JSONMemberAction
    /// Receives the span of a member whose action was `capture(slot)`.
    mutating func capture(_ span: JSONSpan, slot: UInt8)
}

/// A visitor that wants nothing: validation only.
struct JSONIgnoringVisitor: JSONMemberVisitor {
    func action(forKey key: UnsafeRawBufferPointer, in context: UInt8) -> JSONMemberAction { .skip }
    mutating func capture(_ span: JSONSpan, slot: UInt8) {}
}

/// Why a line is not valid JSON, and where: `offset` counts bytes from the
/// start of the line, from 0.
struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    enum Reason: Equatable, Sendable {
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case invalidEscape
        case invalidUnicodeEscape
        case controlCharacter
        case invalidNumber
        case tooDeep
    }

    var reason: Reason
    var offset: Int

    init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The same error at `distance` bytes further on: for a document read
    /// from part of a line, to name the byte in the whole line.
    func shifted(by distance: Int) -> JSONError {
        JSONError(reason, at: offset + distance)
    }

    /// "malformed JSON: unexpected end of input at byte 17".
    var description: String {
        let what: String
        switch reason {
        case .unexpectedEnd: what = "unexpected end of input"
        case .unexpectedByte(let byte) where byte >= 0x20 && byte < 0x7F:
            what = "unexpected character '\(Character(Unicode.Scalar(byte)))'"
        case .unexpectedByte(let byte):
            let hex = String(byte, radix: 16, uppercase: true)
            what = "unexpected byte 0x\(byte < 16 ? "0" : "")\(hex)"
        case .invalidEscape: what = "invalid escape"
        case .invalidUnicodeEscape: what = "invalid \\u escape"
        case .controlCharacter: what = "control character in string"
        case .invalidNumber: what = "invalid number"
        case .tooDeep: what = "nesting deeper than \(JSONScanner.maxDepth)"
        }
        return "malformed JSON: \(what) at byte \(offset)"
    }
}
