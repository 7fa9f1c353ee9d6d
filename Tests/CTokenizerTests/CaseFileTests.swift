import CTokenizer
import Foundation
import Testing

/// One line of `Cases/tokens.tsv` (the format is described at the top of that file).
struct TokenCase: CustomTestStringConvertible, Sendable {
    let line: Int
    let input: String
    let expected: [String]
    let options: UInt32

    var testDescription: String { "tokens.tsv:\(line) \(input.debugDescription)" }
}

struct CaseFileError: Error, CustomStringConvertible {
    let line: Int
    let message: String
    var description: String { "tokens.tsv:\(line): \(message)" }
}

enum CaseFile {
    static var url: URL? {
        Bundle.module.url(forResource: "Cases", withExtension: nil)?.appendingPathComponent("tokens.tsv")
    }

    /// The cases, or none when the file cannot be read (the parse test reports why).
    static let cases: [TokenCase] = (try? load()) ?? []

    static func load() throws -> [TokenCase] {
        guard let url else { throw CaseFileError(line: 0, message: "Cases/tokens.tsv is not in the test bundle") }
        let contents = try String(contentsOf: url, encoding: .utf8)
        var cases: [TokenCase] = []
        for (index, rawLine) in contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            if rawLine.isEmpty || rawLine.hasPrefix("//") { continue }
            let columns = rawLine.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count == 2 || columns.count == 3 else {
                throw CaseFileError(line: line, message: "expected 2 or 3 tab-separated columns, found \(columns.count)")
            }
            let input = try unescape(String(columns[0]), line: line)
            let expected: [String]
            if columns[1] == "(none)" {
                expected = []
            } else {
                expected = try columns[1].split(separator: " ").map { try canonical(String($0), line: line) }
            }
            let options = columns.count == 3 ? try parseOptions(String(columns[2]), line: line) : Options.default
            cases.append(TokenCase(line: line, input: input, expected: expected, options: options))
        }
        return cases
    }

    /// `\t` `\n` `\s` (space) `\\` and `\u{XXXX}`.
    static func unescape(_ s: String, line: Int) throws -> String {
        var out = ""
        var chars = s.makeIterator()
        while let c = chars.next() {
            guard c == "\\" else {
                out.append(c)
                continue
            }
            switch chars.next() {
            case "t": out.append("\t")
            case "n": out.append("\n")
            case "s": out.append(" ")
            case "\\": out.append("\\")
            case "u":
                guard chars.next() == "{" else { throw CaseFileError(line: line, message: "bad \\u escape in \(s)") }
                var hex = ""
                while let h = chars.next(), h != "}" { hex.append(h) }
                guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                    throw CaseFileError(line: line, message: "bad \\u{\(hex)} in \(s)")
                }
                out.unicodeScalars.append(scalar)
            default:
                throw CaseFileError(line: line, message: "unknown escape in \(s)")
            }
        }
        return out
    }

    /// An expected token in the spelling `Token.description` produces (flags in a fixed order).
    static func canonical(_ spelling: String, line: Int) throws -> String {
        guard let colon = spelling.firstIndex(of: ":") else {
            throw CaseFileError(line: line, message: "token \(spelling) has no kind")
        }
        let kind = String(spelling[..<colon])
        let kinds = (1...9).map { String(cString: ctk_kind_name(Int32($0))) }
        guard kinds.contains(kind) else { throw CaseFileError(line: line, message: "unknown kind \(kind)") }
        var text = String(spelling[spelling.index(after: colon)...])
        var flags: [String] = []
        if text.hasSuffix("]"), let open = text.lastIndex(of: "["), open > text.startIndex {
            let names = text[text.index(after: open)..<text.index(before: text.endIndex)].split(separator: ",").map(String.init)
            let known = Token.flagNames.map(\.name)
            if !names.isEmpty, names.allSatisfy(known.contains) {
                flags = known.filter(names.contains)
                text = String(text[..<open])
            }
        }
        text = try unescape(text, line: line)
        return flags.isEmpty ? "\(kind):\(text)" : "\(kind):\(text)[\(flags.joined(separator: ","))]"
    }

    static func parseOptions(_ s: String, line: Int) throws -> UInt32 {
        var options: UInt32 = 0
        for name in s.split(separator: "+") {
            switch name {
            case "default": options |= Options.default
            case "negation": options |= Options.negation
            case "elongation": options |= Options.elongation
            case "entities": options |= Options.entities
            case "drop_punct": options |= Options.dropPunct
            case "emoji_faces": options |= Options.emojiFaces
            case "none": break
            default: throw CaseFileError(line: line, message: "unknown option \(name)")
            }
        }
        return options
    }
}

@Suite("Case file Cases/tokens.tsv")
struct CaseFileTests {
    @Test("The case file parses and covers at least 80 cases")
    func parses() throws {
        let cases = try CaseFile.load()
        #expect(cases.count >= 80)
    }

    @Test("Each case tokenizes as expected", arguments: CaseFile.cases)
    func tokenizes(_ c: TokenCase) throws {
        let result = tokenize(c.input, options: c.options)
        try #require(result.code == CTK_OK, "tokens.tsv:\(c.line): \(String(cString: ctk_errmsg(result.code)))")
        let actual = result.list.map(\.description)
        let location = SourceLocation(fileID: "CTokenizerTests/tokens.tsv", filePath: CaseFile.url?.path ?? "tokens.tsv",
                                      line: c.line, column: 1)
        #expect(actual == c.expected,
                """
                tokens.tsv:\(c.line): \(c.input.debugDescription)
                  expected: \(c.expected.joined(separator: " "))
                  actual:   \(actual.joined(separator: " "))
                """,
                sourceLocation: location)
    }
}
