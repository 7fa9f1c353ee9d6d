import TestSupport
import Testing

@Suite("Task slots")
struct TaskSlotsTests {
    /// Counts holders, remembering the most at once.
    actor Holders {
        private(set) var now = 0
        private(set) var most = 0
        func enter() { now += 1; most = max(most, now) }
        func leave() { now -= 1 }
    }

    @Test("At most the limit of tasks hold a slot at once, and every task gets one")
    func slotsBoundTheTasks() async {
        let slots = TaskSlots(limit: 3)
        let holders = Holders()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    await slots.acquire()
                    await holders.enter()
                    try? await Task.sleep(for: .milliseconds(20))
                    await holders.leave()
                    await slots.release()
                }
            }
        }
        #expect(await holders.most == 3)
        #expect(await holders.now == 0)
    }
}
