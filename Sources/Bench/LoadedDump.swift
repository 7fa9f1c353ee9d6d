import Foundation

/// A plain dump read into memory for the in-process stages: one allocation,
/// each tweet a byte range into it, ASCII-only and non-ASCII tweets apart.
final class LoadedDump {
    private let storage: UnsafeMutableRawBufferPointer
    /// Every tweet, in order.
    let texts: [UnsafeRawBufferPointer]
    /// Indices of the tweets that are pure ASCII (the tokenizer's fast path) and of the others.
    let ascii: [UnsafeRawBufferPointer]
    let nonASCII: [UnsafeRawBufferPointer]

    /// The first `limit` tweets of `url`.
    init(_ url: URL, limit: Int) throws {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw BenchError("cannot read \(url.path)") }
        storage = .allocate(byteCount: max(data.count, 1), alignment: 64)
        data.copyBytes(to: storage.bindMemory(to: UInt8.self), count: data.count)
        var texts: [UnsafeRawBufferPointer] = [], ascii: [UnsafeRawBufferPointer] = [], other: [UnsafeRawBufferPointer] = []
        let bytes = UnsafeRawBufferPointer(rebasing: storage[0..<data.count])
        var start = 0
        while start < bytes.count, texts.count < limit {
            var end = start
            var high: UInt8 = 0
            while end < bytes.count, bytes[end] != 0x0A { high |= bytes[end]; end += 1 }
            let text = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            texts.append(text)
            if high < 0x80 { ascii.append(text) } else { other.append(text) }
            start = end + 1
        }
        self.texts = texts
        self.ascii = ascii
        self.nonASCII = other
    }

    deinit { storage.deallocate() }

    static func byteCount(_ texts: [UnsafeRawBufferPointer]) -> Int {
        texts.reduce(0) { $0 + $1.count }
    }
}
