import Crypto
import Foundation

extension SentimentModel {
    /// The SHA-256 of a file as lower-case hex (used to record what a model was trained on).
    public static func sha256(ofFile path: String) throws -> String {
        ModelDirectory.sha256(try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe))
    }
}
