/// A growable byte buffer that owns raw memory: the output of a batch and the
/// decoded strings of a worker. Reused from batch to batch, so a warm buffer
/// allocates nothing.
///
/// A reference type so that it can travel between threads inside a `Batch`;
/// only one thread uses it at a time (the pipeline hands it over through
/// locked queues). Pointers into it stay valid until the next append that
/// grows it or the next `removeAll()`.
final class ByteBuffer {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    /// The number of bytes written.
    var count = 0

    /// A buffer with room for `capacity` bytes before it grows.
    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        base = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// The written bytes. Valid until the buffer next grows or is cleared.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Forgets the contents and keeps the memory.
    @inline(__always)
    func removeAll() { count = 0 }

    /// Makes room for `extra` more bytes without moving them later.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Appends raw bytes.
    @inline(__always)
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends an ASCII/UTF-8 literal, such as a JSON key, without escaping.
    @inline(__always)
    func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes, without escaping.
    func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a non-negative or negative integer in decimal.
    func appendDecimal(_ value: Int) {
        var value = value
        if value < 0 {
            append(UInt8(ascii: "-"))
            value = -value
        }
        if value < 10 {
            append(UInt8(truncatingIfNeeded: value) &+ 48)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes, enough for 20 digits
        var n = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            let end = scratch.baseAddress! + 24
            // Two digits a division.
            while value >= 100 {
                let quotient = value / 100
                n += 2
                (end - n).storeBytes(of: Self.digitPair(value &- quotient &* 100), as: UInt16.self)
                value = quotient
            }
            if value >= 10 {
                n += 2
                (end - n).storeBytes(of: Self.digitPair(value), as: UInt16.self)
            } else {
                n += 1
                (end - n).storeBytes(of: UInt8(truncatingIfNeeded: value) &+ 48, as: UInt8.self)
            }
            append(UnsafeRawBufferPointer(start: end - n, count: n))
        }
    }

    /// "00" to "99", two ASCII digits each.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// The two ASCII digits of `n` (0 to 99) as they lie in memory.
    @inline(__always)
    private static func digitPair(_ n: Int) -> UInt16 {
        UnsafeRawPointer(digitPairs.utf8Start + 2 &* n).loadUnaligned(as: UInt16.self)
    }

    /// Appends `value` with exactly four decimals ("0.8843", "-0.1200", "1.0000"),
    /// rounded half away from zero; `null` when it is not finite.
    func appendFixed4(_ value: Double) {
        guard value.isFinite else {
            append("null" as StaticString)
            return
        }
        var scaled = Int((abs(value) * 10_000).rounded())
        if scaled < 10_000 {
            // Below 1 in magnitude, as probabilities and scores nearly always are:
            // "0." or "-0." and two digit pairs.
            reserve(7)
            var at = count
            if value < 0 && scaled > 0 {
                base.storeBytes(of: UInt8(ascii: "-"), toByteOffset: at, as: UInt8.self)
                at += 1
            }
            let high = scaled / 100
            base.storeBytes(of: UInt8(ascii: "0"), toByteOffset: at, as: UInt8.self)
            base.storeBytes(of: UInt8(ascii: "."), toByteOffset: at + 1, as: UInt8.self)
            base.storeBytes(of: Self.digitPair(high), toByteOffset: at + 2, as: UInt16.self)
            base.storeBytes(of: Self.digitPair(scaled &- high &* 100), toByteOffset: at + 4, as: UInt16.self)
            count = at + 6
            return
        }
        if value < 0 { append(UInt8(ascii: "-")) }
        let whole = scaled / 10_000
        scaled %= 10_000
        appendDecimal(whole)
        reserve(5)
        base.storeBytes(of: UInt8(ascii: "."), toByteOffset: count, as: UInt8.self)
        base.storeBytes(of: UInt8(truncatingIfNeeded: scaled / 1000) &+ 48, toByteOffset: count + 1, as: UInt8.self)
        base.storeBytes(of: UInt8(truncatingIfNeeded: scaled / 100 % 10) &+ 48, toByteOffset: count + 2, as: UInt8.self)
        base.storeBytes(of: UInt8(truncatingIfNeeded: scaled / 10 % 10) &+ 48, toByteOffset: count + 3, as: UInt8.self)
        base.storeBytes(of: UInt8(truncatingIfNeeded: scaled % 10) &+ 48, toByteOffset: count + 4, as: UInt8.self)
        count += 5
    }
}
