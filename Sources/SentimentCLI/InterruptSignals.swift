import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM, taken so that a command can say what it did
/// before it ends (`classify`'s summary of the records written).
///
/// The handler, which may run on any thread (OpenBLAS and Dispatch start
/// threads of their own), only writes the signal's number to a pipe and puts
/// both signals back to their default action; a thread of its own reads the
/// pipe and runs the command's handler, which ends the process with
/// ``end(by:)``. So a second signal, while that handler waits (for a write
/// into a pipe whose reader has stopped reading), ends the process at once.
enum InterruptSignals {
    /// The signals taken.
    static let signals = [SIGINT, SIGTERM]

    /// The pipe's write end, for the signal handler; -1 before ``watch(_:)``.
    nonisolated(unsafe) private static var wakeFD: Int32 = -1

    /// Takes SIGINT and SIGTERM from now on: `handler` runs, on a thread of
    /// its own, with the first one's number, and must end the process
    /// (``end(by:)``) or leave that to a thread that will. A signal ignored when the process started (`nohup`, a
    /// shell's background job) stays ignored, as a program is expected to leave it.
    static func watch(_ handler: @escaping @Sendable (Int32) -> Void) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        wakeFD = ends[1]
        let readFD = ends[0]
        Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readFD, &byte, 1)
                if count == 1 { break }
                if count < 0, errno == EINTR { continue }
                return
            }
            handler(Int32(byte))
        }.start()

        for number in signals {
            var current = sigaction()
            sigaction(number, nil, &current)
            if isIgnored(current) { continue }
            var action = sigaction()
            setHandler(&action) { number in
                // Async-signal-safe calls only: signal(2) and write(2).
                _ = signal(SIGINT, SIG_DFL)
                _ = signal(SIGTERM, SIG_DFL)
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(InterruptSignals.wakeFD, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            for taken in signals { sigaddset(&action.sa_mask, taken) }
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Ends the process by `signal`, at its default action, as if it had not
    /// been taken: a shell that runs the command then sees it killed by the
    /// signal (`$?` 130 for SIGINT, 143 for SIGTERM) and stops a loop or a
    /// script too, where an exit status of 130 would let it go on.
    static func end(by number: Int32) -> Never {
        _ = signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        _exit(128 + number)
    }

    #if canImport(Glibc)
    private static func isIgnored(_ action: sigaction) -> Bool {
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func setHandler(_ action: inout sigaction, _ handler: @convention(c) (Int32) -> Void) {
        action.__sigaction_handler.sa_handler = handler
    }
    #else
    private static func isIgnored(_ action: sigaction) -> Bool {
        unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func setHandler(_ action: inout sigaction, _ handler: @convention(c) (Int32) -> Void) {
        action.__sigaction_u.__sa_handler = handler
    }
    #endif
}
