/// Blank text: nothing but white space (Unicode's `White_Space`: ASCII
/// blanks, U+0085, no-break and typographic spaces, U+2028/9, U+3000) and the
/// invisible U+200B, U+2060 and U+FEFF. A record whose text is blank is an
/// error ("empty line", "empty text"), not a neutral tweet.
enum Blank {
    /// Whether `bytes` holds no visible character. Stops at the first one.
    static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
        var i = 0
        while i < bytes.count {
            let byte = base[i]
            if byte < 0x80 {
                guard byte == 0x20 || (0x09...0x0D).contains(byte) else { return false }
                i += 1
                continue
            }
            let length = UTF8Validation.sequenceLength(base, at: i, count: bytes.count)
            guard length > 1, isBlank(scalar: decode(base + i, length: length)) else { return false }
            i += length
        }
        return true
    }

    /// The scalar of a well-formed sequence of 2 to 4 bytes.
    private static func decode(_ p: UnsafePointer<UInt8>, length: Int) -> UInt32 {
        var scalar = UInt32(p[0]) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { scalar = scalar << 6 | UInt32(p[k] & 0x3F) }
        return scalar
    }

    private static func isBlank(scalar: UInt32) -> Bool {
        switch scalar {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF: true
        default: false
        }
    }
}
