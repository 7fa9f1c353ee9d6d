import Foundation

/// Why a model could not be loaded, saved or trained. Every case but
/// `invalidSettings` (options given to `Trainer`) names the file.
///
/// `description` is a one-line message naming the file and what is wrong,
/// and `localizedDescription` (`LocalizedError`) is the same, so an
/// application that logs errors generically shows it too. A control
/// character in a path or a manifest's file name (a NUL, a line break, an
/// ESC) is written there as an escape (`\0`, `\n`, `\u{1B}`), so the message
/// stays one line and prints safely on a terminal.
public enum ModelError: Sendable, Hashable, DescribedError {
    /// The file (or directory) does not exist.
    case missing(path: String)
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The manifest is not valid JSON of the expected shape.
    case malformedManifest(path: String, reason: String)
    /// The manifest or weights declare a format version this build does not
    /// read; `supported` is the newest it reads (it reads 1 to that).
    case unsupportedVersion(path: String, found: Int, supported: Int)
    /// The weights file does not start with the magic number.
    case badMagic(path: String)
    /// The letter model's file (`letters.bin`) is not one: its size and
    /// checksum are the manifest's, but it is not a mark and a whole table.
    case notALetterModel(path: String)
    /// A size in the file disagrees with the manifest or the file's length.
    case sizeMismatch(path: String, what: String, expected: Int, found: Int)
    /// The weights' SHA-256 differs from the manifest's.
    case checksumMismatch(path: String, expected: String, found: String)
    /// A weight is NaN, infinite, or larger in magnitude than
    /// 10⁶ (a finite weight so large that a
    /// text's scores could overflow to infinity and its probabilities to NaN).
    case nonFiniteWeight(path: String, index: Int)
    /// The sparse weights' scale (a format 2 header field) is NaN, infinite,
    /// or so large that the largest quantized weight would be beyond 10⁶.
    case nonFiniteScale(path: String)
    /// Feature or training settings that cannot be used.
    case invalidSettings(String)
    /// Writing the model failed.
    case writeFailed(path: String, reason: String)

    /// Whether a file of the model could not be read at all, missing or
    /// unreadable (rather than read and found bad): the CLI exits 66 for these
    /// and 65 for the rest.
    public var isMissing: Bool {
        switch self {
        case .missing, .unreadable: true
        default: false
        }
    }

    public var description: String { unescapedDescription.escapingControlCharacters }

    private var unescapedDescription: String {
        switch self {
        case .missing(let path): "\(path): no such file"
        case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
        case .malformedManifest(let path, let reason): "\(path): malformed manifest: \(reason)"
        case .unsupportedVersion(let path, let found, let supported):
            "\(path): format version \(found) is not supported (this build reads versions 1 to \(supported))"
        case .badMagic(let path): "\(path): not a swift-sentiment weights file (bad magic number)"
        case .notALetterModel(let path):
            "\(path): not a letter model (\(LetterModel.magic.count + LetterModel.entries) bytes starting \"\(String(decoding: LetterModel.magic, as: UTF8.self))\")"
        case .sizeMismatch(let path, let what, let expected, let found):
            "\(path): \(what) is \(found), expected \(expected)"
        case .checksumMismatch(let path, let expected, let found):
            "\(path): SHA-256 is \(found), the manifest says \(expected): the file is corrupt or was replaced"
        case .nonFiniteWeight(let path, let index): "\(path): weight \(index) is not a finite number within ±\(Int(ModelWeights.largestMagnitude))"
        case .nonFiniteScale(let path):
            "\(path): the sparse weights' scale (the header field at byte 24) is not a finite number small enough that \(Int(SparseWeights.levels)) steps of it stay within ±\(Int(ModelWeights.largestMagnitude))"
        case .invalidSettings(let reason): "invalid settings: \(reason)"
        case .writeFailed(let path, let reason): "\(path): cannot write: \(reason)"
        }
    }
}
