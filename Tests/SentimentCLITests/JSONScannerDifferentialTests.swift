import Foundation
@testable import Sentiment
import Testing

/// The hot-path JSON reader against Foundation's parser, on 20,000 lines made
/// by breaking valid tweet objects at random (a byte dropped, added or
/// changed, the line cut short). The two disagreed only where the scanner
/// means to (`differsByDesign`); a scanner that let raw tabs into strings
/// failed this test.
@Suite("JSON scanner against Foundation")
struct JSONScannerDifferentialTests {
    /// Valid v2-style tweets: escapes, non-ASCII, nested members, numbers.
    static let bases = [
        #"{"id":"1","text":"What a day! \ud83d\ude0d caf\u00e9 \"quoted\" back\\slash","lang":"en"}"#,
        #"{"id":123456789012345678,"text":"plain text, nothing more","public_metrics":{"like_count":5,"ratio":-1.5e3},"lang":"en"}"#,
        #"{"data":{"id":"7","text":"nested \/ page","entities":{"hashtags":[{"start":0,"end":4,"tag":"x"}]}},"meta":{"result_count":1}}"#,
        #"{"text":"ünïcödé 日本語 tabs\tand\nlines","edit_history_tweet_ids":["1","2"],"possibly_sensitive":false,"geo":null}"#,
        #"{ "text" : "spaced out" , "id" : 42 , "truthy" : true }"#,
    ]

    static let inserts: [UInt8] = Array(#"{}[]":,\ 0123456789-+.eEtrufalsn"#.utf8) + [0x09, 0x7F, 0xC3, 0x80]

    /// A number from 0 to `n` − 1, drawn from `random` (the library's SplitMix64).
    static func below(_ n: Int, _ random: inout SplitMix64) -> Int { Int(random.next() % UInt64(n)) }

    static func mutate(_ line: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = line
        for _ in 0..<(1 + Self.below(3, &random)) {
            guard !bytes.isEmpty else { break }
            let at = Self.below(bytes.count, &random)
            switch Self.below(4, &random) {
            case 0: bytes.remove(at: at)
            case 1: bytes.insert(inserts[Self.below(inserts.count, &random)], at: at)
            case 2: bytes[at] = inserts[Self.below(inserts.count, &random)]
            default: bytes.removeSubrange(at...)
            }
        }
        return bytes
    }

    /// Lines on which the scanner and Foundation differ by design, not by
    /// mistake: the scanner keeps and flags invalid UTF-8 and reads a lone
    /// surrogate escape as U+FFFD (`TweetRecord`), where Foundation refuses
    /// the line; it keeps a number's digits as text, so an exponent too large
    /// for a `Double` is still JSON to it; and it refuses a comma before `}`
    /// or `]`, as JSON does, where Foundation lets one pass.
    static func differsByDesign(_ line: [UInt8]) -> Bool {
        guard let text = String(validating: line, as: UTF8.self) else { return true }
        // A surrogate escape left once escaped backslashes and the pairs are
        // taken out is a lone one.
        let unpaired = text.replacing(#"\\"#, with: "").replacing(/\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/, with: "")
        if unpaired.contains(/\\u[dD][89a-fA-F][0-9a-fA-F]{2}/) { return true }
        if text.contains(/[0-9.][eE][+-]?[0-9]{3,}/) { return true }
        return text.contains(/,\s*[}\]]/)
    }

    /// The text a v2 tweet or a single-tweet page gives, as Foundation reads it.
    static func foundationText(_ object: [String: Any]) -> String? {
        (object["text"] as? String) ?? ((object["data"] as? [String: Any])?["text"] as? String)
    }

    @Test("Broken tweet lines are malformed to the scanner exactly when Foundation cannot parse them, and read alike when it can")
    func agreesWithFoundation() {
        var random = SplitMix64(seed: 2026)
        var disagreements: [String] = []
        var compared = 0, refused = 0, textsCompared = 0
        for round in 0..<20_000 {
            let base = Array(Self.bases[round % Self.bases.count].utf8)
            let line = Self.mutate(base, &random)
            guard line.first == UInt8(ascii: "{"), !Self.differsByDesign(line) else { continue }
            let records = TweetRecord.decoded(line: line)
            let malformed = records.count == 1 && (records[0].error ?? "").hasPrefix("malformed JSON")
            let parsed = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]
            compared += 1
            if malformed { refused += 1 }
            let shown = String(decoding: line, as: UTF8.self).debugDescription
            if (parsed == nil) != malformed {
                disagreements.append("\(malformed ? "scanner refuses" : "scanner accepts") \(shown): \(records)")
            } else if let parsed, let text = Self.foundationText(parsed), records.count == 1 {
                textsCompared += 1
                if records[0].text != text { disagreements.append("texts differ \(shown): \(records)") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, e.g.\n\(disagreements.prefix(10).joined(separator: "\n"))")
        // Both outcomes were met often, so the comparison was not empty.
        #expect(compared > 15_000 && refused > 5_000 && compared - refused > 2_000 && textsCompared > 1_000,
                "compared \(compared), refused \(refused), texts \(textsCompared)")
    }
}
