/// The two fields of a `manifest.json` that say what it is: `format` and
/// `formatVersion`, read before the rest, whose shape depends on them. A
/// newer format may name its other fields differently, and a manifest of
/// another tool has none of them: either is told by these two alone.
///
/// Each is nil when absent or not of its type (a number for `format`): the
/// header of any JSON object decodes.
struct ManifestHeader: Decodable {
    var format: String?
    var formatVersion: Int?

    private enum CodingKeys: String, CodingKey {
        case format, formatVersion
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try? container.decode(String.self, forKey: .format)
        formatVersion = try? container.decode(Int.self, forKey: .formatVersion)
    }

    /// Why a manifest with this header is not one this build reads, or nil
    /// when it may be: not a swift-sentiment model (no `format`, or another
    /// one), or a format version it does not read. A manifest with no
    /// `formatVersion` is left to the full decoding to name the key.
    func problem(path: String) -> ModelError? {
        guard let format else {
            return .malformedManifest(path: path, reason: "not a swift-sentiment model: no \"format\" (a string), "
                + "expected \"\(ModelManifest.formatName)\"")
        }
        guard format == ModelManifest.formatName else {
            return .malformedManifest(path: path, reason: "not a swift-sentiment model: format is \"\(format)\", "
                + "expected \"\(ModelManifest.formatName)\"")
        }
        if let formatVersion, !ModelManifest.readableFormatVersions.contains(formatVersion) {
            return .unsupportedVersion(path: path, found: formatVersion, supported: ModelManifest.currentFormatVersion)
        }
        return nil
    }
}
