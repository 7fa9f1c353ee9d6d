import Foundation
import Testing

/// `sentiment explain`, run as a subprocess on the shipped model.
@Suite("sentiment explain")
struct ExplainCommandTests {
    private func explain(_ arguments: [String]) throws -> SentimentExecutable.Run {
        try SentimentExecutable.run(["explain"] + arguments)
    }

    /// The feature lines under "towards LABEL:", by label.
    private func sections(_ output: String) -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var current: String?
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix("towards "), line.hasSuffix(":") {
                current = String(line.dropFirst("towards ".count).dropLast())
                sections[current!] = []
            } else if let label = current {
                sections[label]!.append(line)
            }
        }
        return sections
    }

    @Test("explain shows the text, its marked tokens, the label and the features towards each class")
    func explainsAText() throws {
        let run = try explain(["the food was great but the service was NOT good :("])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.outputLines
        #expect(lines.first == "text      the food was great but the service was NOT good :(")
        let tokens = try #require(lines.first { $0.hasPrefix("tokens    ") })
        #expect(tokens.contains("word:not[CAPS,NEGATOR]"), "\(tokens)")
        #expect(tokens.contains("word:good[NEG]"), "\(tokens)")
        #expect(tokens.contains("emoticon::("), "\(tokens)")
        #expect(lines.contains("language  en"))
        #expect(lines.contains { $0.wholeMatch(of: #/label     (negative|neutral|positive)  \(negative 0\.\d{4}, neutral 0\.\d{4}, positive 0\.\d{4}; score [+-][01]\.\d{4}\)/#) != nil },
                "\(run.output)")
        let sections = sections(run.output)
        #expect(Set(sections.keys) == ["negative", "neutral", "positive"])
        for (label, features) in sections {
            #expect((1...8).contains(features.count), "\(label): \(features)")
            #expect(features.allSatisfy { $0.wholeMatch(of: #/  \+\d+\.\d{4}  .+/#) != nil }, "\(features)")
        }
    }

    @Test("--limit caps each class's list")
    func limitCapsTheLists() throws {
        let run = try explain(["I love this, best day ever!!!", "--limit", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        for (label, features) in sections(run.output) {
            #expect((1...2).contains(features.count), "\(label): \(features)")
        }
    }

    @Test("An empty or blank text or a limit below 1 is a usage error, exit 64", arguments: [
        [""], ["  \t "], ["\u{200B}\u{200D}"], ["fine", "--limit", "0"],
    ])
    func badArguments(arguments: [String]) throws {
        let run = try explain(arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.output.isEmpty)
        #expect(run.stderr.contains("nothing to explain") || run.stderr.contains("--limit"), "\(run.stderr)")
    }
}
