import CTokenizer
import Foundation
import Testing
@testable import Sentiment

@Suite("Model files")
struct ModelFileTests {
    // MARK: Round trip

    @Test("A saved model loads back with the same predictions")
    func savedModelLoadsBack() throws {
        let model = try Fixtures.smallModel()
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let saved = try model.save(to: directory)
        let texts = Fixtures.sample.map(\.text)
        #expect(saved.classify(texts) == model.classify(texts))
        #expect(saved.manifest.weights.sha256.count == 64)
        #expect(saved.id.hasPrefix("default@1.0.0+"))
        // Saving again over it leaves the two files and nothing beside them.
        _ = try model.save(to: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["manifest.json", "weights.bin"])
    }

    @Test("The model id changes with the decision rule and the weights, not with the training date")
    func idFollowsPredictions() throws {
        let model = try Fixtures.smallModel()
        var manifest = model.manifest
        manifest.training?.date = "1999-01-01T00:00:00Z"
        #expect(SentimentModel(manifest: manifest, weights: model.weights, directory: nil).id == model.id)
        manifest.decision.temperature *= 1.5
        #expect(SentimentModel(manifest: manifest, weights: model.weights, directory: nil).id != model.id)
        manifest = model.manifest
        manifest.weights.sha256 = String(repeating: "0", count: 64)
        #expect(SentimentModel(manifest: manifest, weights: model.weights, directory: nil).id != model.id)
    }

    @Test("The model id changes with the contrast-word setting, and the shipped model keeps its id")
    func idFollowsContrastWords() throws {
        let model = try Fixtures.smallModel()
        var manifest = model.manifest
        manifest.features.contrastWords.toggle()
        #expect(SentimentModel(manifest: manifest, weights: model.weights, directory: nil).id != model.id)
        #expect(try SentimentModel.loadDefault().id == "default@1.0.0+43286585")
    }

    @Test("The model id names the emoji-faces table's revision when the model reads emoji as emoticons, and only then")
    func idFollowsEmojiFacesRevision() throws {
        var manifest = try Fixtures.smallModel().manifest
        manifest.features.tokenizerOptions |= UInt32(CTK_OPT_EMOJI_FACES)
        let current = SentimentModel.fingerprint(manifest)
        #expect(SentimentModel.fingerprint(manifest, emojiFacesRevision: Int(CTK_EMOJI_FACES_REVISION) + 1) != current)
        #expect(SentimentModel.fingerprint(manifest, emojiFacesRevision: 1) != current)
        manifest.features.tokenizerOptions &= ~UInt32(CTK_OPT_EMOJI_FACES)
        #expect(SentimentModel.fingerprint(manifest, emojiFacesRevision: 3) == SentimentModel.fingerprint(manifest, emojiFacesRevision: 2))
    }

