import Foundation

/// Why the file at `path` cannot be written, or nil when it can, checked the
/// way `writeOutputFile` will write it but without emptying it: a file this
/// makes is removed again. Called before the work whose result goes there, so
/// a missing folder or a directory is reported before, not after, the work.
/// A named pipe is only checked for permission: opening it would wait for a
/// reader, and closing it again would end that reader's input.
func outputFileProblem(_ path: String) -> String? {
    var info = stat()
    if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO {
        return access(path, W_OK) == 0 ? nil : String(cString: strerror(errno))
    }
    let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    if created >= 0 {
        close(created)
        unlink(path)
        return nil
    }
    guard errno == EEXIST else { return String(cString: strerror(errno)) }
    let existing = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard existing >= 0 else { return String(cString: strerror(errno)) }
    close(existing)
    return nil
}

/// Whether `a` and `b` name the same existing file (the same device and
/// inode: a link or another spelling of the path counts).
func isSameFile(_ a: String, _ b: String) -> Bool {
    var first = stat()
    var second = stat()
    guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino
}

/// The first of `inputs` that is the regular file standard output writes to
/// (`classify s.txt >> s.txt`, `classify < s.txt >> s.txt`): reading it would
/// read the records back as tweets, without end. Nil when there is none; a
/// terminal or a pipe on both sides is not a file, and is fine.
func inputThatIsStandardOutput(_ inputs: [LineReader.Input]) -> LineReader.Input? {
    var output = stat()
    guard fstat(STDOUT_FILENO, &output) == 0, (output.st_mode & S_IFMT) == S_IFREG else { return nil }
    return inputs.first { input in
        var info = stat()
        let found = switch input {
        case .standardInput: fstat(STDIN_FILENO, &info) == 0
        case .file(let path): stat(path, &info) == 0
        }
        return found && info.st_dev == output.st_dev && info.st_ino == output.st_ino
    }
}
