import Foundation
import Sentiment

/// One measurement: a stage, a process run or a peer, with its timings.
struct BenchResult: Codable {
    /// "tokenizer/ascii", "process/plain-1-core", "peer/fastText" …
    var name: String
    /// "tokenizer", "features", "scoring", "classify", "classify-batch", "process", "memory", "load", "peer".
    var group: String
    var threads: Int
    /// Items per timed run.
    var items: Int
    /// "tweets" or "rows".
    var unit: String
    /// Input bytes per timed run, when it reads text.
    var bytes: Int?
    var timings: Timings
    /// items / median seconds, and the spread (items / slowest, items / fastest).
    var perSecond: Double
    var perSecondMin: Double
    var perSecondMax: Double
    /// items / median CPU seconds (user + system), when known.
    var perCPUSecond: Double?
    /// bytes / median seconds / 10^6.
    var megabytesPerSecond: Double?
    /// Peak resident set of the child process, MB (10^6 bytes).
    var peakRSSMB: Double?
    /// 1-minute load average before and after (the machine is shared).
    var loadBefore: Double
    var loadAfter: Double
    var note: String?
}

/// Collects results, applies the name filters, prints each line as it comes.
final class Recorder {
    let filters: [String]
    let skips: [String]
    private(set) var results: [BenchResult] = []
    /// The `--filter` substrings some benchmark's name contained.
    private(set) var matchedFilters: Set<String> = []
    private var loadAtStart = loadAverage()
    /// Whether the header printed last is the one of latencies (`isLatency`).
    private var showingLatencies = false

    init(filters: [String], skips: [String]) {
        self.filters = filters.map { $0.lowercased() }
        self.skips = skips.map { $0.lowercased() }
        print(Self.header(latencies: false))
    }

    /// The table's header: of throughputs (items per second, per CPU-second),
    /// or of latencies (milliseconds each, wall clock and CPU), which `add`
    /// prints again whenever the rows change from one kind to the other.
    static func header(latencies: Bool) -> String {
        latencies ? columns(["benchmark", "median", "spread (min–max)", "CPU median", "", "RSS MB", "load"])
            : columns(["benchmark", "per second", "spread (min–max)", "per CPU-s", "MB/s", "RSS MB", "load"])
    }

    /// Whether `r` is timed per item (a model load, a process start) rather than counted per second.
    static func isLatency(_ r: BenchResult) -> Bool { r.unit != "tweets" && r.unit != "rows" }

    /// Whether a benchmark of this name runs (`--filter` substrings; `--skip` substrings).
    func wants(_ name: String) -> Bool {
        let selected = Self.selects(name, filters: filters, skips: skips)
        if selected { matchedFilters.formUnion(filters.filter { name.lowercased().contains($0) }) }
        return selected
    }

    /// Whether `--filter` `filters` and `--skip` `skips` (substrings, any case) let a benchmark of this name run.
    static func selects(_ name: String, filters: [String], skips: [String]) -> Bool {
        let name = name.lowercased()
        if skips.contains(where: { name.contains($0.lowercased()) }) { return false }
        return filters.isEmpty || filters.contains { name.contains($0.lowercased()) }
    }

    /// The `--filter` substrings no benchmark's name contained, in the order given.
    var unmatchedFilters: [String] { filters.filter { !matchedFilters.contains($0) } }

    func result(_ name: String) -> BenchResult? { results.last { $0.name == name } }

    /// Marks the start of a measurement (for its load-before figure).
    func begin() { loadAtStart = loadAverage() }

    func record(_ name: String, group: String, threads: Int = 1, items: Int, unit: String = "tweets", bytes: Int? = nil,
                timings: Timings, peakRSS: Int? = nil, note: String? = nil) {
        let result = BenchResult(
            name: name, group: group, threads: threads, items: items, unit: unit, bytes: bytes, timings: timings,
            perSecond: Double(items) / timings.median, perSecondMin: Double(items) / timings.max,
            perSecondMax: Double(items) / timings.min,
            perCPUSecond: timings.cpuMedian.map { Double(items) / $0 },
            megabytesPerSecond: bytes.map { Double($0) / timings.median / 1e6 },
            peakRSSMB: peakRSS.map { Double($0) / 1e6 },
            loadBefore: loadAtStart, loadAfter: loadAverage(), note: note)
        add(result)
    }

    /// A figure computed from other results (no timings of its own).
    func recordDerived(_ name: String, group: String, items: Int, secondsPerItem: Double, note: String) {
        let timings = Timings(seconds: [secondsPerItem * Double(items)])
        record(name, group: group, items: items, timings: timings, note: note)
    }

    /// A result measured elsewhere (a peer's JSON).
    func add(_ result: BenchResult) {
        results.append(result)
        if Self.isLatency(result) != showingLatencies {
            showingLatencies.toggle()
            print(Self.header(latencies: showingLatencies))
        }
        print(Self.line(result))
        fflush(nil)
        loadAtStart = loadAverage()
    }

    static func line(_ r: BenchResult) -> String {
        let spread = "\(Self.short(r.perSecondMin))–\(Self.short(r.perSecondMax))"
        if isLatency(r) {
            // Latencies (model loads, process starts): milliseconds per item, wall clock and CPU.
            let ms = { (seconds: Double) in String(format: "%.1f ms", 1000 * seconds / Double(r.items)) }
            return columns([r.name, ms(r.timings.median), "\(ms(r.timings.min))–\(ms(r.timings.max))",
                            r.timings.cpuMedian.map(ms) ?? "", "",
                            r.peakRSSMB.map { String(format: "%.1f", $0) } ?? "",
                            String(format: "%.1f→%.1f", r.loadBefore, r.loadAfter)])
        }
        return columns([r.name, "\(Self.short(r.perSecond)) \(r.unit == "rows" ? "rows" : "tw")", spread,
                        r.perCPUSecond.map(Self.short) ?? "",
                        r.megabytesPerSecond.map { String(format: "%.1f", $0) } ?? "",
                        r.peakRSSMB.map { String(format: "%.1f", $0) } ?? "",
                        String(format: "%.1f→%.1f", r.loadBefore, r.loadAfter)])
    }

