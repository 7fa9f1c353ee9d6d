#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sentiment

/// Reads the inputs in large blocks and cuts them into lines, straight into
/// `Batch` buffers: no per-line `String`, one `memchr` per line.
///
/// - Lines end at `\n`; a `\r` before it is dropped; a last line without `\n`
///   counts. Inputs follow each other as if concatenated, except that each
///   input's last line ends with the input. Line numbers run across all inputs.
/// - A UTF-8 byte order mark at the start of an input is dropped. An input
///   that starts with a UTF-16 one is UTF-16, made UTF-8 as it is read
///   (`UTF16Transcoder`), so its lines are cut and limited as UTF-8.
/// - When an input cannot be read, the lines cut before the failure are
///   returned first; the next `fill` throws.
/// - A line longer than `maxLineLength` bytes is not kept: the reader skips to
///   its end reading block by block, and the batch gets a `tooLong` line that
///   holds the line's first `tooLongPrefix` bytes (where a tweet's id is).
/// - A batch ends at `maxLines` lines, once it holds `blockSize` bytes, or when
///   a pipe or terminal has no more data ready (so interactive input flows).
final class LineReader {
    /// Where lines come from.
    enum Input: Equatable, Sendable, CustomStringConvertible {
        case standardInput
        case file(String)

        var description: String {
            switch self {
            case .standardInput: "standard input"
            case .file(let path): path
            }
        }
    }

    /// An input that cannot be opened or read.
    struct Failure: Error, CustomStringConvertible {
        var input: Input
        var errno: Int32

        var description: String {
            "\(input): \(String(cString: strerror(errno)))"
        }
    }

    let maxLineLength: Int
    let blockSize: Int
    let maxLines: Int
    /// How many of an over-long line's first bytes are kept (at most `maxLineLength`).
    let tooLongPrefix: Int

    private var inputs: [Input]
    private var nextInput = 0
    private var fd: Int32 = -1
    private var current: Input = .standardInput
    private var isRegularFile = false
    /// Bytes read but not yet made into lines, kept for the next batch.
    private let carry = ByteBuffer(capacity: 1 << 16)
    /// Inside a line that is too long: dropping bytes up to its `\n`.
    private var skipping = false
    /// The byte order mark's length (3) before the line being skipped, else 0:
    /// its prefix is kept after the mark, which does not count in the limit.
    private var skippedMark = 0
    private var nextLineNumber = 1
    /// The next line is the first of its input (where a byte order mark may be).
    private var atFirstLine = false
    /// A failure met after the current batch already had lines: thrown by the next `fill`.
    private var pendingFailure: Failure?
    /// The current input's first bytes are still to be read for a UTF-16 byte order mark.
    private var sniffing = false
    /// The current input is UTF-16: its bytes are made UTF-8 before they are cut into lines.
    private var utf16: UTF16Transcoder?
    /// A UTF-16 input's block as read.
    private var rawBlock = [UInt8]()
    /// The inputs that are one line holding a `\r` that no `\n` follows, with
    /// that line's number: a file whose lines end in `\r` alone (classic Mac
    /// OS). Only first lines are looked at, and one counts only when no
    /// second line follows it (a stray `\r` in a file of lines does not).
    var carriageReturnLines: [(input: Input, line: Int)] { oneLineCarriageReturns + (carriageReturnCandidate.flatMap(oneLine) ?? []) }
    /// The earlier inputs whose one line holds a `\r`.
    private var oneLineCarriageReturns: [(input: Input, line: Int)] = []
    /// The current input's first line, when it holds a `\r`.
    private var carriageReturnCandidate: (input: Input, line: Int)?

    /// `candidate` in a list when no line has followed it: the lines are numbered across the inputs.
    private func oneLine(_ candidate: (input: Input, line: Int)) -> [(input: Input, line: Int)] {
        nextLineNumber == candidate.line + 1 ? [candidate] : []
    }

    init(inputs: [Input], maxLineLength: Int = 1 << 20, blockSize: Int = 1 << 20, maxLines: Int = 4096,
         tooLongPrefix: Int = 1 << 16) {
        precondition(maxLineLength > 0 && blockSize > 0 && maxLines > 0 && tooLongPrefix >= 0)
        self.inputs = inputs
        self.maxLineLength = maxLineLength
        self.tooLongPrefix = min(tooLongPrefix, maxLineLength)
        self.blockSize = blockSize
        self.maxLines = maxLines
    }

    deinit {
        if fd > 0 { close(fd) }
    }

