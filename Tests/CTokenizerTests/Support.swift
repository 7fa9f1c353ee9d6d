import CTokenizer
import Testing

/// One token as the tests see it: the C token plus its normalized text.
struct Token: Equatable, CustomStringConvertible {
    var kind: Int32
    var text: String
    var flags: UInt16
    var raw: ctk_token

    /// The case-file spelling: `kind:text[flag,…]`.
    var description: String {
        let names = Token.flagNames.filter { flags & $0.bit != 0 }.map(\.name)
        let kindName = String(cString: ctk_kind_name(kind))
        return names.isEmpty ? "\(kindName):\(text)" : "\(kindName):\(text)[\(names.joined(separator: ","))]"
    }

    static let flagNames: [(name: String, bit: UInt16)] = [
        ("neg", UInt16(CTK_FLAG_NEGATED)),
        ("elong", UInt16(CTK_FLAG_ELONGATED)),
        ("caps", UInt16(CTK_FLAG_ALLCAPS)),
        ("negator", UInt16(CTK_FLAG_NEGATOR)),
        ("emph", UInt16(CTK_FLAG_EMPHASIS)),
        ("invalid", UInt16(CTK_FLAG_INVALID)),
    ]

    static func == (a: Token, b: Token) -> Bool {
        a.kind == b.kind && a.text == b.text && a.flags == b.flags
    }
}

/// The result of one complete `ctk_tokenize` run.
struct Tokenization {
    var code: Int32
    var tokens: [ctk_token]
    var text: [UInt8]
    var stats: ctk_stats
    /// How many calls it took (1, or 2 after CTK_ERROR_NOSPACE).
    var calls: Int

    var list: [Token] {
        tokens.map { t in
            let start = Int(t.text_offset)
            let bytes = text[start..<start + Int(t.text_length)]
            return Token(kind: Int32(t.kind), text: String(decoding: bytes, as: UTF8.self), flags: t.flags, raw: t)
        }
    }
}

enum Options {
    static let `default` = UInt32(CTK_OPT_DEFAULT)
    static let negation = UInt32(CTK_OPT_NEGATION)
    static let elongation = UInt32(CTK_OPT_ELONGATION)
    static let entities = UInt32(CTK_OPT_ENTITIES)
    static let dropPunct = UInt32(CTK_OPT_DROP_PUNCT)
    static let emojiFaces = UInt32(CTK_OPT_EMOJI_FACES)
}

/// Tokenizes with the documented first-guess buffer sizes, growing them once
/// when the tokenizer reports CTK_ERROR_NOSPACE.
func tokenize(_ bytes: [UInt8], options: UInt32 = Options.default, seed: UInt64 = 0) -> Tokenization {
    var tokenCapacity = bytes.count + 1
    var textCapacity = 2 * bytes.count + 16
    var calls = 0
    while true {
        calls += 1
        var tokens = [ctk_token](repeating: ctk_token(), count: tokenCapacity)
        var text = [UInt8](repeating: 0, count: textCapacity)
        var stats = ctk_stats()
        let code = bytes.withUnsafeBytes { input in
            tokens.withUnsafeMutableBufferPointer { tokenBuffer in
                text.withUnsafeMutableBytes { textBuffer in
                    ctk_tokenize(input.baseAddress, input.count, options, seed,
                                 tokenBuffer.baseAddress, tokenBuffer.count,
                                 textBuffer.baseAddress?.assumingMemoryBound(to: CChar.self), textBuffer.count,
                                 &stats)
                }
            }
        }
        if code == CTK_ERROR_NOSPACE && calls == 1 {
            tokenCapacity = max(tokenCapacity, stats.token_count)
            textCapacity = max(textCapacity, stats.text_length)
            continue
        }
        if code == CTK_OK {
            tokens.removeSubrange(stats.token_count...)
            text.removeSubrange(stats.text_length...)
        }
        return Tokenization(code: code, tokens: tokens, text: text, stats: stats, calls: calls)
    }
}

func tokenize(_ string: String, options: UInt32 = Options.default, seed: UInt64 = 0) -> Tokenization {
    tokenize(Array(string.utf8), options: options, seed: seed)
}

/// Tokenizes `text` and expects it to succeed with `expected`, the tokens in
/// the case-file spelling (`kind:text[flag,…]`), in order.
func expectTokens(_ text: String, _ expected: [String], options: UInt32 = Options.default,
                  sourceLocation: SourceLocation = #_sourceLocation) throws {
    let result = tokenize(text, options: options)
    try #require(result.code == CTK_OK, "\(text)", sourceLocation: sourceLocation)
    #expect(result.list.map(\.description) == expected, "\(text)", sourceLocation: sourceLocation)
}

/// A small deterministic generator (SplitMix64) so fuzzing is reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A size query (no buffers) counts the tokens and the text bytes that a
/// call with buffers writes, and buffers of exactly those sizes are enough:
/// the pass that only counts must agree with the one that writes.
func expectSizeQueryAgrees(_ string: String, options: UInt32 = Options.default,
                           sourceLocation: SourceLocation = #_sourceLocation) {
    let bytes = Array(string.utf8)
    let reference = tokenize(bytes, options: options)
    var stats = ctk_stats()
    let code = bytes.withUnsafeBytes { ctk_tokenize($0.baseAddress, $0.count, options, 0, nil, 0, nil, 0, &stats) }
    #expect(code == (reference.tokens.isEmpty && reference.text.isEmpty ? CTK_OK : CTK_ERROR_NOSPACE), "\(string)", sourceLocation: sourceLocation)
    #expect(stats.token_count == reference.tokens.count && stats.text_length == reference.text.count,
            "\(string): the size query counts \(stats.token_count) tokens, \(stats.text_length) bytes; written \(reference.tokens.count), \(reference.text.count)",
            sourceLocation: sourceLocation)
    var tokens = [ctk_token](repeating: ctk_token(), count: stats.token_count)
    var text = [CChar](repeating: 0, count: stats.text_length)
    var exact = ctk_stats()
    let tokenCount = tokens.count, textCount = text.count
    let exactCode = bytes.withUnsafeBytes { input in
        tokens.withUnsafeMutableBufferPointer { t in
            text.withUnsafeMutableBufferPointer { x in
                ctk_tokenize(input.baseAddress, input.count, options, 0, t.baseAddress, tokenCount, x.baseAddress, textCount, &exact)
            }
        }
    }
    #expect(exactCode == CTK_OK, "\(string): buffers of the queried sizes", sourceLocation: sourceLocation)
    #expect(tokens.map(\.hash) == reference.tokens.map(\.hash), "\(string)", sourceLocation: sourceLocation)
}
