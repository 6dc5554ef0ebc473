import TradingModel

/// One request of a chunked download, as the source must send it.
public struct HistoricalChunkRequest: Hashable, Sendable {
    /// The series.
    public var series: DownloadSeries
    /// The chunk being filled.
    public var chunk: DownloadChunk
    /// The end time to request (the chunk's end, or "now" for the chunk still in progress); sources send it in
    /// UTC (`yyyyMMdd-HH:mm:ss`).
    public var end: Timestamp
    /// The duration to request, e.g. `1 D` (see `ChunkPolicy`).
    public var duration: String

    /// Creates a request.
    public init(series: DownloadSeries, chunk: DownloadChunk, end: Timestamp, duration: String) {
        self.series = series
        self.chunk = chunk
        self.end = end
        self.duration = duration
    }
}
