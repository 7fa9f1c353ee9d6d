#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UTF-8 well-formedness (Unicode table 3-7: no overlong forms, no
/// surrogates, nothing above U+10FFFF), with an ASCII fast path.
enum UTF8Validation {
    /// Whether `bytes` is well-formed UTF-8.
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        check(bytes).isValid
    }

    /// What one pass over `bytes` finds: whether they are well-formed UTF-8,
    /// and whether they hold a NUL byte (U+0000, well-formed but worth a
    /// warning in a tweet).
    ///
    /// Eight bytes at a time while they are ASCII other than NUL: one test of
    /// `(x − 0x0101…) | x` against the high bits, which is clear exactly when
    /// no byte is 0 and none is 0x80 or above (a byte subtracted from without
    /// a borrow keeps its high bit clear unless it was 0; a borrow comes only
    /// from a 0 below it). This one pass replaced a check and a `memchr`.
    static func check(_ bytes: UnsafeRawBufferPointer) -> (isValid: Bool, hasNUL: Bool) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return (true, false) }
        let count = bytes.count
        var hasNUL = false
        var i = 0
        while i < count {
            while i &+ 8 <= count {
                let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                guard (x &- 0x0101_0101_0101_0101 | x) & 0x8080_8080_8080_8080 == 0 else { break }
                i &+= 8
            }
            guard i < count else { break }
            let lead = base[i]
            if lead < 0x80 {
                hasNUL = hasNUL || lead == 0
                i += 1
                continue
            }
            let length = sequenceLength(base, at: i, count: count)
            if length == 0 { return (false, hasNUL || memchr(base + i, 0, count - i) != nil) }
            i += length
        }
        return (true, hasNUL)
    }

    /// The length of the well-formed sequence that starts at `i`, or 0 when
    /// the bytes there are not well-formed UTF-8.
    @inline(__always)
    static func sequenceLength(_ base: UnsafePointer<UInt8>, at i: Int, count: Int) -> Int {
        let lead = base[i]
        @inline(__always) func continuation(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            i + k < count && base[i + k] >= low && base[i + k] <= high
        }
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return continuation(1) ? 2 : 0
        case 0xE0: return continuation(1, 0xA0) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : 0
        case 0xED: return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
        case 0xF0: return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4: return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default: return 0
        }
    }
}
