import Foundation
import Synchronization
import Testing
@testable import Sentiment

@Suite("Fits side by side")
struct FitQueueTests {
    struct Failed: Error, Equatable {
        var job: Int
    }

    @Test("Each result is heard when its job ends, not after the jobs before it end")
    func resultsComeAsJobsEnd() {
        // One at a time, job 1 first: it ends before job 0 starts, so its result
        // (a fit's progress line) is heard first.
        var heard: [Int] = []
        let results = FitQueue<Int, Failed>.run(count: 3, width: 1, schedule: [1, 2, 0], body: { job in
            .success(10 * job)
        }, finished: { job, value in
            heard.append(job)
            #expect(value == 10 * job)
        })
        #expect(heard == [1, 2, 0])
        #expect(results.map { try? $0?.get() } == [0, 10, 20])
    }

    @Test("Jobs start in schedule order, and each runs once")
    func jobsStartInScheduleOrder() {
        let started = Mutex<[Int]>([])
        let results = FitQueue<Int, Failed>.run(count: 4, width: 1, schedule: [3, 1, 0, 2], body: { job in
            started.withLock { $0.append(job) }
            return .success(job)
        }, finished: { _, _ in })
        #expect(started.withLock { $0 } == [3, 1, 0, 2])
        #expect(results.map { try? $0?.get() } == [0, 1, 2, 3])
    }

    @Test("After a failure no other job starts, and nothing from the failed job on is heard")
    func failureStopsTheQueue() {
        var heard: [Int] = []
        let results = FitQueue<Int, Failed>.run(count: 4, width: 1, schedule: [0, 1, 2, 3], body: { job in
            job == 1 ? .failure(Failed(job: 1)) : .success(job)
        }, finished: { job, _ in heard.append(job) })
        #expect(heard == [0])
        #expect(results[0].map { try? $0.get() } == 0)
        if case .failure(let error)? = results[1] { #expect(error == Failed(job: 1)) } else { Issue.record("job 1 did not fail") }
        #expect(results[2] == nil && results[3] == nil)
    }

    @Test("Fits run one a thread, no more than there are fits or than half the memory holds")
    func fitsAtOnceIsBounded() {
        let parameters = 3 * (1 << 20) + 75
        let oneFit = UInt64(parameters) * UInt64(8 * 32 + 12) + UInt64(10_000_000) * 4
        let plenty: UInt64 = 1 << 40
        #expect(Trainer.fitsAtOnce(threads: 8, fits: 10, parameters: parameters, nonzeros: 10_000_000, memory: plenty) == 8)
        #expect(Trainer.fitsAtOnce(threads: 16, fits: 10, parameters: parameters, nonzeros: 10_000_000, memory: plenty) == 10)
        #expect(Trainer.fitsAtOnce(threads: 8, fits: 10, parameters: parameters, nonzeros: 10_000_000, memory: 2 * 3 * oneFit) == 3)
        #expect(Trainer.fitsAtOnce(threads: 8, fits: 10, parameters: parameters, nonzeros: 10_000_000, memory: oneFit) == 1)
        #expect(Trainer.fitsAtOnce(threads: 1, fits: 10, parameters: parameters, nonzeros: 10_000_000, memory: plenty) == 1)
    }
}
