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

/// Why a source could not deliver a chunk.
public enum HistoricalSourceError: Error, Equatable, Sendable {
    /// IB reported a pacing violation (162): wait and ask again.
    case pacingViolation(String)
    /// The chunk has no bars (a weekend or holiday; IB's 162 "HMDS query returned no data").
    case noData
    /// Anything else; the download stops (completed chunks stay stored, so a re-run resumes).
    case failed(String)
}

/// Where a download gets its bars: TWS in `ibtrader data download`, a fake in tests.
public protocol HistoricalBarSource: Sendable {
    /// The bars of one request, oldest first, with UTC timestamps (daily bars at midnight UTC of their date).
    /// - Throws: `HistoricalSourceError`.
    func bars(for request: HistoricalChunkRequest) async throws(HistoricalSourceError) -> [Bar]
}
