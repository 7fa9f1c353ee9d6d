import Foundation

extension SentimentModel {
    /// Writes the model to `directory` (created if needed): `weights.bin`, the
    /// letter model (`letters.bin`) when it has one, and `manifest.json` with
    /// each file's size and SHA-256. Returns the model as
    /// loaded back from there, so what is returned is exactly what was written.
    /// A model that could not load (a NaN or infinite weight, a decision rule
    /// beyond a Float's range) or a manifest
    /// that cannot be written (a NaN metric) fails before any file is written,
    /// so a model already in `directory` stays as it was; so does one whose
    /// files cannot all be written (a full disk), since each is written under
    /// a temporary name and renamed into place only when all are complete.
    /// The temporary files a save killed part way left in `directory` are
    /// removed by the next save there; saves into one directory take turns.
    ///
    /// A `directory` URL with no scheme (`URL(string: "/srv/models/new")`)
    /// is read as a path, as `load(from:)` reads it.
    ///
    /// - Parameter metrics: evaluation results to record in the manifest, by data set name.
    public func save(to directory: URL, metrics: [String: ModelManifest.MetricsRecord] = [:]) throws(ModelError) -> SentimentModel {
        // Foundation writes to no scheme-less URL ("The specified URL type isn't supported").
        let directory = directory.scheme == nil ? URL(fileURLWithPath: directory.path) : directory
        var manifest = self.manifest
        manifest.metrics.merge(metrics) { $1 }
        let weightsPath = directory.appendingPathComponent(ModelDirectory.weightsName).path
        guard SparseWeights.isUsable(scale: weights.sparse.scale) else { throw .nonFiniteScale(path: weightsPath) }
        if let index = weights.firstNonFiniteIndex { throw .nonFiniteWeight(path: weightsPath, index: index) }
        guard manifest.decision.isUsable else {
            throw .malformedManifest(path: directory.appendingPathComponent(ModelDirectory.manifestName).path,
                                     reason: ModelDirectory.decisionProblem)
        }
        try ModelDirectory.save(manifest: manifest, weights: weights, letters: languageDetector.letters, to: directory)
        return try ModelDirectory.load(directory)
    }
}

extension Evaluation {
    /// This evaluation as a manifest record for the data set `file`.
    public func record(file: String) -> ModelManifest.MetricsRecord {
        .init(file: file, count: count, macroRecall: macroRecall, accuracy: accuracy, macroF1: macroF1,
              expectedCalibrationError: expectedCalibrationError)
    }
}
