import Sentiment

/// The rule that turns a ``Prediction`` into a ``Theme``.
///
/// The rule trusts the model's label, unless its margin is weak:
///
/// - **happy** when the label is `positive` and `score ≥ happyMinimumScore`;
/// - **sad** when the label is `negative` and `score ≤ -sadMinimumScore`;
/// - **neutral** otherwise,
///
/// where `score = p(positive) − p(negative)` (``Prediction/score``).
///
/// Why the label first: the label already carries the model's decision rule,
/// tuned on its validation data; a score threshold alone would contradict it
/// (a tweet the model calls neutral, with p = 0.20 / 0.45 / 0.35, has score
/// +0.15 and would look happy under a low threshold).
///
/// Why a margin: with three classes a label can win with little confidence
/// (p = 0.36 / 0.30 / 0.34 is labelled negative, score −0.02). Painting such a
/// tweet blue claims more than the model knows; grey is the honest colour. The
/// default margin, ``defaultMinimumScore`` = 0.20, keeps a colour whenever the
/// winning class leads the opposite one by 20 points — in practice it only
/// greys out near-ties, and it matches the ±0.25 "clearly positive/negative"
/// rule of thumb used for scores of this kind while leaving room for the
/// shrinkage of a calibrated model. Raise it for a more conservative display.
///
/// Tweets whose language is not supported get no theme at all: see ``Mood``.
public struct ThemeThresholds: Sendable, Hashable, Codable {
    /// The default margin for both directions: 0.20 (see the type's documentation).
    public static let defaultMinimumScore = 0.20

    /// The rule with the default margins.
    public static let `default` = ThemeThresholds()

    /// The smallest score for which a `positive` label shows as happy.
    public var happyMinimumScore: Double
    /// The smallest magnitude of a negative score for which a `negative` label shows as sad.
    public var sadMinimumScore: Double

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - happyMinimumScore: in [0, 1]; 0 follows the label whenever it is positive.
    ///   - sadMinimumScore: in [0, 1]; 0 follows the label whenever it is negative.
    public init(happyMinimumScore: Double = defaultMinimumScore, sadMinimumScore: Double = defaultMinimumScore) {
        self.happyMinimumScore = happyMinimumScore
        self.sadMinimumScore = sadMinimumScore
    }

    /// The theme of a prediction, ignoring its language.
    ///
    /// A score within ``tolerance`` of a margin counts as reaching it: in binary
    /// floating point p = 0.60 − 0.40 is 0.19999999999999996, and a lead of
    /// exactly 20 points keeps its colour.
    public func theme(for prediction: Prediction) -> Theme {
        switch prediction.label {
        case .positive where prediction.score >= happyMinimumScore - Self.tolerance: .happy
        case .negative where prediction.score <= -sadMinimumScore + Self.tolerance: .sad
        default: .neutral
        }
    }

    /// How far below a margin a score still reaches it: 1e-9, far above the
    /// rounding error of a difference of two probabilities (about 1e-16) and far
    /// below what a score is shown with (two decimals).
    static let tolerance = 1e-9
}
