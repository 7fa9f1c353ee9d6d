import Dispatch
import Foundation

/// Runs a training's fits side by side: `width` at a time, started in
/// `schedule` order (the longest first, so the last to start is a short one),
/// each result handed to `finished` as soon as its job is done, so a
/// progress line comes when its fit ends, not after the slowest fit before it.
///
/// Each fit is deterministic on its own (`LogisticObjective` sums its
/// gradient in a fixed number of blocks), so running fits at once changes how
/// long a training takes, never its weights. After a job fails no other job
/// starts; jobs that never started have no result.
final class FitQueue<Value, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Value, Failure>?]
    private var next = 0
    private var failed = false

    private init(count: Int) {
        results = Array(repeating: nil, count: count)
    }

    /// Runs `body` for each job in `0..<count`, `width` at a time, starting
    /// them in `schedule` order (a permutation of the jobs). `finished` hears
    /// each result as its job ends, one call at a time, and none after a job
    /// failed (the failure is not heard; it is in the answer, in job order).
    static func run(count: Int, width: Int, schedule: [Int],
                    body: @Sendable (Int) -> Result<Value, Failure>,
                    finished: (Int, Value) -> Void) -> [Result<Value, Failure>?] {
        precondition(schedule.sorted() == Array(0..<count), "the schedule is a permutation of the jobs")
        let queue = FitQueue(count: count)
        // `finished` (a progress log) is called under the lock, by one worker at a time.
        nonisolated(unsafe) let finished = finished
        DispatchQueue.concurrentPerform(iterations: max(1, min(width, count))) { _ in
            while let job = queue.take(schedule) {
                let result = body(job)
                queue.lock.withLock {
                    queue.results[job] = result
                    switch result {
                    case .success(let value): if !queue.failed { finished(job, value) }
                    case .failure: queue.failed = true
                    }
                }
            }
        }
        return queue.results
    }

    /// The next job to start, if any (none after a failure).
    private func take(_ schedule: [Int]) -> Int? {
        lock.withLock {
            guard !failed, next < schedule.count else { return nil }
            defer { next += 1 }
            return schedule[next]
        }
    }
}
