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
        let text = bytes.dropFirst(2)
        return text.withContiguousStorageIfAvailable { transcoder.utf8(ofAll: UnsafeRawBufferPointer($0)) }
            ?? Array(text).withUnsafeBytes { transcoder.utf8(ofAll: $0) }
    }

    /// The most bytes that `append(_:into:)` writes for a piece of
    /// `byteCount` bytes: 3 for each code unit the piece ends, and 1 for half
    /// a surrogate pair the piece before left.
    package static func maxUTF8Count(appending byteCount: Int) -> Int {
        (byteCount / 2 + 1) * 3 + 1
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

    /// Writes the UTF-8 of the next piece of the input at `output`, which has
    /// room for `maxUTF8Count(appending: bytes.count)` bytes; returns how many
    /// it wrote.
    package mutating func append(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) -> Int {
        switch order {
        case .littleEndian: append(bytes, into: output, bigEndian: false)
        case .bigEndian: append(bytes, into: output, bigEndian: true)
        }
    }

    /// Writes what the input's end leaves at `output`, which has room for 2
    /// bytes: half a surrogate pair or an odd byte, as 0xFF; returns how many
    /// bytes it wrote.
    package mutating func finish(into output: UnsafeMutableRawPointer) -> Int {
        var count = 0
        if highSurrogate != nil {
            output.storeBytes(of: 0xFF, as: UInt8.self)
            count += 1
        }
        if oddByte != nil {
            output.storeBytes(of: 0xFF, toByteOffset: count, as: UInt8.self)
            count += 1
        }
        highSurrogate = nil
        oddByte = nil
        return count
    }

    /// The UTF-8 of `bytes`, the whole input after its mark.
    private mutating func utf8(ofAll bytes: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Self.maxUTF8Count(appending: bytes.count) + 2) { buffer, count in
            let output = UnsafeMutableRawPointer(buffer.baseAddress!)
            count = append(bytes, into: output)
            count += finish(into: output + count)
        }
    }

    /// `append(_:into:)` for one byte order, so that the loop tests none.
    @inline(__always)
    private mutating func append(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, bigEndian: Bool) -> Int {
        guard let input = bytes.baseAddress, bytes.count > 0 else { return 0 }
        var high = highSurrogate ?? 0
        var read = 0
        var written = 0
        if let first = oddByte {
            let second = input.load(as: UInt8.self)
            let unit = bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
            written = Self.write(unit, after: &high, at: output)
            read = 1
            oddByte = nil
        }
        while bytes.count - read >= 2 {
            // Four ASCII code units at a time, as most tweets are.
            if high == 0 && bytes.count - read >= 8 {
                let four = input.loadUnaligned(fromByteOffset: read, as: UInt64.self)
                let units = bigEndian ? UInt64(bigEndian: four) : UInt64(littleEndian: four)
                if units & 0xFF80_FF80_FF80_FF80 == 0 {
                    let ascii = UInt32(truncatingIfNeeded: units & 0x7F | units >> 8 & 0x7F00 | units >> 16 & 0x7F_0000 | units >> 24 & 0x7F00_0000)
                    output.storeBytes(of: bigEndian ? ascii.bigEndian : ascii.littleEndian, toByteOffset: written, as: UInt32.self)
                    read += 8
                    written += 4
                    continue
                }
            }
            let two = input.loadUnaligned(fromByteOffset: read, as: UInt16.self)
            written += Self.write(bigEndian ? UInt16(bigEndian: two) : UInt16(littleEndian: two), after: &high, at: output + written)
            read += 2
        }
        if read < bytes.count { oddByte = input.load(fromByteOffset: read, as: UInt8.self) }
        highSurrogate = high == 0 ? nil : high
        return written
    }

    /// Writes the UTF-8 of `unit` at `output`, `high` being the high
    /// surrogate before it that waits for its low half (else 0); returns how
    /// many bytes it wrote (at most 4).
    @inline(__always)
    private static func write(_ unit: UInt16, after high: inout UInt16, at output: UnsafeMutableRawPointer) -> Int {
        var count = 0
        if high != 0 {
            let lead = high
            high = 0
            if UTF16.isTrailSurrogate(unit) {
                return encode(0x10000 + (UInt32(lead - 0xD800) << 10 | UInt32(unit - 0xDC00)), at: output)
            }
            output.storeBytes(of: 0xFF, as: UInt8.self)
            count = 1
        }
        if UTF16.isLeadSurrogate(unit) {
            high = unit
        } else if UTF16.isTrailSurrogate(unit) {
            output.storeBytes(of: 0xFF, toByteOffset: count, as: UInt8.self)
            count += 1
        } else {
            count += encode(UInt32(unit), at: output + count)
        }
        return count
    }

    /// Writes the UTF-8 of `scalar`, a code point that is no surrogate, at
    /// `output`; returns how many bytes it wrote.
    @inline(__always)
    private static func encode(_ scalar: UInt32, at output: UnsafeMutableRawPointer) -> Int {
        var count = 0
        UTF8.encode(Unicode.Scalar(scalar)!) { byte in
            output.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
            count += 1
        }
        return count
    }
}
