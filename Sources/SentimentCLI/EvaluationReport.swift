import Foundation
import Sentiment

/// The ways `sentiment eval` shows an `Evaluation`: a text table, JSON, and a
/// self-contained HTML page.
enum EvaluationReport {
    static func text(_ e: Evaluation, model: SentimentModel, file: String) -> String {
        var out = "model \(model.id)\ndata  \(file) (\(e.count) tweets)\n\n"
        out += String(format: "macro-recall  %.4f\naccuracy      %.4f\nmacro-F1      %.4f\nECE           %.4f\n\n",
                      e.macroRecall, e.accuracy, e.macroF1, e.expectedCalibrationError)
        out += "class      precision  recall     F1  support\n"
        for label in SentimentLabel.allCases {
            let support = e.confusion[label.index].reduce(0, +)
            out += label.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
                + String(format: "  %9.4f  %6.4f  %6.4f  %7d\n", e.precision(label), e.recall(label), e.f1(label), support)
        }
        out += "\nconfusion (rows gold, columns predicted)\n           negative   neutral  positive\n"
        for gold in SentimentLabel.allCases {
            out += gold.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
                + e.confusion[gold.index].map { String(format: "%10d", $0) }.joined() + "\n"
        }
        out += "\nreliability (top probability)\n  bin          n  confidence  accuracy\n"
        for bin in e.reliability.bins where bin.count > 0 {
            out += String(format: "  %.2f-%.2f %6d      %.4f    %.4f\n", bin.lower, bin.upper, bin.count, bin.confidence, bin.accuracy)
        }
        return out
    }

    static func json(_ e: Evaluation, model: SentimentModel, file: String) -> String {
        var object: [String: Any] = [
            "model": model.id, "file": file, "count": e.count,
            "macro_recall": e.macroRecall, "accuracy": e.accuracy, "macro_f1": e.macroF1,
            "expected_calibration_error": e.expectedCalibrationError,
            "confusion": e.confusion,
        ]
        object["classes"] = Dictionary(uniqueKeysWithValues: SentimentLabel.allCases.map {
            ($0.rawValue, ["precision": e.precision($0), "recall": e.recall($0), "f1": e.f1($0),
                           "support": e.confusion[$0.index].reduce(0, +)] as [String: Any])
        })
        object["reliability"] = e.reliability.bins.map {
            ["lower": $0.lower, "upper": $0.upper, "count": $0.count, "confidence": $0.confidence, "accuracy": $0.accuracy] as [String: Any]
        }
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A page with no external resources: metrics, a confusion-matrix heatmap
    /// and a reliability diagram as inline SVG.
    static func html(_ e: Evaluation, model: SentimentModel, file: String) -> String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        let labels = SentimentLabel.allCases
        // Confusion heatmap: each cell shaded by its share of the gold row.
        var heatmap = ##"<svg xmlns="http://www.w3.org/2000/svg" width="420" height="300" role="img" aria-label="confusion matrix">"##
        for (column, label) in labels.enumerated() {
            heatmap += ##"<text x="\##(150 + column * 90)" y="20" text-anchor="middle">\##(label.rawValue)</text>"##
        }
        for (row, gold) in labels.enumerated() {
            let total = max(e.confusion[row].reduce(0, +), 1)
            heatmap += ##"<text x="95" y="\##(70 + row * 80)" text-anchor="end">\##(gold.rawValue)</text>"##
            for column in 0..<3 {
                let share = Double(e.confusion[row][column]) / Double(total)
                let x = 105 + column * 90, y = 30 + row * 80
                heatmap += ##"<rect x="\##(x)" y="\##(y)" width="88" height="78" fill="rgb(\##(Int(255 - 200 * share)),\##(Int(255 - 140 * share)),255)" stroke="#999"/>"##
                heatmap += ##"<text x="\##(x + 44)" y="\##(y + 40)" text-anchor="middle">\##(e.confusion[row][column])</text>"##
                heatmap += ##"<text x="\##(x + 44)" y="\##(y + 58)" text-anchor="middle" font-size="11">\##(String(format: "%.0f%%", share * 100))</text>"##
            }
        }
        heatmap += "</svg>"
        // Reliability diagram: accuracy against confidence per bin, with the diagonal.
        let size = 300.0, pad = 40.0
        var reliability = ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(size + 2 * pad))" height="\##(Int(size + 2 * pad))" role="img" aria-label="reliability diagram">"##
        reliability += ##"<rect x="\##(pad)" y="\##(pad)" width="\##(size)" height="\##(size)" fill="none" stroke="#999"/>"##
        reliability += ##"<line x1="\##(pad)" y1="\##(pad + size)" x2="\##(pad + size)" y2="\##(pad)" stroke="#bbb" stroke-dasharray="4"/>"##
        for bin in e.reliability.bins where bin.count > 0 {
            let x = pad + bin.lower * size, width = (bin.upper - bin.lower) * size
            let height = bin.accuracy * size
            reliability += ##"<rect x="\##(x)" y="\##(pad + size - height)" width="\##(width - 1)" height="\##(height)" fill="#4a7bd1" opacity="0.8"><title>\##(bin.count) tweets, confidence \##(String(format: "%.3f", bin.confidence)), accuracy \##(String(format: "%.3f", bin.accuracy))</title></rect>"##
            reliability += ##"<circle cx="\##(pad + bin.confidence * size)" cy="\##(pad + size - bin.accuracy * size)" r="3" fill="#d14a4a"/>"##
        }
        reliability += ##"<text x="\##(pad + size / 2)" y="\##(pad + size + 30)" text-anchor="middle">confidence</text>"##
        reliability += ##"<text x="12" y="\##(pad + size / 2)" transform="rotate(-90 12 \##(pad + size / 2))" text-anchor="middle">accuracy</text>"##
        reliability += "</svg>"
        var rows = ""
        for label in labels {
            rows += "<tr><td>\(label.rawValue)</td>" + [e.precision(label), e.recall(label), e.f1(label)].map { String(format: "<td>%.4f</td>", $0) }.joined()
                + "<td>\(e.confusion[label.index].reduce(0, +))</td></tr>"
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>sentiment eval: \(escape(file))</title>
            <style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
            table{border-collapse:collapse}td,th{padding:.3rem .8rem;border-bottom:1px solid #ddd;text-align:right}
            td:first-child,th:first-child{text-align:left}.figures{display:flex;flex-wrap:wrap;gap:2rem}</style></head>
            <body><h1>Evaluation</h1><p>Model <code>\(escape(model.id))</code> on <code>\(escape(file))</code> (\(e.count) tweets).</p>
            <table><tr><th>metric</th><th>value</th></tr>
            <tr><td>macro-averaged recall</td><td>\(String(format: "%.4f", e.macroRecall))</td></tr>
            <tr><td>accuracy</td><td>\(String(format: "%.4f", e.accuracy))</td></tr>
            <tr><td>macro-F1</td><td>\(String(format: "%.4f", e.macroF1))</td></tr>
            <tr><td>expected calibration error</td><td>\(String(format: "%.4f", e.expectedCalibrationError))</td></tr></table>
            <h2>Per class</h2><table><tr><th>class</th><th>precision</th><th>recall</th><th>F1</th><th>support</th></tr>\(rows)</table>
            <div class="figures"><figure>\(heatmap)<figcaption>Confusion matrix: rows gold, columns predicted.</figcaption></figure>
            <figure>\(reliability)<figcaption>Reliability: bars are accuracy per confidence bin, dots the mean confidence.</figcaption></figure></div>
            </body></html>

            """
    }
}