    /// Refills `batch` with the next lines.
    ///
    /// - Returns: false when the inputs are exhausted (the batch is then empty).
    /// - Throws: `Failure` when an input cannot be opened or read.
    func fill(_ batch: Batch) throws(Failure) -> Bool {
        if let failure = pendingFailure {
            pendingFailure = nil
            throw failure
        }
        let input = batch.input
        input.removeAll()
        batch.lines.removeAll(keepingCapacity: true)
        input.append(carry.bytes)
        carry.removeAll()

        var lineStart = 0
        var scanFrom = 0
        var shortRead = false
        defer {
            // Whatever follows the last whole line waits for the next batch.
            carry.append(UnsafeRawBufferPointer(start: input.base + lineStart, count: input.count - lineStart))
            input.count = lineStart
        }
        while true {
            // Cut the bytes read so far at each newline.
            while batch.lines.count < maxLines, scanFrom < input.count,
                  let newline = memchr(input.base + scanFrom, 0x0A, input.count - scanFrom) {
                let end = newline - input.base
                emit(from: lineStart, to: end, into: batch)
                lineStart = end + 1
                scanFrom = lineStart
            }
            if batch.lines.count >= maxLines { return true }
            scanFrom = input.count
            if skipping {
                input.count = lineStart + skippedMark + tooLongPrefix
                scanFrom = input.count
            } else if input.count - lineStart - markLength(at: lineStart, in: input) > maxLineLength + 1 {
                // Longer than the limit even without a "\r" (or a byte order mark): keep its prefix only.
                skipping = true
                skippedMark = markLength(at: lineStart, in: input)
                input.count = lineStart + skippedMark + tooLongPrefix
                scanFrom = input.count
            }
            if !batch.lines.isEmpty && (input.count >= blockSize || (shortRead && !moreDataReady())) {
                // Full, or a pipe or terminal paused: pass the whole lines on now.
                return true
            }

            // Read the next block.
            if fd < 0 {
                guard nextInput < inputs.count else { return !batch.lines.isEmpty }
                nextInput += 1
                do {
                    try openInput(inputs[nextInput - 1])
                } catch {
                    return try deliver(batch, before: error)
                }
            }
            if sniffing {
                sniffing = false
                do {
                    try readMark(into: input)
                } catch {
                    return try deliver(batch, before: error)
                }
                // Two bytes at most: a line they end ("x\n", "\n") is passed on
                // if a pipe or terminal has nothing more ready, as after any short read.
                shortRead = !isRegularFile
                continue
            }
            input.reserve(blockSize)
            let n = utf16 == nil ? read(fd, input.base + input.count, blockSize) : readUTF16(into: input)
            if n < 0 {
                var error = errno
                if error == EINTR { continue }
                if error == EAGAIN || error == EWOULDBLOCK {
                    // A non-blocking input (a parent process may leave its pipe so) with
                    // nothing to read yet: pass on the lines there are, or wait for more.
                    if !batch.lines.isEmpty { return true }
                    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    // POLLHUP (the writer went away) comes back too: the next read gives the end.
                    if poll(&ready, 1, -1) >= 0 || errno == EINTR { continue }
                    error = errno
                }
                return try deliver(batch, before: Failure(input: current, errno: error))
            }
            if n == 0 {
                // End of this input: its last line ends here.
                if var transcoder = utf16 {
                    input.reserve(2)
                    let written = transcoder.finish(into: input.base + input.count)
                    input.count += written
                    utf16 = nil
                }
                if skipping || input.count > lineStart {
                    // A file that holds a byte order mark alone holds no line, as an empty one.
                    let bareMark = atFirstLine && !skipping && input.count - lineStart == 3
                        && Self.startsWithByteOrderMark(input.base + lineStart)
                    if !bareMark { emit(from: lineStart, to: input.count, into: batch) }
                    lineStart = input.count
                    scanFrom = lineStart
                }
                if fd != STDIN_FILENO { close(fd) }
                fd = -1
                shortRead = false
                continue
            }
            if utf16 == nil { input.count += n }
            shortRead = n < blockSize && !isRegularFile
        }
    }

