import Foundation

/// A copy of the labelled TSV at `path`, in `folder`, whose labels have white
/// space around them (`"positive "`, `" Negative"`), as hand-edited or
/// spreadsheet-exported files have; the texts are as they were.
func spacedLabelsCopy(of path: String, in folder: TemporaryFolder) throws -> URL {
    let rows = try String(contentsOfFile: path, encoding: .utf8)
    let spaced = rows.replacingOccurrences(of: "\tpositive\t", with: "\tpositive \t")
        .replacingOccurrences(of: "\tnegative\t", with: "\t Negative\t")
    guard spaced.contains("\tpositive \t") && spaced.contains("\t Negative\t") else {
        throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
    }
    let url = folder.appendingPathComponent("spaced.tsv")
    try spaced.write(to: url, atomically: false, encoding: .utf8)
    return url
}
