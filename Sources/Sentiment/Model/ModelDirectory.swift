import Crypto
import Foundation

/// Reading and writing a model directory: `manifest.json` beside the weights
/// file and, for models that have one, the letter model (`letters.bin`).
enum ModelDirectory {
    static let manifestName = "manifest.json"
    static let weightsName = "weights.bin"

    /// Loads and checks a model: the manifest's format and version, every size,
    /// the weights' checksum, and that no weight is NaN or infinite.
    static func load(_ directory: URL) throws(ModelError) -> SentimentModel {
        let manifestURL = directory.appendingPathComponent(manifestName)
        let manifestData = try read(manifestURL)
        // What the manifest is before what it holds: a newer format's fields may
        // differ, and another tool's manifest.json has none of ours. (Data that
        // is not a JSON object is left to the full decoding to describe.)
        if let header = try? JSONDecoder().decode(ManifestHeader.self, from: manifestData),
           let problem = header.problem(path: manifestURL.path) {
            throw problem
        }
        let manifest: ModelManifest
        do {
            manifest = try JSONDecoder().decode(ModelManifest.self, from: manifestData)
        } catch DecodingError.dataCorrupted(let context)
            where context.codingPath.isEmpty && (try? JSONSerialization.jsonObject(with: manifestData)) != nil {
            // Foundation's decoder says "not valid JSON", naming no key, for a number
            // that does not fit its field (a negative seed, a fraction for options).
            throw .malformedManifest(path: manifestURL.path, reason: "a number does not fit its field "
                + "(a negative or fractional seed, option or size, or one too large); the JSON itself is valid")
        } catch {
            throw .malformedManifest(path: manifestURL.path, reason: describe(error))
        }
        guard manifest.labels == SentimentLabel.allCases.map(\.rawValue) else {
            throw .malformedManifest(path: manifestURL.path, reason: "labels must be [\"negative\", \"neutral\", \"positive\"]")
        }
        let legacyColumn = try legacyDenseColumn(manifest.dense, path: manifestURL.path)
        if let problem = manifest.denseRange?.problem {
            throw .malformedManifest(path: manifestURL.path, reason: problem)
        }
        // Scores are divided by the temperature and offset in Float: a temperature
        // near 0 would overflow them to infinity and the probabilities to NaN.
        guard manifest.decision.isUsable else {
            throw .malformedManifest(path: manifestURL.path, reason: decisionProblem)
        }
        do { try manifest.features.validate() } catch {
            throw .malformedManifest(path: manifestURL.path, reason: error.description)
        }
        guard Lexicon.bitsRange.contains(manifest.lexiconBits) else {
            throw .malformedManifest(path: manifestURL.path, reason: "lexiconBits \(manifest.lexiconBits) not in \(Lexicon.bitsRange)")
        }

        // The files the manifest names are the directory's own: a name with a
        // "/" (or "." or "..") would have read a file elsewhere as the model's.
        try checkFileName(manifest.weights.file, field: "weights.file", path: manifestURL.path)
        if let letters = manifest.letters {
            try checkFileName(letters.file, field: "letters.file", path: manifestURL.path)
        }
        let weightsURL = directory.appendingPathComponent(manifest.weights.file)
        let (weights, length, digest) = try WeightsFile.read(
            weightsURL, expectedVersion: manifest.formatVersion, expectedBucketBits: manifest.features.bucketBits, expectedLexiconBits: manifest.lexiconBits)
        guard length == manifest.weights.bytes else {
            throw .sizeMismatch(path: weightsURL.path, what: "file length", expected: manifest.weights.bytes, found: length)
        }
        guard digest == manifest.weights.sha256.lowercased() else {
            throw .checksumMismatch(path: weightsURL.path, expected: manifest.weights.sha256, found: digest)
        }
        var loaded = try weights.get()
        if let j = legacyColumn {
            // The column was always 0 when the model was trained: keep it out.
            loaded.denseScale[j] = 0
            for c in 0..<ModelWeights.classes { loaded.dense[ModelWeights.classes * j + c] = 0 }
        }
        let letters = try manifest.letters.map { reference throws(ModelError) in try readLetters(reference, in: directory) }
        return SentimentModel(manifest: manifest, weights: loaded, letters: letters, directory: directory)
    }

    /// Why a manifest's decision rule is refused (`DecisionRule.isUsable`).
    static let decisionProblem = "decision needs a temperature from 0.001 to 1000 and three finite class offsets"

