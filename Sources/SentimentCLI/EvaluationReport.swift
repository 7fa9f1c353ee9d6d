import Foundation
import Sentiment

/// The ways `sentiment eval` shows an `Evaluation`: a text table, JSON, and a
/// self-contained HTML page.
enum EvaluationReport {
    /// `repeatedIDs` is how many of the data's rows repeat an earlier row's
    /// tweet id (`repeatedIDCount`), said under the data line when there are any.
    static func text(_ e: Evaluation, model: SentimentModel, file: String, repeatedIDs: Int) -> String {
        // A file name (or a model name) may hold a line break or an escape sequence: one line, no controls.
        var out = "model \(TerminalText.oneLine(model.id))\ndata  \(TerminalText.oneLine(file)) (\(tweetCount(e)))\n"
        if let note = otherLanguageNote(e) { out += "      \(note)\n" }
        if let note = repeatedIDsNote(repeatedIDs) { out += "      \(note)\n" }
        out += "\n"
        out += String(format: "macro-recall  %.4f\naccuracy      %.4f\nmacro-F1      %.4f\nECE           %.4f\n\n",
                      e.macroRecall, e.accuracy, e.macroF1, e.expectedCalibrationError)
        out += "class      precision  recall     F1  support\n"
        for label in SentimentLabel.allCases {
            let cells = classMetrics(e, label).map { $0.map { String(format: "%.4f", $0) } ?? "n/a" }
            out += label.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
                + "  " + pad(cells[0], 9) + "  " + pad(cells[1], 6) + "  " + pad(cells[2], 6)
                + String(format: "  %7d\n", e.support(label))
        }
        if let note = undefinedNote(e) { out += note.map { $0 + "\n" }.joined() }
        out += "\nconfusion (rows gold, columns predicted)\n           negative   neutral  positive\n"
        for gold in SentimentLabel.allCases {
            out += gold.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
                + e.confusion[gold.index].map { String(format: "%10d", $0) }.joined() + "\n"
        }
        out += "\nreliability (top probability)\n" + String(format: "  %@\n", topClassNote(e))
        // Three decimals: the edges are fifteenths, and at two 0.4667 would
        // print as 0.47, placing a confidence of 0.468 in the wrong bin.
        out += "  bin            n  confidence  accuracy\n"
        for bin in e.reliability.bins where bin.count > 0 {
            out += String(format: "  %.3f-%.3f %6d      %.4f    %.4f\n", bin.lower, bin.upper, bin.count, bin.confidence, bin.accuracy)
        }
        return out
    }

    /// What the reliability bins' accuracy is: how often the most probable
    /// class is the gold one, which is not the accuracy above when the
    /// decision rule labels a tweet with a rarer, less probable class (dev:
    /// 0.5765 against 0.5675), so that the bins' figures do not average to it.
    static func topClassNote(_ e: Evaluation) -> String {
        let bins = e.reliability.bins, count = bins.reduce(0) { $0 + $1.count }
        let correct = bins.reduce(0) { $0 + $1.correct }
        return String(format: "accuracy here is the share whose most probable class is gold: %.4f in all "
                          + "(the labels' accuracy, by the decision rule: %.4f)", count == 0 ? 0 : Double(correct) / Double(count), e.accuracy)
    }

    /// "1 tweet", "1993 tweets".
    static func tweetCount(_ e: Evaluation) -> String {
        e.count == 1 ? "1 tweet" : "\(e.count) tweets"
    }

    /// How many tweets the language test put in another language, or nil when none.
    static func otherLanguageNote(_ e: Evaluation) -> String? {
        e.otherLanguage == 0 ? nil : "\(e.otherLanguage) in another language, scored all the same (classify gives such tweets no label)"
    }

    /// How many rows repeat an earlier row's tweet id, or nil when none.
    static func repeatedIDsNote(_ repeated: Int) -> String? {
        repeated == 0 ? nil : "\(repeated) \(repeated == 1 ? "row repeats" : "rows repeat") an earlier id, scored and counted all the same"
    }

    /// Precision, recall and F1 of `label`, each nil where it is undefined:
    /// precision when nothing was predicted `label`, recall when no gold label
    /// is `label`, F1 when both.
    static func classMetrics(_ e: Evaluation, _ label: SentimentLabel) -> [Double?] {
        let predicted = e.predictedCount(label) > 0, gold = e.support(label) > 0
        return [predicted ? e.precision(label) : nil, gold ? e.recall(label) : nil,
                predicted || gold ? e.f1(label) : nil]
    }

