import Foundation

/// A hand-written SVG bar chart of the run: throughput (tweets/s, log scale)
/// by stage, end to end by thread count, and the peers, with the spread of the
/// repeated runs as whiskers, per-CPU-second throughput as a hollow mark, and
/// the one-core goal as a dashed line.
enum Chart {
    struct Row {
        var label: String
        var result: BenchResult
        var color: String
    }

    static let sections: [(title: String, rows: [(name: String, label: String, color: String)])] = [
        ("Stages, in process (one thread unless said)", [
            ("tokenizer/all", "tokenizer (all tweets)", "#4C78A8"),
            ("tokenizer/ascii", "tokenizer (ASCII tweets)", "#4C78A8"),
            ("tokenizer/non-ascii", "tokenizer (non-ASCII tweets)", "#4C78A8"),
            ("scoring/sparse-gather", "sparse gather (replica kernel)", "#72B7B2"),
            ("scoring/reference", "reference scorer (replica kernel)", "#72B7B2"),
            ("features+scoring (derived)", "features + scoring (derived)", "#72B7B2"),
            ("classify/utf8", "library classify(utf8:), 1 thread", "#2F5F8A"),
            ("classify/utf8-2-threads", "library classify(utf8:), 2 threads", "#1B3A57"),
            ("classify/utf8-2-threads-shared", "library classify(utf8:), 2 threads, one token table", "#1B3A57"),
        ]),
        ("End to end: sentiment classify, stdin → JSON Lines", [
            ("process/plain-1-core", "plain text, 1 core", "#54A24B"),
            ("process/plain-2-cores", "plain text, 2 cores", "#2E6B28"),
            ("process/jsonl-1-core", "v1.1 JSON Lines, 1 core", "#54A24B"),
            ("process/jsonl-2-cores", "v1.1 JSON Lines, 2 cores", "#2E6B28"),
        ]),
        ("Peers, same dump, same run (one core)", [
            ("peer/fastText-1-core", "fastText 0.9.2 predict (batch)", "#E45756"),
            ("peer/VADER-1-core", "VADER polarity_scores", "#F58518"),
        ]),
    ]

