import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (SIGINT) and SIGTERM end Bench cleanly: the child process running
/// is ended with its whole process group (`/usr/bin/time` and the
/// `sentiment classify` it forked), the temporary files made so far are
/// removed (a `.partial` dump, the 10× dump, a run's log, the peers' logs
/// and outputs), and Bench exits
/// 128 + the signal's number (130, 143).
///
/// The two signals are blocked in every thread Bench starts and taken by one
/// thread of their own with `sigwait`; children are spawned with them
/// unblocked and at their default action, each in a process group of its own.
enum Interruption {
    /// The children running and the temporary files, under `lock`.
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var children: Set<pid_t> = []
        var files: Set<String> = []
    }

    private static let state = State()

    /// The signals handled.
    static var signals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }

    /// Blocks SIGINT and SIGTERM and starts the thread that waits for them.
    ///
    /// Threads started before this still take them: OpenBLAS starts its
    /// server threads as it loads, before `main`, and they live until the
    /// model is loaded; at the default action, a Ctrl-C taken by one of them
    /// ended Bench at once. The handler, which runs only on a thread that has
    /// not blocked them, blocks them in it for good (in the mask its return
    /// restores) and sends the signal again, for the waiting thread.
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signal, _, context in
            if let mask = context?.assumingMemoryBound(to: ucontext_t.self).pointer(to: \.uc_sigmask) {
                sigaddset(mask, SIGINT)
                sigaddset(mask, SIGTERM)
            }
            kill(getpid(), signal)
        }
        action.sa_mask = signals
        action.sa_flags = SA_SIGINFO | SA_RESTART
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        var blocked = signals
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        Thread {
            var waited = signals
            var signal: Int32 = 0
            while sigwait(&waited, &signal) != 0 {}
            end(signal)
        }.start()
    }

    /// Runs `spawn` (which starts a child and returns its id) so that a
    /// signal either comes before it, and it never runs, or after, and ends its child.
    static func spawning(_ spawn: () throws -> pid_t) rethrows -> pid_t {
        try state.lock.withLock {
            let pid = try spawn()
            state.children.insert(pid)
            return pid
        }
    }

    /// `pid` was waited for: a signal no longer ends it.
    static func ended(_ pid: pid_t) {
        _ = state.lock.withLock { state.children.remove(pid) }
    }

    /// Runs `body`, which may make the file `path`, and removes it after,
    /// or on a signal while `body` runs.
    static func removing<T>(_ path: String, _ body: () throws -> T) rethrows -> T {
        track(path)
        defer { remove(path) }
        return try body()
    }

    /// The file `path`, which outlives one call (a peer's log, written by
    /// several steps), is to be removed on a signal until ``remove(_:)``.
    static func track(_ path: String) {
        _ = state.lock.withLock { state.files.insert(path) }
    }

    /// Removes the file `path` and stops tracking it.
    static func remove(_ path: String) {
        unlink(path)
        _ = state.lock.withLock { state.files.remove(path) }
    }

    /// Ends the children, removes the files, and exits; the lock is kept, so
    /// no child starts after this.
    private static func end(_ signal: Int32) -> Never {
        state.lock.withLock {
            for child in state.children { kill(-child, SIGTERM) }
            for path in state.files { unlink(path) }
            writeToStandardError("\nBench: stopped by \(signal == SIGINT ? "SIGINT" : "SIGTERM")\n")
            _exit(128 + signal)
        }
    }
}
