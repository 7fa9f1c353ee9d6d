import Foundation

/// Splits the top-level array of a JSON document into its elements without
/// parsing them, so that one malformed element costs only itself.
///
/// Strings and escapes are respected when matching braces. When an element is
/// unbalanced (a brace or a quote missing or extra), the scanner resynchronises
/// at the next place that looks like the start of an element: a `{` followed by
/// the same first key as the element that failed, or as the last good one
/// (`{ "tweet" :` in an X archive), and that is not a member's value (after a
/// `:`): a v1.1 tweet's `retweeted_status` and `quoted_status` start with its
/// own first key, and were read as tweets of their own. That search ignores
/// strings: a damaged quote turns strings inside out, and an unescaped
/// `"tweet"` cannot occur inside a well-formed string anyway.
struct JSONEntryScanner {
    /// One element: its 1-based position and bytes, or why it could not be delimited.
    enum Entry {
        case element(position: Int, bytes: ArraySlice<UInt8>)
        case broken(position: Int, reason: String)
    }

    let bytes: [UInt8]

    /// The elements of the first top-level array found at or after `start`.
    ///
    /// An array the input ends in, after its last element, without its `]` (a
    /// file cut short between two entries, or before the first) ends with a
    /// `.broken` entry at the next position that says so: the elements before
    /// it are whole, but whatever came after them is missing, and nothing else
    /// would tell (a file cut inside an element has that element broken).
    func entries(from start: Int = 0) -> [Entry] {
        guard let open = bytes[start...].firstIndex(of: UInt8(ascii: "[")) else { return [] }
        var entries: [Entry] = []
        var index = open + 1
        var position = 0
        /// The first key of the last element that was delimited.
        var lastKey: ArraySlice<UInt8>?
        while true {
            index = skipSeparators(from: index)
            guard index < bytes.count else {
                entries.append(.broken(position: position + 1, reason: position == 0
                    ? "the file ends before the array's closing ']', with no entry: it was cut short"
                    : "the file ends here, before the array's closing ']': it was cut short, and any entries after entry \(position) are missing"))
                break
            }
            guard bytes[index] != UInt8(ascii: "]") else { break }
            position += 1
            let first = bytes[index]
            guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
                // A bare value where an object belongs: skip to the next separator.
                // A value that runs into a `{` is an object that lost its own brace.
                let end = endOfScalar(from: index)
                entries.append(.broken(position: position, reason: "not a JSON object"))
                if end < bytes.count, bytes[end] == UInt8(ascii: "{"), let restart = resynchronise(after: index, keys: [lastKey]) {
                    index = restart
                } else {
                    index = end
                }
                continue
            }
            let keys = [firstKey(ofObjectAt: index), lastKey]
            if let end = matchingClose(from: index), isPlausibleEnd(after: end) {
                // An element that holds the start of another was probably
                // closed by a later entry's brace: keep it only if it parses.
                if let restart = resynchronise(after: index, keys: keys), restart < end,
                    LoneSurrogateEscapes.jsonObject(with: Data(bytes[index...end])) == nil
                {
                    entries.append(.broken(position: position, reason: "invalid JSON"))
                    index = restart
                    continue
                }
                entries.append(.element(position: position, bytes: bytes[index...end]))
                lastKey = firstKey(ofObjectAt: index) ?? lastKey
                index = end + 1
            } else {
                let reason = matchingClose(from: index) == nil ? "unterminated entry" : "unbalanced entry"
                entries.append(.broken(position: position, reason: reason))
                guard let restart = resynchronise(after: index, keys: keys) else { break }
                index = restart
            }
        }
        return entries
    }

    /// The index of the bracket or brace closing the one at `start`, or nil
    /// when the input ends first or a closer does not match its opener.
    func end(ofValueAt start: Int) -> Int? {
        matchingClose(from: start)
    }

    // MARK: - Scanning

    /// JSON's white space: space, line feed, carriage return, tab.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private func skipSeparators(from start: Int) -> Int {
        var index = start
        while index < bytes.count, Self.isSpace(bytes[index]) || bytes[index] == UInt8(ascii: ",") { index += 1 }
        return index
    }

    /// After an element, only a separator, the array's end, or the end of input may follow.
    private func isPlausibleEnd(after end: Int) -> Bool {
        var index = end + 1
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index == bytes.count || bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: "]")
    }

    /// The index of the brace or bracket closing the one at `start`, or `nil`
    /// at end of input or when a closer does not match its opener.
    private func matchingClose(from start: Int) -> Int? {
        var expected: [UInt8] = []
        var inString = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"): expected.append(UInt8(ascii: "}"))
                case UInt8(ascii: "["): expected.append(UInt8(ascii: "]"))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard expected.popLast() == byte else { return nil }
                    if expected.isEmpty { return index }
                default: break
                }
            }
            index += 1
        }
        return nil
    }

    private func endOfScalar(from start: Int) -> Int {
        var index = start
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "{") {
                return index
            }
            index += 1
        }
        return index
    }

    /// Whether the value at `start` follows a `:` (white space aside): an
    /// object member's value, not an array's element.
    private func isMemberValue(at start: Int) -> Bool {
        var index = start - 1
        while index >= 0, Self.isSpace(bytes[index]) { index -= 1 }
        return index >= 0 && bytes[index] == UInt8(ascii: ":")
    }

    /// The first key of the object at `start`, with its quotes (e.g. `"tweet"`).
    private func firstKey(ofObjectAt start: Int) -> ArraySlice<UInt8>? {
        var index = start + 1
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") { end += 1 }
            end += 1
        }
        guard end < bytes.count else { return nil }
        return bytes[index...end]
    }

    /// The first `{` after `start` that opens an object whose first key is one
    /// of `keys` and is not a member's value, strings or not (see the type's
    /// documentation).
    private func resynchronise(after start: Int, keys: [ArraySlice<UInt8>?]) -> Int? {
        let keys = keys.compactMap { $0 }
        guard !keys.isEmpty else { return nil }
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "{"), !isMemberValue(at: index), let candidate = firstKey(ofObjectAt: index),
                keys.contains(where: { $0.elementsEqual(candidate) })
            {
                return index
            }
            index += 1
        }
        return nil
    }
}
