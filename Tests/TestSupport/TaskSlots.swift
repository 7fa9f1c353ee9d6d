/// A counting semaphore for tasks: `acquire` waits, without holding a
/// thread, until one of `limit` slots is free.
///
/// Tests that hold many file descriptors each (a child process's files, a
/// server's sockets and database) take a slot, so that the test process never
/// holds more than a few hundred at once: Foundation's `Process.run()` in
/// Swift 6.3 reads past the end of its `/proc/self/fd` listing when the
/// process has about 1,360 descriptors or more open, and the suite crashed
/// with SIGSEGV in it at 1,357 (swift-corelibs-foundation pull request 5472).
public actor TaskSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Slots for `limit` holders at once.
    public init(limit: Int) {
        free = limit
    }

    /// Takes a slot, waiting for one when all are taken.
    public func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a slot back, to the longest waiter if there is one.
    public func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

extension TaskSlots {
    /// Runs `body` holding a slot, given back however `body` ends.
    public nonisolated func holding<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }
}
