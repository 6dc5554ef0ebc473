import TradingModel

/// A chunk as the store records it.
public struct StoredChunk: Hashable, Sendable {
    /// The series.
    public var series: DownloadSeries
    /// The time range.
    public var chunk: DownloadChunk
    /// `true` when the chunk's end had passed when it was downloaded, so it will never change: only such chunks
    /// are marked done (the chunk holding "now" is downloaded again next time).
    public var isComplete: Bool
    /// When it was stored.
    public var storedAt: Timestamp

    /// Creates a record.
    public init(series: DownloadSeries, chunk: DownloadChunk, isComplete: Bool, storedAt: Timestamp) {
        self.series = series
        self.chunk = chunk
        self.isComplete = isComplete
        self.storedAt = storedAt
    }
}
