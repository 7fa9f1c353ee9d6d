import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `bytes` to the file at `path`, creating or replacing it: the
/// command line's `eval --report` and Bench's `--json` and `--svg`.
///
/// A regular file of this user's (or a new one) is replaced whole: the bytes are
/// written to a hidden file beside it and renamed over it, so a write that
/// fails part way (a full disk, a file-size limit) leaves the earlier file as
/// it was. Anything else (a symbolic link, a device such as `/dev/stdout`, a
/// file with other hard links or another owner, a folder no new file can be
/// made in) is written in place, as `>` would.
///
/// - Returns: nil when written, otherwise the system's reason
///   ("No such file or directory", "Is a directory", …), for a one-line error.
package func writeOutputFile(_ bytes: [UInt8], to path: String) -> String? {
    var info = stat()
    let exists = lstat(path, &info) == 0
    if !exists && errno != ENOENT { return String(cString: strerror(errno)) }
    let replaceable = !exists
        || ((info.st_mode & S_IFMT) == S_IFREG && info.st_nlink == 1 && info.st_uid == geteuid())
    if replaceable {
        switch replaceFile(at: path, with: bytes, mode: exists ? info.st_mode & 0o7777 : nil) {
        case .replaced: return nil
        case .failed(let reason): return reason
        case .noFileBeside: break
        }
    }
    // In place, as `>` would write it.
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return String(cString: strerror(errno)) }
    defer { close(fd) }
    return writeAll(bytes, to: fd)
}

/// Writes all of `bytes` to `fd`; nil when written, otherwise the reason.
private func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
    var written = 0
    while written < bytes.count {
        let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            return String(cString: strerror(errno))
        }
        written += n
    }
    return nil
}

/// How ``replaceFile(at:with:mode:)`` ended.
private enum Replacement {
    /// The file at the path holds the bytes.
    case replaced
    /// Writing or renaming failed, for this reason; the file at the path is as it was.
    case failed(String)
    /// No file could be made beside the path (a folder this user cannot write in).
    case noFileBeside
}

/// `bytes` written to a hidden file beside `path` and renamed over it, with
/// the replaced file's `mode` (or 0644 less the umask for a new file).
private func replaceFile(at path: String, with bytes: [UInt8], mode: mode_t?) -> Replacement {
    let url = URL(fileURLWithPath: path)
    var template = Array((url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return .noFileBeside }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var reason = writeAll(bytes, to: fd)
    if reason == nil {
        let mask = umask(0)
        umask(mask)
        if fchmod(fd, mode ?? (0o644 & ~mask)) != 0 { reason = String(cString: strerror(errno)) }
    }
    if close(fd) != 0, reason == nil { reason = String(cString: strerror(errno)) }
    if reason == nil, rename(temporary, path) != 0 { reason = String(cString: strerror(errno)) }
    guard let reason else { return .replaced }
    unlink(temporary)
    return .failed(reason)
}
