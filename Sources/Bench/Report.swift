import Foundation

/// The machine a run was measured on.
struct Machine: Codable {
    var cpu: String
    var cores: Int
    var memoryGB: Double
    var kernel: String
    var loadAtStart: Double
    var loadAtEnd: Double?

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Machine(cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount,
                       memoryGB: Double(ProcessInfo.processInfo.physicalMemory) / 1e9,
                       kernel: "Linux \(release)", loadAtStart: loadAverage(), loadAtEnd: nil)
    }
}

/// One goal of issue 4 against what was measured.
struct GoalCheck: Codable {
    var goal: String
    var target: String
    var measured: String
    /// nil when the measurement did not run.
    var met: Bool?
    var note: String?
}

/// Everything a run measured, as written to `--json`.
struct Report: Encodable {
    var date: String
    var command: String
    var build: String
    var blas: String
    var machine: Machine
    var model: [String: String]
    var dump: [String: String]
    var timing: [String: Int]
    var results: [BenchResult]
    /// What each peer script reported (settings, dev metrics, sampling, raw timings).
    var peers: [String: JSONValue]
    var ratios: [String: Double]
    var goals: [GoalCheck]

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        try requireFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path, option: "--json")
        try writeFile(encoder.encode(self) + Data("\n".utf8), to: path, option: "--json")
    }
}

/// The goals of issue 4, checked against the results of this run.
enum Goals {
    /// The goals against `recorder`'s results; `plainTweets` is the plain dump's size, which the goals name.
    static func check(_ recorder: Recorder, plainTweets: Int) -> (goals: [GoalCheck], ratios: [String: Double]) {
        var goals: [GoalCheck] = [], ratios: [String: Double] = [:]
        let one = recorder.result("process/plain-1-core")
        let two = recorder.result("process/plain-2-cores")
        let fastText = recorder.result("peer/fastText-1-core")
        let vader = recorder.result("peer/VADER-1-core")
        let jsonl = recorder.result("process/jsonl-1-core")
        let rss1 = recorder.result("process/plain-2-cores").flatMap(\.peakRSSMB) ?? one?.peakRSSMB
        let rss10 = recorder.result("memory/plain-10x-2-cores")?.peakRSSMB
        let load = recorder.result("load/process-first-result")

        func fmt(_ v: Double?, _ unit: String = "tweets/s") -> String { v.map { "\(Recorder.short($0)) \(unit)" } ?? "not measured" }

        goals.append(GoalCheck(goal: "one core (taskset -c 0), plain dump → JSON Lines", target: "≥ 1,000,000 tweets/s",
                               measured: fmt(one?.perSecond) + (one?.perCPUSecond.map { " (\(Recorder.short($0)) per CPU-second)" } ?? ""),
                               met: one.map { $0.perSecond >= 1e6 },
                               note: one.map { String(format: "%.2f× the goal", $0.perSecond / 1e6) }))
        if let one, let fastText {
            ratios["plain-1-core / fastText-1-core"] = one.perSecond / fastText.perSecond
            if let a = one.perCPUSecond, let b = fastText.perCPUSecond { ratios["plain-1-core / fastText-1-core (per CPU-second)"] = a / b }
        }
        if let one, let vader { ratios["plain-1-core / VADER-1-core"] = one.perSecond / vader.perSecond }
        if let two, let fastText { ratios["plain-2-cores / fastText-1-core"] = two.perSecond / fastText.perSecond }
        if let library = recorder.result("classify/utf8"), let fastText {
            ratios["library classify 1 thread / fastText-1-core"] = library.perSecond / fastText.perSecond
        }
        let ratio = ratios["plain-1-core / fastText-1-core"]
        goals.append(GoalCheck(goal: "one core vs fastText in the same run", target: "≥ 5×",
                               measured: ratio.map { String(format: "%.2f×", $0) } ?? "not measured",
                               met: ratio.map { $0 >= 5 },
                               note: ratios["plain-1-core / fastText-1-core (per CPU-second)"].map { String(format: "%.2f× per CPU-second", $0) }))
        if let one, let two { ratios["plain-2-cores / plain-1-core"] = two.perSecond / one.perSecond }
        let scaling = ratios["plain-2-cores / plain-1-core"]
        goals.append(GoalCheck(goal: "both cores vs one core", target: "≥ 1.8×",
                               measured: scaling.map { String(format: "%.2f× ", $0) + "(\(fmt(two?.perSecond)))" } ?? "not measured",
                               met: scaling.map { $0 >= 1.8 }, note: "the other engineers' load on the cores weighs on this one most"))
        let dumpName = plainTweets == 1_000_000 ? "the 1M dump" : "the \(plainTweets)-tweet dump (the goal's is 1M)"
        goals.append(GoalCheck(goal: "peak RSS classifying \(dumpName)", target: "< 64 MB",
                               measured: rss1.map { String(format: "%.1f MB", $0) } ?? "not measured", met: rss1.map { $0 < 64 }, note: nil))
        if let rss1, let rss10 { ratios["peak RSS 10x / 1x"] = rss10 / rss1 }
        goals.append(GoalCheck(goal: "peak RSS flat as the input grows (10× the dump)", target: "same peak",
                               measured: rss10.map { String(format: "%.1f MB (%.2f× the 1× peak)", $0, $0 / (rss1 ?? .nan)) } ?? "not measured",
                               met: rss10.flatMap { r10 in rss1.map { r10 <= $0 * 1.1 + 1 } }, note: "flat: within 10% (+1 MB)"))
        goals.append(GoalCheck(goal: "v1.1 JSON Lines input, one core", target: "≥ 300 MB/s",
                               measured: jsonl.flatMap(\.megabytesPerSecond).map { String(format: "%.1f MB/s ", $0) + "(\(fmt(jsonl?.perSecond)))" } ?? "not measured",
                               met: jsonl?.megabytesPerSecond.map { $0 >= 300 }, note: nil))
        let loadMS = load.map { $0.timings.median * 1000 }
        goals.append(GoalCheck(goal: "model load: process start to first result", target: "< 50 ms",
                               measured: loadMS.map { String(format: "%.1f ms (min %.1f)", $0, load!.timings.min * 1000) } ?? "not measured",
                               met: loadMS.map { $0 < 50 }, note: nil))
        return (goals, ratios)
    }

    static func print(_ goals: [GoalCheck], ratios: [String: Double]) {
        Swift.print("\nGoals (issue 4):")
        for goal in goals {
            let mark = goal.met.map { $0 ? "met    " : "NOT MET" } ?? "–      "
            Swift.print("  \(mark) \(goal.goal): \(goal.measured) (target \(goal.target))\(goal.note.map { "; \($0)" } ?? "")")
        }
        if !ratios.isEmpty {
            Swift.print("Ratios:")
            for (name, value) in ratios.sorted(by: { $0.key < $1.key }) { Swift.print(String(format: "  %6.2f  ", value) + name) }
        }
    }
}

/// Any JSON value, to carry the peers' reports into `Report` as they were.
enum JSONValue: Encodable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    /// From `JSONSerialization` output.
    init(_ any: Any) {
        switch any {
        case let value as Bool where type(of: any) == type(of: NSNumber(value: true)): self = .bool(value)
        case let value as NSNumber: self = .number(value.doubleValue)
        case let value as String: self = .string(value)
        case let value as [Any]: self = .array(value.map(JSONValue.init))
        case let value as [String: Any]: self = .object(value.mapValues(JSONValue.init))
        default: self = .null
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
