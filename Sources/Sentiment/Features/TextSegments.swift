/// How a long text is read: in tweet-sized pieces whose scores are averaged.
///
/// The model was trained on tweets (the longest training text is 172 bytes)
/// and sums each feature group scaled by 1/√(its size), so a text that says
/// the same thing k times scores √k times as sure: read whole, 4.6 KB of
/// forty unrelated tweets came out positive at p 0.95. A text of more than `wholeLimit` bytes is
/// therefore cut into segments of at most `segmentLimit` bytes — at sentence
/// ends where it can be, else at white space, else between two scalars — and
/// its score is the mean of the segments' scores (sparse and dense alike),
/// each weighted by its length in bytes. The model is linear, so that is the
/// score of one feature vector, the segments' vectors averaged: training,
/// `explain` and classification all read a long text this way. Texts up to
/// `wholeLimit` bytes — a 280-character English tweet, even with dozens of
/// emoji — are read whole, as before.
public enum TextSegments {
    /// Texts up to this many bytes are one segment.
    public static let wholeLimit = 560
    /// The most bytes a segment of a longer text holds.
    public static let segmentLimit = 280

    /// A piece of a text and its share of the score.
    struct Segment: Equatable {
        /// Byte offsets in the text.
        var range: Range<Int>
        /// Its length over the kept segments' total (the weights sum to 1).
        var weight: Float
    }

    /// The segments of `bytes`: the whole text when it has at most
    /// `wholeLimit` bytes; otherwise consecutive ranges of at most
    /// `segmentLimit` bytes that cover it in order, without those that hold
    /// only ASCII white space (a text of nothing else is one segment, whole).
    static func segments(of bytes: UnsafeRawBufferPointer) -> [Segment] {
        let whole = [Segment(range: 0..<bytes.count, weight: 1)]
        guard bytes.count > wholeLimit else { return whole }
        var ranges: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            let end = cut(bytes, from: start, limit: segmentLimit)
            if !isBlank(bytes, start..<end) { ranges.append(start..<end) }
            start = end
        }
        guard !ranges.isEmpty else { return whole }
        let total = Float(ranges.reduce(0) { $0 + $1.count })
        return ranges.map { Segment(range: $0, weight: Float($0.count) / total) }
    }

    /// Where the segment starting at `start` ends: the whole rest if it fits;
    /// else after the last sentence end that fits (".", "!", "?" or a line
    /// break, with the white space after it), else after the last white
    /// space, else at the last scalar boundary.
    private static func cut(_ bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int {
        let end = start + limit
        guard end < bytes.count else { return bytes.count }
        var sentence = -1, space = -1
        // A cut at i means the segment is start..<i; byte i starts the next one.
        for i in (start + 1)...end {
            let previous = bytes[i - 1], next = bytes[i]
            if isSpace(previous) && !isSpace(next) {
                space = i
                if i - 2 >= start, endsSentence(bytes, before: i, from: start) { sentence = i }
            }
        }
        if sentence > start { return sentence }
        if space > start { return space }
        // Not inside a scalar (at most three continuation bytes); in bytes
        // that are not UTF-8 any cut will do.
        var i = end
        while i > end - 3 && bytes[i] & 0xC0 == 0x80 { i -= 1 }
        return bytes[i] & 0xC0 == 0x80 ? end : i
    }

    /// Whether the white space that ends just before `i` follows a sentence end.
    private static func endsSentence(_ bytes: UnsafeRawBufferPointer, before i: Int, from start: Int) -> Bool {
        var j = i - 1
        while j > start && isSpace(bytes[j]) {
            if bytes[j] == UInt8(ascii: "\n") { return true }
            j -= 1
        }
        let b = bytes[j]
        return b == UInt8(ascii: ".") || b == UInt8(ascii: "!") || b == UInt8(ascii: "?") || b == UInt8(ascii: "\n")
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r")
    }

    private static func isBlank(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        range.allSatisfy { isSpace(bytes[$0]) }
    }
}
