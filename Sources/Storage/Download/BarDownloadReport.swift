/// What a download did.
public struct BarDownloadReport: Hashable, Sendable {
    /// Chunks in the plan.
    public var plannedChunks = 0
    /// Chunks skipped because an earlier download completed them.
    public var skippedChunks = 0
    /// Chunks requested and stored.
    public var fetchedChunks = 0
    /// Fetched chunks that had no bars.
    public var emptyChunks = 0
    /// Bars written (including re-written ones).
    public var barsStored = 0
    /// Pacing violations survived.
    public var pacingRetries = 0
    /// The requests made, in order.
    public var requests: [HistoricalChunkRequest] = []

    /// An empty report.
    public init() {}
}