    /// Lines saying which metrics are undefined (n/a) and how the macro
    /// averages count them, or nil when every metric is defined.
    static func undefinedNote(_ e: Evaluation) -> [String]? {
        func names(_ labels: [SentimentLabel]) -> String {   // "negative", "negative or neutral", "negative, neutral or positive"
            let words = labels.map(\.rawValue)
            return words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
        }
        let noGold = SentimentLabel.allCases.filter { e.support($0) == 0 }
        let noPredicted = SentimentLabel.allCases.filter { e.predictedCount($0) == 0 }
        var reasons: [String] = []
        if !noGold.isEmpty { reasons.append("no gold \(names(noGold)) tweets, so no recall") }
        if !noPredicted.isEmpty { reasons.append("no tweet predicted \(names(noPredicted)), so no precision") }
        guard !reasons.isEmpty else { return nil }
        return ["n/a: " + reasons.joined(separator: "; ") + ".",
                "     macro-recall and macro-F1 average all three classes, where these count as 0."]
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    static func json(_ e: Evaluation, model: SentimentModel, file: String, repeatedIDs: Int) -> String {
        var object: [String: Any] = [
            "model": model.id, "file": file, "count": e.count, "other_language": e.otherLanguage, "repeated_ids": repeatedIDs,
            "macro_recall": e.macroRecall, "accuracy": e.accuracy, "macro_f1": e.macroF1,
            "expected_calibration_error": e.expectedCalibrationError,
            // `confusion[gold][predicted]`: said in the object, so that a reader need not know the order.
            "confusion": e.confusion, "confusion_order": SentimentLabel.allCases.map(\.rawValue),
        ]
        object["classes"] = Dictionary(uniqueKeysWithValues: SentimentLabel.allCases.map { label in
            let metrics = classMetrics(e, label).map { $0 ?? NSNull() as Any }
            return (label.rawValue, ["precision": metrics[0], "recall": metrics[1], "f1": metrics[2],
                                     "support": e.support(label)] as [String: Any])
        })
        object["reliability"] = e.reliability.bins.map {
            // An empty bin has no mean: null, not a 0 that reads as a measured one.
            ["lower": $0.lower, "upper": $0.upper, "count": $0.count,
             "confidence": $0.count > 0 ? $0.confidence : NSNull(), "accuracy": $0.count > 0 ? $0.accuracy : NSNull()] as [String: Any]
        }
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A page with no external resources: metrics, a confusion-matrix heatmap
    /// and a reliability diagram as inline SVG.
    static func html(_ e: Evaluation, model: SentimentModel, file: String, repeatedIDs: Int) -> String {
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
            // A class with no gold tweets has counts (all 0) but no shares.
            let support = e.support(gold), total = max(support, 1)
            heatmap += ##"<text x="95" y="\##(70 + row * 80)" text-anchor="end">\##(gold.rawValue)</text>"##
            for column in 0..<3 {
                let share = Double(e.confusion[row][column]) / Double(total)
                let x = 105 + column * 90, y = 30 + row * 80
                heatmap += ##"<rect x="\##(x)" y="\##(y)" width="88" height="78" fill="rgb(\##(Int(255 - 200 * share)),\##(Int(255 - 140 * share)),255)" stroke="#999"/>"##
                heatmap += ##"<text x="\##(x + 44)" y="\##(y + 40)" text-anchor="middle">\##(e.confusion[row][column])</text>"##
                if support > 0 {
                    heatmap += ##"<text x="\##(x + 44)" y="\##(y + 58)" text-anchor="middle" font-size="11">\##(String(format: "%.0f%%", share * 100))</text>"##
                }
            }
        }
        heatmap += "</svg>"
        // Reliability diagram: accuracy against confidence per bin, with the diagonal.
        let size = 300.0, pad = 48.0
        var reliability = ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(size + 2 * pad))" height="\##(Int(size + 2 * pad))" role="img" aria-label="reliability diagram">"##
        reliability += ##"<rect x="\##(pad)" y="\##(pad)" width="\##(size)" height="\##(size)" fill="none" stroke="#999"/>"##
        for bin in e.reliability.bins where bin.count > 0 {
            let x = pad + bin.lower * size, width = (bin.upper - bin.lower) * size
            let height = bin.accuracy * size
            reliability += ##"<rect x="\##(x)" y="\##(pad + size - height)" width="\##(width - 1)" height="\##(height)" fill="#4a7bd1" opacity="0.8"><title>\##(bin.count == 1 ? "1 tweet" : "\(bin.count) tweets"), confidence \##(String(format: "%.3f", bin.confidence)), accuracy \##(String(format: "%.3f", bin.accuracy))</title></rect>"##
        }
        reliability += ##"<line x1="\##(pad)" y1="\##(pad + size)" x2="\##(pad + size)" y2="\##(pad)" stroke="#555" stroke-dasharray="4"/>"##
        for bin in e.reliability.bins where bin.count > 0 {
            reliability += ##"<circle cx="\##(pad + bin.confidence * size)" cy="\##(pad + size - bin.accuracy * size)" r="3" fill="#d14a4a"/>"##
        }
        for tick in [0.0, 0.25, 0.5, 0.75, 1] {
            let x = pad + tick * size, y = pad + size - tick * size, label = String(format: "%g", tick)
            reliability += ##"<line x1="\##(x)" y1="\##(pad + size)" x2="\##(x)" y2="\##(pad + size + 4)" stroke="#999"/>"##
            reliability += ##"<text x="\##(x)" y="\##(pad + size + 16)" text-anchor="middle" font-size="11">\##(label)</text>"##
            reliability += ##"<line x1="\##(pad - 4)" y1="\##(y)" x2="\##(pad)" y2="\##(y)" stroke="#999"/>"##
            reliability += ##"<text x="\##(pad - 6)" y="\##(y + 4)" text-anchor="end" font-size="11">\##(label)</text>"##
        }
        reliability += ##"<text x="\##(pad + size / 2)" y="\##(pad + size + 34)" text-anchor="middle">confidence</text>"##
        reliability += ##"<text x="12" y="\##(pad + size / 2)" transform="rotate(-90 12 \##(pad + size / 2))" text-anchor="middle">accuracy</text>"##
        reliability += "</svg>"
        var rows = ""
        for label in labels {
            rows += "<tr><td>\(label.rawValue)</td>" + classMetrics(e, label).map { "<td>" + ($0.map { String(format: "%.4f", $0) } ?? "n/a") + "</td>" }.joined()
                + "<td>\(e.support(label))</td></tr>"
        }
        let note = undefinedNote(e).map { "<p>" + escape($0.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")) + "</p>" } ?? ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>sentiment eval: \(escape(file))</title>
            <style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
            table{border-collapse:collapse}td,th{padding:.3rem .8rem;border-bottom:1px solid #ddd;text-align:right}
            td:first-child,th:first-child{text-align:left}.figures{display:flex;flex-wrap:wrap;gap:2rem}</style></head>
            <body><h1>Evaluation</h1><p>Model <code>\(escape(model.id))</code> on <code>\(escape(file))</code> (\(tweetCount(e))).\(otherLanguageNote(e).map { " " + $0 + "." } ?? "")\(repeatedIDsNote(repeatedIDs).map { " " + $0 + "." } ?? "")</p>
            <table><tr><th>metric</th><th>value</th></tr>
            <tr><td>macro-averaged recall</td><td>\(String(format: "%.4f", e.macroRecall))</td></tr>
            <tr><td>accuracy</td><td>\(String(format: "%.4f", e.accuracy))</td></tr>
            <tr><td>macro-F1</td><td>\(String(format: "%.4f", e.macroF1))</td></tr>
            <tr><td>expected calibration error</td><td>\(String(format: "%.4f", e.expectedCalibrationError))</td></tr></table>
            <h2>Per class</h2><table><tr><th>class</th><th>precision</th><th>recall</th><th>F1</th><th>support</th></tr>\(rows)</table>\(note)
            <div class="figures"><figure>\(heatmap)<figcaption>Confusion matrix: rows gold, columns predicted.</figcaption></figure>
            <figure>\(reliability)<figcaption>Reliability of the top probability: bars are each bin's accuracy, dots its mean confidence (across) against its accuracy (up); on the dashed diagonal the two agree. \(escape(topClassNote(e).prefix(1).uppercased() + topClassNote(e).dropFirst())).</figcaption></figure></div>
            </body></html>

            """
    }
}
