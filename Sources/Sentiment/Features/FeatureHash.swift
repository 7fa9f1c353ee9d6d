import CTokenizer

/// The hashing that turns tokens and n-grams into bucket numbers. Model files
/// depend on every constant here and in the C functions it calls
/// (`ctk_mix64`, `ctk_pair64`, `ctk_feature64` in CTokenizer's header, where
/// the scorer's eight-wide first pass, `ctk_token_keys`, reads them too):
/// changing one changes every feature index. `FeatureHashTests` pins them.
enum FeatureHash {
    /// Namespaces keep features of different families apart in the same buckets.
    enum Namespace: UInt64 {
        case word = 0x1
        case negatedWord = 0x2
        case bigram = 0x3
        case trigram = 0x4
        case char = 0x5
        case hashtag = 0x6
        case negatedChar = 0x7
        case contrastWord = 0x8
    }

    /// splitmix64's finalizer: a strong, cheap 64-bit mix.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        ctk_mix64(value)
    }

    /// A feature of one family from a token hash.
    @inline(__always)
    static func feature(_ namespace: Namespace, _ hash: UInt64) -> UInt64 {
        ctk_feature64(namespace.rawValue, hash)
    }

    /// An ordered pair of hashes (bigrams, and trigrams by chaining).
    @inline(__always)
    static func combine(_ a: UInt64, _ b: UInt64) -> UInt64 {
        ctk_pair64(a, b)
    }

    /// FNV-1a step for rolling byte n-grams.
    static let fnvOffset: UInt64 = 0xCBF2_9CE4_8422_2325
    static let fnvPrime: UInt64 = 0x0000_0100_0000_01B3
}