    @Test("The model id names the language test's and the tokenizer's revisions, so a cached prediction made by older rules is not taken for a current one")
    func idFollowsLanguageAndTokenizerRevisions() throws {
        let manifest = try Fixtures.smallModel().manifest
        let current = SentimentModel.fingerprint(manifest)
        #expect(SentimentModel.fingerprint(manifest, languageRevision: 1) != current)
        #expect(SentimentModel.fingerprint(manifest, languageRevision: LanguageDetector.revision + 1) != current)
        #expect(SentimentModel.fingerprint(manifest, tokenizerRevision: 1) != current)
        #expect(SentimentModel.fingerprint(manifest, tokenizerRevision: Int(CTK_TOKENIZER_REVISION) + 1) != current)
        // Revision 1 of each adds nothing: the ids published before them stay (see DenseRangeTests' d45280c9).
        #expect(SentimentModel.fingerprint(manifest, languageRevision: 1, tokenizerRevision: 1)
            != SentimentModel.fingerprint(manifest, languageRevision: 1))
    }

    // MARK: Failures name the file

    @Test("Feature settings of a manifest written before negated character n-grams read as off")
    func olderFeatureSettingsDecode() throws {
        let json = #"{"bucketBits":20,"hashSeed":1,"wordNgrams":2,"charNgramMin":3,"charNgramMax":5,"charGroupWeight":1,"tokenizerOptions":7}"#
        let settings = try JSONDecoder().decode(FeatureSettings.self, from: Data(json.utf8))
        #expect(settings.negatedCharNgrams == false)
        #expect(settings.bucketBits == 20 && settings.charNgramMax == 5)
        let roundTrip = try JSONDecoder().decode(FeatureSettings.self, from: JSONEncoder().encode(FeatureSettings.standard))
        #expect(roundTrip == FeatureSettings.standard)
    }

    /// A small model saved to a fresh directory, its weights file then changed by `damage`.
    static func savedModel(damagingWeights damage: (inout Data) -> Void) throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        _ = try Fixtures.smallModel().save(to: directory)
        let weightsURL = directory.appendingPathComponent("weights.bin")
        var bytes = try Data(contentsOf: weightsURL)
        damage(&bytes)
        try bytes.write(to: weightsURL)
        return directory
    }

    @Test("A missing model directory fails as missing, naming the manifest")
    func missingDirectoryFails() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let directory = folder.appendingPathComponent("nothing")
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard let error = error as? ModelError, error.isMissing else { return false }
            return error.description.contains("manifest.json")
        }
    }

    @Test("A weights file with one flipped byte fails the checksum")
    func corruptedWeightsFailChecksum() throws {
        let directory = try Self.savedModel(damagingWeights: { $0[100] ^= 0xFF })
        defer { Fixtures.remove(directory) }
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard case .checksumMismatch(let path, _, _)? = error as? ModelError else { return false }
            return path.hasSuffix("weights.bin")
        }
    }

    @Test("A weights file whose magic number is damaged fails the checksum, not the magic test")
    func damagedHeaderFailsChecksumFirst() throws {
        let directory = try Self.savedModel(damagingWeights: { $0[0] = 0x00 })
        defer { Fixtures.remove(directory) }
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard case .checksumMismatch? = error as? ModelError else { return false }
            return true
        }
    }

    // MARK: The letter model

    @Test("A model with a letter model saves it beside the weights and loads it back, id and all")
    func letterModelRoundTrip() throws {
        let model = try SentimentModel.loadDefault()
        let letters = try #require(model.languageDetector.letters, "the shipped model has a letter model")
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let saved = try model.save(to: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["letters.bin", "manifest.json", "weights.bin"])
        #expect(saved.languageDetector.letters == letters)
        #expect(saved.manifest.letters == model.manifest.letters)
        #expect(saved.id == model.id)
        var manifest = model.manifest
        manifest.letters?.sha256 = String(repeating: "0", count: 64)
        #expect(SentimentModel(manifest: manifest, weights: model.weights, directory: nil).id != model.id,
                "the letter model decides which texts get no label, so it is part of the id")
    }

    @Test("Saving a model without a letter model where one with it was saved removes the old letters.bin")
    func savingWithoutLettersRemovesStaleFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try SentimentModel.loadDefault().save(to: directory)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("letters.bin").path))
        let small = try Fixtures.smallModel()
        #expect(small.languageDetector.letters == nil, "the fixture model is trained on too few texts for a letter model")
        let saved = try small.save(to: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["manifest.json", "weights.bin"])
        #expect(saved.manifest.letters == nil)
        #expect(try SentimentModel.load(from: directory).id == small.id)
    }

    @Test("A damaged or missing letter model fails the load, naming the file")
    func damagedLetterModelFails() throws {
        let model = try SentimentModel.loadDefault()
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try model.save(to: directory)
        let url = directory.appendingPathComponent("letters.bin")
        var bytes = try Data(contentsOf: url)
        bytes[1000] ^= 0xFF
        try bytes.write(to: url)
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard case .checksumMismatch(let path, _, _)? = error as? ModelError else { return false }
            return path.hasSuffix("letters.bin")
        }
        try FileManager.default.removeItem(at: url)
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard case .missing(let path)? = error as? ModelError else { return false }
            return path.hasSuffix("letters.bin")
        }
    }

    @Test("A letters.bin whose size and checksum match the manifest but which is not a letter model is refused as letters.bin, not as a malformed manifest")
    func wrongLetterContentFails() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try SentimentModel.loadDefault().save(to: directory)
        let url = directory.appendingPathComponent("letters.bin")
        var bytes = try Data(contentsOf: url)
        bytes[0] = UInt8(ascii: "X")  // the mark, "SSLETTR1", no longer
        try bytes.write(to: url)
        let manifestURL = directory.appendingPathComponent("manifest.json")
        var manifest = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: manifestURL))
        manifest.letters?.sha256 = ModelDirectory.sha256(bytes)
        try JSONEncoder().encode(manifest).write(to: manifestURL)
        do {
            _ = try SentimentModel.load(from: directory)
            Issue.record("the model loaded")
        } catch {
            #expect(error == .notALetterModel(path: url.path))
            #expect(error.description == "\(url.path): not a letter model (707289 bytes starting \"SSLETTR1\")")
            #expect(!error.isMissing)
        }
    }

    @Test("A missing weights file fails as missing, naming it")
    func missingWeightsFail() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try Fixtures.smallModel().save(to: directory)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("weights.bin"))
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard let error = error as? ModelError, error.isMissing else { return false }
            return error.description.contains("weights.bin")
        }
    }

    @Test("A weights file or manifest that is a FIFO or a device is refused, not read forever",
          .timeLimit(.minutes(1)), arguments: ["weights.bin", "manifest.json"])
    func specialFilesAreRefused(name: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try Fixtures.smallModel().save(to: directory)
        let file = directory.appendingPathComponent(name)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/dev/zero")
        #expect(throws: ModelError.unreadable(path: file.path, reason: "not a regular file")) {
            try SentimentModel.load(from: directory)
        }
        try FileManager.default.removeItem(at: file)
        #expect(mkfifo(file.path, 0o600) == 0)
        #expect(throws: ModelError.unreadable(path: file.path, reason: "not a regular file")) {
            try SentimentModel.load(from: directory)
        }
    }

    @Test("Saving a model that cannot load (a NaN weight, a NaN metric, a class offset beyond a Float) fails before writing, and the model saved there before stays as it was")
    func failedSaveLeavesTheSavedModel() throws {
        let model = try Fixtures.smallModel()
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try model.save(to: directory)
        let files = try ["manifest.json", "weights.bin"].map { try Data(contentsOf: directory.appendingPathComponent($0)) }

        var weights = model.weights
        weights.dense[2] = .infinity
        let broken = SentimentModel(manifest: model.manifest, weights: weights, directory: nil)
        #expect(throws: ModelError.nonFiniteWeight(path: directory.appendingPathComponent("weights.bin").path,
                                                   index: weights.sparse.count + 2)) {
            try broken.save(to: directory)
        }
        var metric = Evaluation().record(file: "dev.tsv")
        metric.macroRecall = .nan
        #expect(throws: ModelError.self) { try model.save(to: directory, metrics: ["dev": metric]) }
        var manifest = model.manifest
        manifest.decision.classOffsets[0] = 1e39  // finite as a Double, infinite as the Float it is scored in
        #expect(throws: ModelError.self) { try SentimentModel(manifest: manifest, weights: model.weights, directory: nil).save(to: directory) }

        #expect(try ["manifest.json", "weights.bin"].map { try Data(contentsOf: directory.appendingPathComponent($0)) } == files)
        #expect(try SentimentModel.load(from: directory).id == model.id)
    }

    @Test("A save into a folder under a regular file fails with the system's reason, not 'The operation could not be completed'")
    func saveUnderAFileSaysWhy() throws {
        let model = try Fixtures.smallModel()
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let file = directory.appendingPathComponent("plain-file")
        try Data("not a folder".utf8).write(to: file)
        #expect {
            _ = try model.save(to: file.appendingPathComponent("sub"))
        } throws: { error in
            let description = (error as? ModelError)?.description ?? ""
            return description.contains("Not a directory") && !description.contains("could not be completed")
        }
    }

    /// Where a save into a directory holding a model fails.
    enum SaveFailure: String, CaseIterable, CustomTestStringConvertible {
        /// The manifest cannot be written (a full disk): nothing was renamed yet.
        case manifestWrite
        /// The manifest cannot be renamed into place (EIO), after the weights were.
        case manifestRename
        var testDescription: String { rawValue }
    }

    @Test("A save whose manifest cannot be written (a full disk) or renamed into place leaves the model saved there before as it was, and no temporary files",
          arguments: SaveFailure.allCases)
    func saveFailingPartWayLeavesTheSavedModel(failure: SaveFailure) throws {
        let model = try Fixtures.smallModel()
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try model.save(to: directory)
        let names = ["manifest.json", "weights.bin"]
        let files = try names.map { try Data(contentsOf: directory.appendingPathComponent($0)) }

        var weights = model.weights
        weights.bias[0] += 1
        var renames = 0
        #expect(throws: ModelError.self) {
            try ModelDirectory.save(manifest: model.manifest, weights: weights, to: directory, write: { data, url in
                guard failure != .manifestWrite || !url.lastPathComponent.contains("manifest") else {
                    throw CocoaError(.fileWriteOutOfSpace)
                }
                try data.write(to: url)
            }, move: { from, to in
                renames += 1
                // The weights go into place; the manifest's rename fails (EIO); the weights' undoing succeeds.
                guard failure != .manifestRename || renames != 2 else { errno = EIO; return -1 }
                return rename(from, to)
            })
        }
        #expect(renames == (failure == .manifestRename ? 3 : 0))
        #expect(try names.map { try Data(contentsOf: directory.appendingPathComponent($0)) } == files)
        #expect(try SentimentModel.load(from: directory).id == model.id)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == names)
    }

    @Test("A save into a new directory whose manifest cannot be renamed into place leaves no weights behind")
    func saveFailingAtARenameInANewDirectoryLeavesNothing() throws {
        let model = try Fixtures.smallModel()
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        var renames = 0
        #expect(throws: ModelError.self) {
            try ModelDirectory.save(manifest: model.manifest, weights: model.weights, to: directory, move: { from, to in
                renames += 1
                guard renames != 2 else { errno = EIO; return -1 }
                return rename(from, to)
            })
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("A save removes the temporary files a save killed part way left in the directory, and nothing else, however like them it is named")
    func saveRemovesStaleStagingFiles() throws {
        let model = try Fixtures.smallModel()
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let tag = UUID().uuidString
        let stale = [".weights.bin.\(tag).tmp", ".manifest.json.\(UUID().uuidString).tmp", ".letters.bin.\(tag).tmp"]
        let kept = [".weights.bin.tmp", ".weights.bin.\(tag.lowercased()).tmp", "weights.bin.\(tag).tmp", ".notes.txt.\(tag).tmp",
                    ".weights.bin.\(tag).tmp.bak", ".weights.bin.\(tag)X.tmp", ".manifest.json.\(tag.dropLast()).tmp", "notes.txt"]
        for name in stale + kept {
            try Data("part".utf8).write(to: directory.appendingPathComponent(name))
        }
        // A folder or a link named as a staged file is not one this code made.
        let folderName = ".manifest.json.\(UUID().uuidString).tmp"
        try manager.createDirectory(at: directory.appendingPathComponent(folderName), withIntermediateDirectories: false)
        let outside = directory.appendingPathComponent("notes.txt")
        let linkName = ".weights.bin.\(UUID().uuidString).tmp"
        try manager.createSymbolicLink(at: directory.appendingPathComponent(linkName), withDestinationURL: outside)

        let saved = try model.save(to: directory)
        #expect(saved.id == model.id)
        #expect(try manager.contentsOfDirectory(atPath: directory.path).sorted()
                == (kept + [folderName, linkName, "manifest.json", "weights.bin"]).sorted())
        #expect(try Data(contentsOf: outside) == Data("part".utf8))
    }

    @Test("A save waits for one running in the same directory (holding its lock) and leaves that one's temporary files alone")
    func saveWaitsForARunningSave() async throws {
        let model = try Fixtures.smallModel()
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let staged = directory.appendingPathComponent(".weights.bin.\(UUID().uuidString).tmp")
        try Data("running".utf8).write(to: staged)
        let lock = open(directory.path, O_RDONLY | O_DIRECTORY)
        try #require(lock >= 0 && flock(lock, LOCK_EX) == 0)
        // On a thread of its own: the save blocks on the lock, which no task should.
        let save = Task {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                Thread.detachNewThread { continuation.resume(with: Result<String, any Error> { try model.save(to: directory).id }) }
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(FileManager.default.fileExists(atPath: staged.path), "the running save's file is left while it holds the lock")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.json").path), "the second save waits")
        close(lock)
        #expect(try await save.value == model.id)
        #expect(!FileManager.default.fileExists(atPath: staged.path), "once the first let go, its file counts as left behind")
    }

    @Test("A NaN weight or sparse scale saved with a matching checksum is refused on loading, each as what it is (a scale is not weight 0), and the scale by saving too")
    func savedNaNIsRefused() throws {
        let model = try Fixtures.smallModel()
        var weights = model.weights
        weights.dense[7] = .nan
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try ModelDirectory.save(manifest: model.manifest, weights: weights, to: directory)
        let path = directory.appendingPathComponent("weights.bin").path
        #expect(throws: ModelError.nonFiniteWeight(path: path, index: weights.sparse.count + 7)) {
            try SentimentModel.load(from: directory)
        }
        weights = model.weights
        weights.sparse = SparseWeights(values: weights.sparse.values, scale: .nan)
        _ = try ModelDirectory.save(manifest: model.manifest, weights: weights, to: directory)
        #expect(throws: ModelError.nonFiniteScale(path: path)) {
            try SentimentModel.load(from: directory)
        }
        #expect(throws: ModelError.nonFiniteScale(path: path)) {
            try SentimentModel(manifest: model.manifest, weights: weights, directory: nil).save(to: directory)
        }
    }

    @Test("A finite weight too large to score with (3e38, which overflows a text's scores to NaN) saved with a matching checksum is refused on loading",
          arguments: [Float(3e38), -2e6])
    func hugeFiniteWeightIsRefused(value: Float) throws {
        let model = try Fixtures.smallModel()
        var weights = model.weights
        weights.dense[0] = value
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try ModelDirectory.save(manifest: model.manifest, weights: weights, to: directory)
        let path = directory.appendingPathComponent("weights.bin").path
        #expect(throws: ModelError.nonFiniteWeight(path: path, index: weights.sparse.count)) {
            try SentimentModel.load(from: directory)
        }
        weights.dense[0] = 1_000
        _ = try ModelDirectory.save(manifest: model.manifest, weights: weights, to: directory)
        #expect(try SentimentModel.load(from: directory).classify(["I love it"]).allSatisfy {
            [$0.probabilities.negative, $0.probabilities.neutral, $0.probabilities.positive].allSatisfy(\.isFinite)
        })
    }

    @Test("A truncated weights file fails on its length")
    func truncatedWeightsFail() throws {
        let directory = try Self.savedModel(damagingWeights: { $0 = Data($0.prefix(1000)) })
        defer { Fixtures.remove(directory) }
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard case .sizeMismatch(_, let what, _, let found)? = error as? ModelError else { return false }
            return what == "file length" && found == 1000
        }
    }

    @Test("A model written before the emoticon polarity feature loads with that column left out")
    func legacyReservedColumnLoads() throws {
        let model = try Fixtures.smallModel()
        let j = DenseFeature.emoticonPolarity.rawValue
        // A weight in the column that must not count once loaded.
        var weights = model.weights
        weights.denseScale[j] = 1
        weights.dense[3 * j + 2] = 5
        var manifest = model.manifest
        manifest.dense[j] = DenseFeature.legacyReservedName
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try ModelDirectory.save(manifest: manifest, weights: weights, to: directory)
        let loaded = try SentimentModel.load(from: directory)

        var without = weights
        without.denseScale[j] = 0
        without.dense[3 * j + 2] = 0
        let texts = Fixtures.sample.map(\.text) + ["so happy :) :D <3", "😡😡"]
        let expected = SentimentModel(manifest: manifest, weights: without, directory: nil).classify(texts)
        #expect(loaded.classify(texts) == expected)
        let counted = SentimentModel(manifest: manifest, weights: weights, directory: nil).classify(texts)
        #expect(counted[texts.count - 2] != expected[texts.count - 2], "the column's weight would have counted")
    }

    @Test("A manifest naming other dense features is refused")
    func otherDenseFeaturesAreRefused() throws {
        let model = try Fixtures.smallModel()
        var manifest = model.manifest
        manifest.dense[0] = "somethingElse"
        let reason = try Fixtures.malformedReason(loading: manifest, weights: model.weights)
        #expect(reason?.contains("dense features") == true, "\(reason ?? "loaded")")
    }

    @Test("A manifest that is not JSON fails as malformed")
    func malformedManifestFails() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try Fixtures.smallModel().save(to: directory)
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent("manifest.json"))
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard case .malformedManifest(let path, _)? = error as? ModelError else { return false }
            return path.hasSuffix("manifest.json")
        }
    }

    @Test("A manifest number that does not fit its field is named as such, not as JSON that is not valid")
    func outOfRangeNumberIsNamed() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try Fixtures.smallModel().save(to: directory)
        let url = directory.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let seed = try #require(text.range(of: #""hashSeed" : [0-9]+"#, options: .regularExpression))
        try text.replacingCharacters(in: seed, with: #""hashSeed" : -5"#).write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard case .malformedManifest(_, let reason)? = error as? ModelError else { return false }
            return reason.hasPrefix("a number does not fit its field") && !reason.contains("not valid JSON")
        }
    }

    @Test("A temperature so small that scores would overflow, or an offset beyond a Float, is refused on loading",
          arguments: [1e-40, 1e-4, 2000, .infinity])
    func temperatureOutOfRangeIsRefused(temperature: Double) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let model = try Fixtures.smallModel()
        var manifest = model.manifest
        manifest.decision.temperature = temperature.isFinite ? temperature : 1
        if !temperature.isFinite { manifest.decision.classOffsets[1] = 1e300 }
        let data = try JSONEncoder().encode(manifest)
        _ = try model.save(to: directory)
        try data.write(to: directory.appendingPathComponent("manifest.json"))
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard case .malformedManifest(_, let reason)? = error as? ModelError else { return false }
            return reason.contains("temperature from 0.001 to 1000")
        }
    }

    @Test("A character weight beyond a Float (every probability was NaN) or above a million is refused on loading",
          arguments: [1e39, 2e6])
    func characterWeightOutOfRangeIsRefused(weight: Double) throws {
        let model = try Fixtures.smallModel()
        var manifest = model.manifest
        manifest.features.charGroupWeight = weight
        let reason = try Fixtures.malformedReason(loading: manifest, weights: model.weights)
        #expect(reason?.contains("charGroupWeight") == true, "\(reason ?? "loaded")")
        manifest.features.charGroupWeight = 1e6
        #expect(try Fixtures.malformedReason(loading: manifest, weights: model.weights) == nil)
    }

    @Test("A model file whose read fails counts as missing, with the system's reason for it")
    func unreadableFileIsMissing() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try Fixtures.smallModel().save(to: directory)
        // A regular file whose read fails even for root: the reading process's memory at address 0.
        let manifest = directory.appendingPathComponent("manifest.json")
        try FileManager.default.removeItem(at: manifest)
        try FileManager.default.createSymbolicLink(atPath: manifest.path, withDestinationPath: "/proc/self/mem")
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard let error = error as? ModelError, case .unreadable(_, let reason) = error else { return false }
            return error.isMissing && reason == "Input/output error"
        }
    }

    @Test("A model directory that cannot be looked into is reported with the system's reason, not as no such file")
    func directoryThatCannotBeEnteredIsNotMissing() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        // A path the system cannot follow even for root, as a folder without
        // search permission is for its other users: a symbolic link to itself.
        let loop = folder.appendingPathComponent("loop")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
        #expect {
            try SentimentModel.load(from: loop)
        } throws: { error in
            guard let error = error as? ModelError, case .unreadable(let path, let reason) = error else { return false }
            return path.hasSuffix("loop/manifest.json") && reason == "Too many levels of symbolic links"
        }
    }

    @Test("A manifest of a newer format version is refused")
    func newerFormatVersionIsRefused() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try Fixtures.smallModel().save(to: directory)
        let url = directory.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(of: "\"formatVersion\" : 2", with: "\"formatVersion\" : 99")
        try text.write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: ModelError.unsupportedVersion(path: url.path, found: 99, supported: 2)) {
            try SentimentModel.load(from: directory)
        }
    }

    @Test("A manifest of a newer format version whose fields changed is refused for its version, not for a missing key")
    func newerFormatWithOtherFieldsIsRefusedForItsVersion() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let url = directory.appendingPathComponent("manifest.json")
        try Data(#"{"format": "swift-sentiment-model", "formatVersion": 3, "model": {"title": "default"}}"#.utf8).write(to: url)
        #expect(throws: ModelError.unsupportedVersion(path: url.path, found: 3, supported: 2)) {
            try SentimentModel.load(from: directory)
        }
    }

    @Test("A manifest.json of something else, or with no format, is refused as not a swift-sentiment model",
          arguments: [#"{"format": "other-tool", "formatVersion": 1}"#, #"{"name": "default", "version": "1.0.0"}"#, #"{"format": 7}"#])
    func otherManifestIsNotAModel(json: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        let url = directory.appendingPathComponent("manifest.json")
        try Data(json.utf8).write(to: url)
        #expect {
            try SentimentModel.load(from: directory)
        } throws: { error in
            guard case .malformedManifest(let path, let reason)? = error as? ModelError else { return false }
            return path == url.path && reason.hasPrefix("not a swift-sentiment model") && reason.contains("\"swift-sentiment-model\"")
        }
    }

    @Test("A manifest naming a weights or letter file outside the model directory is refused, naming it, and nothing outside is read",
          arguments: ["../other/weights.bin", "/etc/passwd", "sub/weights.bin", "..", ".", "", "weights.bin\u{0}"])
    func fileNamesOutsideTheDirectoryAreRefused(name: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(folder) }
        let directory = folder.appendingPathComponent("model")
        let other = folder.appendingPathComponent("other")
        _ = try SentimentModel.loadDefault().save(to: directory)
        // A whole model beside it, whose files the names reach.
        _ = try SentimentModel.loadDefault().save(to: other)
        let url = directory.appendingPathComponent("manifest.json")
        let saved = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: url))
        for field in ["weights.file", "letters.file"] {
            var manifest = saved
            if field == "weights.file" { manifest.weights.file = name } else { manifest.letters?.file = name.replacingOccurrences(of: "weights", with: "letters") }
            let named = field == "weights.file" ? manifest.weights.file : manifest.letters!.file
            try JSONEncoder().encode(manifest).write(to: url)
            #expect {
                try SentimentModel.load(from: directory)
            } throws: { error in
                guard case .malformedManifest(let path, let reason)? = error as? ModelError else { return false }
                return path == url.path && reason.hasPrefix("\(field) \"\(named)\" is not a file name in the model directory")
            }
        }
    }

    @Test("A control character in a manifest's file name (a NUL, a line break, an ESC) is escaped in the error's description, which stays on one line")
    func controlCharactersInFileNamesAreEscaped() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { Fixtures.remove(directory) }
        _ = try Fixtures.smallModel().save(to: directory)
        let url = directory.appendingPathComponent("manifest.json")
        let saved = try JSONDecoder().decode(ModelManifest.self, from: Data(contentsOf: url))
        // Not test arguments, which the test runner prints as they are (an ESC and all).
        for (name, expected) in [("weights.bin\u{0}", #"malformed manifest: weights.file "weights.bin\0" is not a file name in the model directory"#),
                                 ("weights\n\u{1B}[2J.bin", #"/weights\n\u{1B}[2J.bin: no such file"#)] {
            var manifest = saved
            manifest.weights.file = name
            try JSONEncoder().encode(manifest).write(to: url)
            do {
                _ = try SentimentModel.load(from: directory)
                Issue.record("the model loaded")
            } catch {
                #expect(error.description.contains(expected), "\(error.description.debugDescription)")
                #expect(!error.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
                #expect((error as any Error).localizedDescription == error.description)
            }
        }
    }

    @Test("A weights file with a wrong magic number is refused")
    func wrongMagicIsRefused() throws {
        var weights = WeightsFile.encode(ModelWeights.zeros(bucketBits: 8, lexicon: .empty(bits: 8)))
        weights[0] = 0x00
        #expect(throws: ModelError.badMagic(path: "w.bin")) {
            try WeightsFile.decode(Data(weights), path: "w.bin", expectedBucketBits: 8, expectedLexiconBits: 8)
        }
    }

    @Test("A NaN weight is an error, never a score")
    func nanWeightIsAnError() throws {
        var model = ModelWeights.zeros(bucketBits: 8, lexicon: .empty(bits: 8))
        model.bias[1] = .nan
        let index = model.sparse.count + model.dense.count + model.denseMean.count + model.denseScale.count + 1
        #expect(throws: ModelError.nonFiniteWeight(path: "w.bin", index: index)) {
            try WeightsFile.decode(Data(WeightsFile.encode(model)), path: "w.bin", expectedBucketBits: 8, expectedLexiconBits: 8)
        }
    }
}
