/// The hashing that turns tokens and n-grams into bucket numbers. Model files
/// depend on every constant here: changing one changes every feature index.
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
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A feature of one family from a token hash.
    @inline(__always)
    static func feature(_ namespace: Namespace, _ hash: UInt64) -> UInt64 {
        mix(hash ^ (namespace.rawValue &* 0xD6E8_FEB8_6659_FD93))
    }

    /// An ordered pair of hashes (bigrams, and trigrams by chaining).
    @inline(__always)
    static func combine(_ a: UInt64, _ b: UInt64) -> UInt64 {
        mix(a &* 0x9FB2_1C65_1E98_DF25 ^ b)
    }

    /// FNV-1a step for rolling byte n-grams.
    static let fnvOffset: UInt64 = 0xCBF2_9CE4_8422_2325
    static let fnvPrime: UInt64 = 0x0000_0100_0000_01B3
}
