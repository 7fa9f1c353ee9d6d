/// The limits of `POST /v1/classify`. A request over a limit is answered
/// `413 Content Too Large` with a problem+json body that names the limit.
public struct ClassifyLimits: Sendable, Hashable {
    /// Items in one JSON request: 1,000.
    public var maximumItems: Int
    /// Bytes in one JSON request body: 1 MiB.
    public var maximumBodyBytes: Int
    /// Items in one NDJSON request: 100,000.
    public var maximumStreamItems: Int
    /// Bytes in one NDJSON request body: 64 MiB.
    public var maximumStreamBytes: Int
    /// Characters (Unicode code points, as JSON Schema's `maxLength` counts
    /// them) in one text: 10,000. A longer text is a per-item error, not a
    /// failed batch.
    public var maximumTextLength: Int
    /// Texts classified per model call while streaming: 256.
    public var streamBatchSize: Int

    /// Creates limits; the defaults are documented on each property.
    public init(maximumItems: Int = 1000, maximumBodyBytes: Int = 1 << 20, maximumStreamItems: Int = 100_000,
                maximumStreamBytes: Int = 64 << 20, maximumTextLength: Int = 10_000, streamBatchSize: Int = 256) {
        self.maximumItems = maximumItems
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumStreamItems = maximumStreamItems
        self.maximumStreamBytes = maximumStreamBytes
        self.maximumTextLength = maximumTextLength
        self.streamBatchSize = streamBatchSize
    }
}