    /// Reads the current input's first two bytes: a UTF-16 byte order mark
    /// makes it a UTF-16 input (and is dropped), any other bytes are the
    /// input's. A second read is waited for only after a first byte FF or FE,
    /// so a terminal's first line is not held back.
    private func readMark(into input: ByteBuffer) throws(Failure) {
        var mark: [UInt8] = [0, 0]
        var count = 0
        while count < 2 {
            let n = mark.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, 2 - count) }
            if n > 0 {
                count += n
                if count == 1 && mark[0] != 0xFF && mark[0] != 0xFE { break }
                continue
            }
            if n == 0 { break }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&ready, 1, -1) >= 0 || errno == EINTR { continue }
            }
            throw Failure(input: current, errno: errno)
        }
        if count == 2, let order = UTF16Transcoder.byteOrder(marked: mark[0], mark[1]) {
            utf16 = UTF16Transcoder(order)
        } else {
            mark.withUnsafeBytes { input.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// Reads a block of the current UTF-16 input and appends it to `input` as
    /// UTF-8; returns what `read(2)` returned.
    private func readUTF16(into input: ByteBuffer) -> Int {
        if rawBlock.count != blockSize { rawBlock = [UInt8](repeating: 0, count: blockSize) }
        let n = rawBlock.withUnsafeMutableBytes { read(fd, $0.baseAddress, blockSize) }
        guard n > 0, var transcoder = utf16 else { return n }
        input.reserve(UTF16Transcoder.maxUTF8Count(appending: n))
        let written = rawBlock.withUnsafeBytes { transcoder.append(UnsafeRawBufferPointer(rebasing: $0[..<n]), into: input.base + input.count) }
        input.count += written
        utf16 = transcoder
        return n
    }

    /// Returns `batch` when it already holds lines, keeping `failure` for the
    /// next `fill`; throws `failure` when it holds none.
    private func deliver(_ batch: Batch, before failure: Failure) throws(Failure) -> Bool {
        guard !batch.lines.isEmpty else { throw failure }
        pendingFailure = failure
        return true
    }

    /// Records the line `start..<end` of the batch's input (without its `\n`).
    @inline(__always)
    private func emit(from start: Int, to end: Int, into batch: Batch) {
        defer { nextLineNumber += 1 }
        let first = atFirstLine
        atFirstLine = false
        if skipping {
            skipping = false
            batch.lines.append(Batch.Line(start: start + skippedMark, count: tooLongPrefix, number: nextLineNumber, tooLong: true))
            return
        }
        var start = start
        if first && end - start >= 3 && Self.startsWithByteOrderMark(batch.input.base + start) { start += 3 }
        var count = end - start
        if count > 0 && batch.input.base.load(fromByteOffset: end - 1, as: UInt8.self) == 0x0D { count -= 1 }
        let tooLong = count > maxLineLength
        if first && !tooLong && count > 0 && memchr(batch.input.base + start, 0x0D, count) != nil {
            carriageReturnCandidate = (current, nextLineNumber)
        }
        batch.lines.append(Batch.Line(start: start, count: tooLong ? tooLongPrefix : count, number: nextLineNumber, tooLong: tooLong))
    }

    /// 3 when the line at `start` of `input` (a batch's) is its input's first
    /// and begins with a byte order mark, which `emit` drops; else 0.
    @inline(__always)
    private func markLength(at start: Int, in input: ByteBuffer) -> Int {
        atFirstLine && input.count - start >= 3 && Self.startsWithByteOrderMark(input.base + start) ? 3 : 0
    }

    /// Whether the three bytes at `bytes` are UTF-8's byte order mark, EF BB BF.
    private static func startsWithByteOrderMark(_ bytes: UnsafeMutableRawPointer) -> Bool {
        bytes.load(as: UInt8.self) == 0xEF && bytes.load(fromByteOffset: 1, as: UInt8.self) == 0xBB
            && bytes.load(fromByteOffset: 2, as: UInt8.self) == 0xBF
    }

    private func openInput(_ input: Input) throws(Failure) {
        if let candidate = carriageReturnCandidate { oneLineCarriageReturns += oneLine(candidate) }
        carriageReturnCandidate = nil
        current = input
        atFirstLine = true
        sniffing = true
        utf16 = nil
        switch input {
        case .standardInput:
            fd = STDIN_FILENO
        case .file(let path):
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw Failure(input: input, errno: errno) }
            fd = opened
        }
        var info = stat()
        let known = fstat(fd, &info) == 0
        isRegularFile = known && (info.st_mode & S_IFMT) == S_IFREG
        if known && (info.st_mode & S_IFMT) == S_IFDIR {
            let failure = Failure(input: input, errno: EISDIR)
            if fd != STDIN_FILENO { close(fd) }
            fd = -1
            throw failure
        }
    }

    /// Whether a read from the current pipe or terminal would return at once.
    private func moreDataReady() -> Bool {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }

    /// Checks that each file input exists and is readable, and that none is a
    /// directory (standard input too: `< /tmp`), before any output.
    static func check(_ inputs: [Input]) throws(Failure) {
        for input in inputs {
            var info = stat()
            switch input {
            case .file(let path):
                if access(path, R_OK) != 0 { throw Failure(input: input, errno: errno) }
                if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { throw Failure(input: input, errno: EISDIR) }
            case .standardInput:
                if fstat(STDIN_FILENO, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { throw Failure(input: input, errno: EISDIR) }
            }
        }
    }
}