    /// The chart of `recorder`'s results; `plainTweets` is the plain dump's
    /// size, so that a peer timed on fewer of its tweets (VADER on a large
    /// dump, tweets/s extrapolated) is labelled a sample, and one timed on all
    /// of them is not.
    static func svg(_ recorder: Recorder, plainTweets: Int, title: String, subtitle: String) -> String {
        var lines: [(section: String?, row: Row?)] = []
        for section in sections {
            let rows = section.rows.compactMap { spec in
                recorder.result(spec.name).map { result in
                    let sample = result.group == "peer" && result.items < plainTweets ? " (sample of \(result.items) tweets)" : ""
                    return Row(label: spec.label + sample, result: result, color: spec.color)
                }
            }
            guard !rows.isEmpty else { continue }
            lines.append((section.title, nil))
            lines += rows.map { (nil, $0) }
        }
        let values = lines.compactMap(\.row).flatMap { [$0.result.perSecondMin, $0.result.perSecondMax, $0.result.perCPUSecond ?? $0.result.perSecond] } + [1e6]
        let low = pow(10, floor(log10(max(1, values.filter { $0 > 0 }.min() ?? 1e3))))
        let high = pow(10, ceil(log10(values.max() ?? 1e7)))

        let width = 960.0, left = 290.0, right = 70.0, top = 78.0, rowHeight = 24.0
        let plotWidth = width - left - right
        let height = top + Double(lines.count) * rowHeight + 70
        func x(_ value: Double) -> Double { left + plotWidth * (log10(max(value, low)) - log10(low)) / (log10(high) - log10(low)) }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <style>.value { paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }</style>
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="16" y="26" font-size="16" font-weight="bold">\(escape(title))</text>
            <text x="16" y="46" fill="#555">\(escape(subtitle))</text>

            """
        // Decade grid.
        var decade = low
        while decade <= high * 1.0001 {
            svg += "<line x1=\"\(f(x(decade)))\" y1=\"\(f(top - 8))\" x2=\"\(f(x(decade)))\" y2=\"\(f(height - 52))\" stroke=\"#ddd\"/>\n"
            svg += "<text x=\"\(f(x(decade)))\" y=\"\(f(height - 38))\" text-anchor=\"middle\" fill=\"#555\">\(Recorder.short(decade))</text>\n"
            decade *= 10
        }
        svg += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 18))\" text-anchor=\"middle\" fill=\"#333\">tweets per second (log scale; bar: median wall clock, whisker: slowest–fastest run, ◇: per CPU-second)</text>\n"

        var y = top
        for line in lines {
            if let section = line.section {
                svg += "<text x=\"16\" y=\"\(f(y + 16))\" font-weight=\"bold\" fill=\"#333\">\(escape(section))</text>\n"
            } else if let row = line.row {
                let r = row.result
                let mid = y + rowHeight / 2
                svg += "<text x=\"\(f(left - 8))\" y=\"\(f(mid + 4))\" text-anchor=\"end\">\(escape(row.label))</text>\n"
                svg += "<rect x=\"\(f(left))\" y=\"\(f(y + 4))\" width=\"\(f(max(1, x(r.perSecond) - left)))\" height=\"\(f(rowHeight - 8))\" fill=\"\(row.color)\"/>\n"
                svg += "<line x1=\"\(f(x(r.perSecondMin)))\" y1=\"\(f(mid))\" x2=\"\(f(x(r.perSecondMax)))\" y2=\"\(f(mid))\" stroke=\"#111\" stroke-width=\"1.5\"/>\n"
                if let cpu = r.perCPUSecond, r.group != "classify" || r.threads == 1 {
                    let cx = x(cpu)
                    svg += "<path d=\"M\(f(cx)) \(f(mid - 6)) L\(f(cx + 6)) \(f(mid)) L\(f(cx)) \(f(mid + 6)) L\(f(cx - 6)) \(f(mid)) Z\" fill=\"none\" stroke=\"#111\"/>\n"
                }
                let label = Recorder.short(r.perSecond) + (r.megabytesPerSecond.map { String(format: " · %.0f MB/s", $0) } ?? "")
                    + (r.peakRSSMB.map { String(format: " · %.0f MB RSS", $0) } ?? "")
                svg += "<text class=\"value\" x=\"\(f(max(x(r.perSecond), x(r.perSecondMax), x(r.perCPUSecond ?? 0)) + 8))\" y=\"\(f(mid + 4))\" fill=\"#333\">\(escape(label))</text>\n"
            }
            y += rowHeight
        }
        // 5× fastText as measured in this run, the other one-core goal.
        if let fastText = recorder.result("peer/fastText-1-core") {
            let five = x(5 * fastText.perSecond)
            svg += "<line x1=\"\(f(five))\" y1=\"\(f(top - 8))\" x2=\"\(f(five))\" y2=\"\(f(height - 52))\" stroke=\"#E45756\" stroke-width=\"1\" stroke-dasharray=\"2 3\"/>\n"
            svg += "<text class=\"value\" x=\"\(f(five - 4))\" y=\"\(f(top - 12))\" text-anchor=\"end\" fill=\"#E45756\">goal: 5× fastText</text>\n"
        }
        // The one-core goal.
        let goal = x(1e6)
        svg += "<line x1=\"\(f(goal))\" y1=\"\(f(top - 8))\" x2=\"\(f(goal))\" y2=\"\(f(height - 52))\" stroke=\"#C00\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
        svg += "<text class=\"value\" x=\"\(f(goal + 4))\" y=\"\(f(top - 12))\" fill=\"#C00\">goal: 1M tweets/s on one core</text>\n"
        svg += "</svg>\n"
        return svg
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