    /// The first column left-aligned, the others right-aligned.
    static func columns(_ cells: [String]) -> String {
        let widths = [34, 14, 20, 10, 9, 8, 11]
        return zip(cells, widths).enumerated().map { i, pair in
            let (cell, width) = pair
            let padding = String(repeating: " ", count: max(0, width - cell.count))
            return i == 0 ? cell + padding : padding + cell
        }.joined(separator: " ")
    }

    /// 1234567 → "1.23M".
    static func short(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        if value >= 1e9 { return String(format: "%.2fG", value / 1e9) }
        if value >= 1e6 { return String(format: "%.2fM", value / 1e6) }
        if value >= 1e3 { return String(format: "%.1fk", value / 1e3) }
        return String(format: "%.0f", value)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Fails unless `path` can be written: its folder is made if missing, and the
/// file is opened for writing (and removed again if this made it), so that a
/// run of many minutes does not end in an unwritable `--json` or `--svg`.
func requireWritable(_ path: String, option: String) throws {
    let url = URL(fileURLWithPath: path)
    do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
        throw BenchError("\(option) \(path): cannot make its folder: \((error as NSError).localizedFailureReason ?? "\(error)")")
    }
    let existed = FileManager.default.fileExists(atPath: path)
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    guard descriptor >= 0 else {
        throw BenchError("\(option) \(path): cannot write it: \(String(cString: strerror(errno)))")
    }
    close(descriptor)
    if !existed { unlink(path) }
}

/// Makes the folder `path` and the missing ones above it (`mkdir -p`).
///
/// - Throws: `BenchError` "OPTION PATH: cannot make the folder: REASON", the
///   system's reason ("Not a directory" for a file in the way).
func requireFolder(_ path: String, option: String) throws {
    func make(_ path: String) -> Int32? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return isDirectory.boolValue ? nil : ENOTDIR }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, let failure = make(parent) { return failure }
        return mkdir(path, 0o777) == 0 || errno == EEXIST ? nil : errno
    }
    if let failure = make(path) {
        throw BenchError("\(option) \(path): cannot make the folder: \(String(cString: strerror(failure)))")
    }
}

/// Fails unless the folder of Bench's own temporary files (`$TMPDIR`, else
/// /tmp) can take a file: the process rows' logs and `/usr/bin/time` reports
/// go there. A missing one stopped the first process row with "cannot run
/// /usr/bin/time: No such file or directory", blaming the tool.
///
/// - Throws: `BenchError` "TMPDIR PATH: cannot make Bench's temporary files
///   there …: REASON", or "the temporary folder /tmp: …" when TMPDIR is not set.
func requireTemporaryFolder() throws {
    let folder = FileManager.default.temporaryDirectory.path
    var template = Array((folder + "/.bench-check-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
        let reason = String(cString: strerror(errno))
        let named = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "").isEmpty ? "the temporary folder \(folder)" : "TMPDIR \(folder)"
        throw BenchError("\(named): cannot make Bench's temporary files there (the process runs' logs and time reports): \(reason)")
    }
    close(descriptor)
    unlink(String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
}

/// Writes `data` to `path`, replacing an earlier file whole (`writeOutputFile`):
/// a write that fails part way leaves the last run's results as they were.
///
/// - Throws: `BenchError` "OPTION PATH: cannot write it: REASON", the system's reason.
func writeFile(_ data: Data, to path: String, option: String) throws {
    if let reason = writeOutputFile(Array(data), to: path) {
        throw BenchError("\(option) \(path): cannot write it: \(reason)")
    }
}

/// Fails unless `path` is a file that can be read, saying why: "PATH: no such
/// file", "PATH: a directory, not a file" or "PATH: cannot read it".
func requireReadable(_ path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw BenchError("\(path): no such file") }
    guard !isDirectory.boolValue else { throw BenchError("\(path): a directory, not a file") }
    guard FileManager.default.isReadableFile(atPath: path) else { throw BenchError("\(path): cannot read it") }
}

/// The program `path` names, checked before any work: a path with a `/`
/// must be an executable file; a bare name is looked up in `PATH`.
///
/// - Throws: `BenchError` "OPTION PATH: no such file", "…: a directory, not
///   a program", "…: not executable (chmod +x it)".
@discardableResult
func requireExecutable(_ path: String, option: String) throws -> String {
    guard path.contains("/") else {
        guard let found = programInPath(path) else { throw BenchError("\(option) \(path): no such program in PATH") }
        return found
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw BenchError("\(option) \(path): no such file") }
    guard !isDirectory.boolValue else { throw BenchError("\(option) \(path): a directory, not a program") }
    guard FileManager.default.isExecutableFile(atPath: path) else { throw BenchError("\(option) \(path): not executable (chmod +x it)") }
    return path
}

/// The first executable file `name` in a folder of `PATH`, as `posix_spawnp` would run it; nil if none.
func programInPath(_ name: String) -> String? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return folders.map { "\($0)/\(name)" }.first { path in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: path)
    }
}

func writeToStandardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
