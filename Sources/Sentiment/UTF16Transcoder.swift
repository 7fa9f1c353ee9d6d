/// Turns text written in UTF-16 with a byte order mark into UTF-8, in pieces
/// as they are read: what Windows Notepad saves as "Unicode", Excel as
/// "Unicode Text" and Windows PowerShell's `>` writes. `classify`, `explain`,
/// `train` and `eval` read such an input as the text it holds.
///
/// A code unit or a surrogate pair cut between two pieces is completed by the
/// next. Half a surrogate pair (and an odd last byte) is written as the byte
/// 0xFF, which is not UTF-8, so the reader flags it as it flags a UTF-8
/// input's bad bytes and reads it as U+FFFD.
package struct UTF16Transcoder: Sendable {
    /// The order of a code unit's two bytes.
    package enum ByteOrder: Sendable {
        case littleEndian, bigEndian
    }

    /// The byte order that a UTF-16 byte order mark announces: FF FE is
    /// little-endian, FE FF big-endian; any other two bytes are no mark.
    package static func byteOrder(marked first: UInt8, _ second: UInt8) -> ByteOrder? {
        switch (first, second) {
        case (0xFF, 0xFE): .littleEndian
        case (0xFE, 0xFF): .bigEndian
        default: nil
        }
    }

    /// The whole of `bytes` as UTF-8 when they start with a UTF-16 byte
    /// order mark (which is dropped), else nil.
    package static func utf8(ofMarked bytes: some Collection<UInt8>) -> [UInt8]? {
        var start = bytes.makeIterator()
        guard let first = start.next(), let second = start.next(), let order = byteOrder(marked: first, second) else { return nil }
        var transcoder = UTF16Transcoder(order)
        var output = [UInt8]()
        output.reserveCapacity(bytes.count + bytes.count / 2)
        transcoder.append(bytes.dropFirst(2), to: &output)
        transcoder.finish(to: &output)
        return output
    }

    private let order: ByteOrder
    /// The first byte of a code unit that the last piece cut in two.
    private var oddByte: UInt8?
    /// A high surrogate waiting for its low half.
    private var highSurrogate: UInt16?

    /// A transcoder for bytes in `order`, after the byte order mark.
    package init(_ order: ByteOrder) {
        self.order = order
    }

    /// Appends the UTF-8 of the next piece of the input to `output`.
    package mutating func append(_ bytes: some Sequence<UInt8>, to output: inout [UInt8]) {
        for byte in bytes {
            guard let first = oddByte else {
                oddByte = byte
                continue
            }
            oddByte = nil
            let unit = order == .littleEndian ? UInt16(byte) << 8 | UInt16(first) : UInt16(first) << 8 | UInt16(byte)
            append(unit: unit, to: &output)
        }
    }

    /// Appends what the input's end leaves: half a surrogate pair or an odd
    /// byte, as 0xFF.
    package mutating func finish(to output: inout [UInt8]) {
        if highSurrogate != nil { output.append(0xFF) }
        if oddByte != nil { output.append(0xFF) }
        highSurrogate = nil
        oddByte = nil
    }

    private mutating func append(unit: UInt16, to output: inout [UInt8]) {
        if let high = highSurrogate {
            highSurrogate = nil
            if UTF16.isTrailSurrogate(unit) {
                encode(0x10000 + (UInt32(high - 0xD800) << 10 | UInt32(unit - 0xDC00)), to: &output)
                return
            }
            output.append(0xFF)
        }
        if UTF16.isLeadSurrogate(unit) {
            highSurrogate = unit
        } else if UTF16.isTrailSurrogate(unit) {
            output.append(0xFF)
        } else {
            encode(UInt32(unit), to: &output)
        }
    }

    /// Appends the UTF-8 of `scalar`, a code point that is no surrogate.
    private func encode(_ scalar: UInt32, to output: inout [UInt8]) {
        UTF8.encode(Unicode.Scalar(scalar)!) { output.append($0) }
    }
}
