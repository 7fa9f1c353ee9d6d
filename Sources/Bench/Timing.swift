#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// CPU seconds used by this process so far (every thread, user + system).
func processCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The 1-minute load average of the machine (other engineers share its cores).
func loadAverage() -> Double {
    var loads = [Double](repeating: 0, count: 3)
    return getloadavg(&loads, 3) > 0 ? loads[0] : -1
}

/// Keeps a value alive so the optimizer cannot drop the work that made it.
/// `@_optimize(none)` also stops function-signature optimization, which would
/// otherwise see the argument is unused and delete the loop computing it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Repeated timings of one piece of work: the median and the spread.
struct Timings: Codable, Sendable {
    /// Every timed run, in seconds, in the order they ran (warm-ups excluded).
    var seconds: [Double]
    /// CPU seconds (user + system) of each run, when known: steadier than wall
    /// time on a shared machine, where other work takes turns on the cores.
    var cpuSeconds: [Double]?

    init(seconds: [Double], cpuSeconds: [Double]? = nil) {
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
    }

    var median: Double { Self.median(seconds) }
    var cpuMedian: Double? { cpuSeconds.map(Self.median) }

    static func median(_ seconds: [Double]) -> Double {
        let sorted = seconds.sorted()
        let n = sorted.count
        guard n > 0 else { return .nan }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
    var min: Double { seconds.min() ?? .nan }
    var max: Double { seconds.max() ?? .nan }
}

/// How many times to run each piece of work.
struct TimingPlan: Sendable {
    /// Untimed runs first (caches, page faults, lazy initialization, CPU frequency).
    var warmups = 1
    /// Timed runs.
    var repeats = 5

    /// Runs `body` `warmups + repeats` times and returns the timed runs.
    func measure(_ body: () throws -> Void) rethrows -> Timings {
        for _ in 0..<warmups { try body() }
        var seconds: [Double] = [], cpu: [Double] = []
        for _ in 0..<repeats {
            let start = monotonicSeconds(), cpuStart = processCPUSeconds()
            try body()
            seconds.append(monotonicSeconds() - start)
            cpu.append(processCPUSeconds() - cpuStart)
        }
        return Timings(seconds: seconds, cpuSeconds: cpu)
    }
}
