import Foundation

extension SentimentModel {
    /// The SHA-256 of a file as lower-case hex (used to record what a model was trained on).
    ///
    /// - Throws: `ModelError.missing` or `ModelError.unreadable` (a folder,
    ///   a FIFO, a file the user may not read), naming the file, as loading a
    ///   model does.
    public static func sha256(ofFile path: String) throws(ModelError) -> String {
        ModelDirectory.sha256(try ModelDirectory.read(URL(fileURLWithPath: path)))
    }
}
