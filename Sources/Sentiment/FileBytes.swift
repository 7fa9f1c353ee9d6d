import Foundation

#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// The whole of a file, read with `open(2)` and `read(2)`, so that a failure
/// says the system's reason ("Is a directory", "Permission denied",
/// "Input/output error" part way) where Foundation says only "The operation
/// could not be completed".
///
/// ```swift
/// do {
///     let data = try FileBytes.read("/data/train.tsv")
/// } catch {
///     print("cannot read /data/train.tsv: \(error.reason)")   // "… Is a directory"
/// }
/// ```
public enum FileBytes {
    /// Why a file could not be read.
    public struct ReadError: Error, Sendable, Hashable {
        /// The `errno` of the call that failed.
        public var code: Int32
        /// The system's text for it: "No such file or directory", "Is a directory".
        public var reason: String { String(cString: strerror(code)) }
    }

    /// Reads all of `path`: a regular file, a pipe or a FIFO (read to its
    /// end, as `<(…)` gives one), retrying interrupted reads.
    ///
    /// - Throws: `ReadError` with the `errno` of the open or read that
    ///   failed: a missing file, a folder (EISDIR), a file that cannot be read.
    public static func read(_ path: String) throws(ReadError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(code: errno) }
        defer { close(descriptor) }
        return try read(descriptor: descriptor)
    }

    /// Reads `descriptor` to its end, or until more than `limit` bytes have
    /// come (the data returned is then longer than `limit`, and the rest is
    /// left unread, so a caller with a size limit is never fed without end by
    /// `/dev/zero`). Interrupted reads are retried, and a non-blocking
    /// descriptor (EAGAIN: a parent process may leave a pipe so) is waited on.
    ///
    /// - Throws: `ReadError` with the `errno` of the read that failed.
    public static func read(descriptor: Int32, atMost limit: Int = .max) throws(ReadError) -> Data {
        var info = stat()
        var data = Data()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 {
            data.reserveCapacity(min(Int(info.st_size), limit))
        }
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = block.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count > 0 {
                data.append(contentsOf: block[..<count])
                if data.count > limit { return data }
                continue
            }
            var error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK {
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                // POLLHUP (the writer went away) comes back too: the next read gives the end.
                if poll(&ready, 1, -1) >= 0 { continue }
                error = errno
                if error == EINTR { continue }
            }
            throw ReadError(code: error)
        }
    }
}
