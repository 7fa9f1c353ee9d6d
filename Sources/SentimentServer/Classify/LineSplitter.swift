/// Splits a byte stream into lines (`\n`, with an optional `\r` before it)
/// without holding more than one line, and flags lines over a maximum length.
struct LineSplitter {
    /// A line without its terminator, or the mark of one that was too long:
    /// its first ``prefixBytes`` bytes are kept (an id written before the text
    /// can still name it) and the rest is dropped.
    enum Line: Equatable {
        case text([UInt8])
        case tooLong(prefix: [UInt8])
    }

    /// How much of an over-long line is kept.
    static let prefixBytes = 4096

    let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    private var position = 0
    private var discarding = false

    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Adds bytes from the stream.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line, or `nil` when more bytes are needed.
    mutating func next() -> Line? {
        while true {
            guard let newline = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) else {
                if !discarding, buffer.count - position > maximumLineBytes {
                    discarding = true
                    let prefix = Array(buffer[position..<position + min(Self.prefixBytes, buffer.count - position)])
                    buffer.removeAll(keepingCapacity: true)
                    position = 0
                    return .tooLong(prefix: prefix)
                }
                if discarding {
                    buffer.removeAll(keepingCapacity: true)
                    position = 0
                }
                return nil
            }
            let start = position
            position = newline + 1
            if discarding {
                discarding = false
                continue
            }
            var end = newline
            if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end - start > maximumLineBytes { return .tooLong(prefix: Array(buffer[start..<start + min(Self.prefixBytes, end - start)])) }
            return .text(Array(buffer[start..<end]))
        }
    }

    /// The last line when the stream ended without a newline.
    mutating func finish() -> Line? {
        defer {
            buffer.removeAll()
            position = 0
        }
        guard !discarding, position < buffer.count else { return nil }
        var end = buffer.count
        if buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return .text(Array(buffer[position..<end]))
    }
}
