import CTokenizer

/// Caller-owned buffers for `ctk_tokenize`, grown on demand and reused from
/// call to call, so tokenizing allocates nothing once the buffers are warm.
///
/// Not thread-safe: each thread (each `SentimentModel.Workspace`) owns one.
final class TokenBuffer {
    private(set) var tokens: UnsafeMutablePointer<ctk_token>
    private(set) var tokenCapacity: Int
    private(set) var text: UnsafeMutablePointer<CChar>
    private(set) var textCapacity: Int
    /// Tokens of the last call.
    private(set) var count = 0
    /// Statistics of the last call.
    private(set) var stats = ctk_stats()

    init(tokenCapacity: Int = 512, textCapacity: Int = 4096) {
        self.tokenCapacity = tokenCapacity
        self.textCapacity = textCapacity
        tokens = .allocate(capacity: tokenCapacity)
        text = .allocate(capacity: textCapacity)
    }

    deinit {
        tokens.deallocate()
        text.deallocate()
    }

    /// Tokenizes `bytes` with `options` and `seed`; the tokens stay valid until the next call.
    func tokenize(_ bytes: UnsafeRawBufferPointer, options: UInt32, seed: UInt64) {
        while true {
            let result = ctk_tokenize(
                bytes.baseAddress, bytes.count, options, seed,
                tokens, tokenCapacity, text, textCapacity, &stats)
            if result == CTK_OK {
                count = stats.token_count
                return
            }
            if result == CTK_ERROR_NOSPACE {
                grow(tokens: stats.token_count, text: stats.text_length)
                continue
            }
            // Inputs over 4 GiB, or an ICU failure: read as no tokens rather than crash.
            count = 0
            return
        }
    }

    private func grow(tokens neededTokens: Int, text neededText: Int) {
        if neededTokens > tokenCapacity {
            tokens.deallocate()
            tokenCapacity = max(neededTokens, tokenCapacity * 2)
            tokens = .allocate(capacity: tokenCapacity)
        }
        if neededText > textCapacity {
            text.deallocate()
            textCapacity = max(neededText, textCapacity * 2)
            text = .allocate(capacity: textCapacity)
        }
    }

    /// The normalized text of token `i` as raw bytes.
    @inline(__always)
    func textBytes(of i: Int) -> UnsafeRawBufferPointer {
        let token = tokens[i]
        return UnsafeRawBufferPointer(
            start: text + Int(token.text_offset), count: Int(token.text_length))
    }

    /// Token `i` as a public value (allocates its text; for `explain`, not the hot path).
    func token(at i: Int) -> Token {
        let raw = tokens[i]
        return Token(
            kind: Token.Kind(raw: raw.kind),
            text: String(decoding: textBytes(of: i), as: UTF8.self),
            flags: Token.Flags(rawValue: raw.flags),
            sourceOffset: Int(raw.source_offset),
            sourceLength: Int(raw.source_length))
    }
}