    /// Refuses a file name of the manifest (`field`) that is not the name of a
    /// file in the model directory: empty, ".", ".." or holding a "/" (or a
    /// NUL, which no file name holds).
    private static func checkFileName(_ name: String, field: String, path: String) throws(ModelError) {
        guard name.isEmpty || name == "." || name == ".." || name.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == 0 }) else { return }
        throw .malformedManifest(path: path, reason: "\(field) \"\(name)\" is not a file name in the model directory "
            + "(a name with no \"/\", not \".\" or \"..\")")
    }

    /// The letter model a manifest names, checked against its size and checksum.
    private static func readLetters(_ reference: ModelManifest.WeightsReference, in directory: URL) throws(ModelError) -> LetterModel {
        let url = directory.appendingPathComponent(reference.file)
        let data = try read(url)
        guard data.count == reference.bytes else {
            throw .sizeMismatch(path: url.path, what: "file length", expected: reference.bytes, found: data.count)
        }
        let digest = sha256(data)
        guard digest == reference.sha256.lowercased() else {
            throw .checksumMismatch(path: url.path, expected: reference.sha256, found: digest)
        }
        guard let letters = LetterModel(fileBytes: data) else { throw .notALetterModel(path: url.path) }
        return letters
    }

    /// Checks the manifest's dense features against this build's. Returns the
    /// column a model from before `emoticonPolarity` left "reserved", or nil.
    private static func legacyDenseColumn(_ dense: [String], path: String) throws(ModelError) -> Int? {
        var names = DenseFeature.allCases.map(\.name)
        if dense == names { return nil }
        let column = DenseFeature.emoticonPolarity.rawValue
        names[column] = DenseFeature.legacyReservedName
        guard dense == names else {
            throw .malformedManifest(path: path, reason: "dense features differ from this build's")
        }
        return column
    }

    /// Writes the weights, the letter model (when there is one) and the
    /// manifest with their sizes and checksums filled in. Returns the manifest
    /// as written.
    ///
    /// Each file is written in full under a temporary name in `directory`
    /// first, and only then are they renamed into place, the manifest last: a
    /// write that fails (a full disk) removes the temporary files and leaves
    /// the model saved there before as it was, instead of new weights beside
    /// the old manifest, which then failed its checksum. A save killed part way
    /// leaves its temporary files (`stagingName`); the next save into the
    /// directory removes them. Saves into one directory take turns (a lock on
    /// the directory), so no save removes the files of one still running.
    ///
    /// The renames are undone when one fails: the files already renamed into
    /// place go back to the ones they replaced (kept as hard links under
    /// staging names until the save is done), so the model saved there before
    /// loads as it did, not new weights beside the old manifest. (A save
    /// killed between two renames, a window of microseconds, still leaves a
    /// mix, which fails its checksum on loading.)
    ///
    /// - Parameters:
    ///   - write: writes `data` to a new file at a URL (tests make it fail).
    ///   - move: renames a file, as `rename(2)` does (tests make it fail).
    @discardableResult
    static func save(manifest: ModelManifest, weights: ModelWeights, letters: LetterModel? = nil,
                     to directory: URL,
                     write: (_ data: Data, _ url: URL) throws -> Void = { try $0.write(to: $1, options: .withoutOverwriting) },
                     move: (_ from: String, _ to: String) -> Int32 = { rename($0, $1) })
        throws(ModelError) -> ModelManifest {
        let bytes = Data(WeightsFile.encode(weights))
        let letterBytes = letters.map { Data($0.fileBytes) }
        var manifest = manifest
        manifest.formatVersion = ModelManifest.currentFormatVersion
        manifest.weights = .init(file: weightsName, bytes: bytes.count, sha256: sha256(bytes))
        manifest.letters = letterBytes.map { .init(file: LetterModel.fileName, bytes: $0.count, sha256: sha256($0)) }
        manifest.lexiconBits = weights.lexicon.bits
        let weightsURL = directory.appendingPathComponent(weightsName)
        let manifestURL = directory.appendingPathComponent(manifestName)
        // Encoded before either file is written: a manifest that cannot be
        // (a NaN metric) must not leave new weights beside the old manifest.
        let manifestJSON: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            manifestJSON = try encoder.encode(manifest) + Data("\n".utf8)
        } catch {
            throw .writeFailed(path: manifestURL.path, reason: describe(error))
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: weightsURL.path, reason: describe(error))
        }
        // One save here at a time, released when the descriptor closes. Where the
        // lock cannot be had (a file system without it), nothing is cleaned up.
        let lock = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if lock >= 0 { close(lock) } }
        if lock >= 0, lockExclusively(lock) { removeStaleStagingFiles(in: directory) }
        // The manifest last: it is what makes the other files a model.
        let files = [(weightsName, bytes)] + (letterBytes.map { [(LetterModel.fileName, $0)] } ?? []) + [(manifestName, manifestJSON)]
        let tag = UUID().uuidString
        var staged: [(temporary: URL, final: URL)] = []
        for (name, data) in files {
            let final = directory.appendingPathComponent(name)
            let temporary = directory.appendingPathComponent(stagingName(name, tag: tag))
            do {
                try write(data, temporary)
            } catch {
                unlink(temporary.path)  // a part written
                for file in staged { unlink(file.temporary.path) }
                throw .writeFailed(path: final.path, reason: describe(error))
            }
            staged.append((temporary, final))
        }
        // The files each rename replaces, kept to be put back if a later rename fails.
        let backupTag = UUID().uuidString
        let backups: [URL?] = staged.map { file in
            let backup = directory.appendingPathComponent(stagingName(file.final.lastPathComponent, tag: backupTag))
            return link(file.final.path, backup.path) == 0 ? backup : nil
        }
        defer { for case let backup? in backups { unlink(backup.path) } }
        for (index, file) in staged.enumerated() {
            guard move(file.temporary.path, file.final.path) == 0 else {
                let reason = String(cString: strerror(errno))
                for rest in staged[index...] { unlink(rest.temporary.path) }
                for done in (0..<index).reversed() {
                    if let backup = backups[done] { _ = move(backup.path, staged[done].final.path) } else { unlink(staged[done].final.path) }
                }
                throw .writeFailed(path: file.final.path, reason: reason)
            }
        }
        if letterBytes == nil {
            // A letter model left by the model saved here before belongs to no
            // manifest now: remove it, so the folder holds this model alone.
            let stale = directory.appendingPathComponent(LetterModel.fileName)
            if FileManager.default.fileExists(atPath: stale.path) {
                do {
                    try FileManager.default.removeItem(at: stale)
                } catch {
                    throw .writeFailed(path: stale.path, reason: "the model is saved, but the old letter model beside it cannot be removed: \(describe(error))")
                }
            }
        }
        return manifest
    }

    /// The hidden name `save` writes the model file `name` under before renaming
    /// it into place: `.weights.bin.UUID.tmp`, `tag` a `UUID().uuidString`.
    static func stagingName(_ name: String, tag: String) -> String {
        ".\(name).\(tag).tmp"
    }

    /// Whether `fileName` is a `stagingName` of a model file (`SentimentModel.fileNames`), its tag an
    /// upper-case UUID as `UUID().uuidString` gives: a file only `save` makes.
    static func isStagingName(_ fileName: String) -> Bool {
        SentimentModel.fileNames.contains { name in
            let prefix = ".\(name).", suffix = ".tmp"
            guard fileName.hasPrefix(prefix), fileName.hasSuffix(suffix),
                  fileName.count == prefix.count + 36 + suffix.count else { return false }
            let tag = String(fileName.dropFirst(prefix.count).dropLast(suffix.count))
            return UUID(uuidString: tag)?.uuidString == tag
        }
    }

    /// Removes from `directory` the regular files named as `save` stages its
    /// files (`isStagingName`): those of a save killed part way, which no one
    /// else would ever remove. Only under the directory's lock, so none is a
    /// running save's; one that cannot be removed stays.
    private static func removeStaleStagingFiles(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where isStagingName(name) {
            let path = directory.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            unlink(path)
        }
    }

    /// Takes an exclusive `flock` on `descriptor`, waiting for another holder
    /// (a save into the same directory) to let go; false when the file system
    /// has no such locks.
    private static func lockExclusively(_ descriptor: Int32) -> Bool {
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The bytes of a regular file, or `missing` or `unreadable` naming it.
    static func read(_ url: URL) throws(ModelError) -> Data {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            // A folder the user may not enter is not a missing model ("Permission denied").
            guard errno == ENOENT || errno == ENOTDIR else {
                throw .unreadable(path: url.path, reason: String(cString: strerror(errno)))
            }
            throw .missing(path: url.path)
        }
        // A FIFO would block the read and a device (`/dev/zero`) never end.
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(path: url.path, reason: "not a regular file")
        }
        do {
            return try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            // Foundation's own text ("You don't have permission") says less than the system's.
            // On Linux the underlying error casts to `Error`, not straight to `NSError`.
            let underlying = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
            if let underlying, underlying.domain == NSPOSIXErrorDomain {
                throw .unreadable(path: url.path, reason: String(cString: strerror(Int32(underlying.code))))
            }
            throw .unreadable(path: url.path, reason: describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .keyNotFound(let key, let context):
                return "missing key \"\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))\""
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                let path = context.codingPath.map(\.stringValue).joined(separator: ".")
                return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
            @unknown default:
                return "\(decoding)"
            }
        }
        // Foundation's file errors say "The operation could not be completed" over the system's reason.
        let error = error as NSError
        let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        for candidate in [underlying, error].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code)))
        }
        return error.localizedDescription
    }
}
