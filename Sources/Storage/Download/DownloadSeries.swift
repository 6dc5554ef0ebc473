import TradingModel

/// One historical series to download: what IB distinguishes in a request besides the time range.
public struct DownloadSeries: Hashable, Sendable, CustomStringConvertible {
    /// The symbol.
    public var symbol: Symbol
    /// The bar size.
    public var barSize: BarSize
    /// `TRADES`, `MIDPOINT`, `BID`, `ASK`, …
    public var whatToShow: String
    /// Regular trading hours only (IB's `useRTH`).
    public var regularHoursOnly: Bool

    /// Creates a series.
    public init(symbol: Symbol, barSize: BarSize, whatToShow: String = "TRADES", regularHoursOnly: Bool = false) {
        self.symbol = symbol
        self.barSize = barSize
        self.whatToShow = whatToShow
        self.regularHoursOnly = regularHoursOnly
    }

    public var description: String {
        "\(symbol) \(barSize) \(whatToShow)\(regularHoursOnly ? " RTH" : "")"
    }
}

/// A half-open time range `[start, end)` on a bar size's chunk grid (see `ChunkPolicy`).
public struct DownloadChunk: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Inclusive start.
    public var start: Timestamp
    /// Exclusive end.
    public var end: Timestamp

    /// Creates a chunk.
    public init(start: Timestamp, end: Timestamp) {
        self.start = start
        self.end = end
    }

    public var description: String { "\(start)…\(end)" }

    public static func < (lhs: DownloadChunk, rhs: DownloadChunk) -> Bool { lhs.start < rhs.start }
}

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
