import TradingModel

/// What a download covers.
public struct BarDownloadPlan: Hashable, Sendable {
    /// The series to download, in order.
    public var series: [DownloadSeries]
    /// The time range wanted; its end is clamped to `now`.
    public var range: Range<Timestamp>
    /// The current time: chunks ending after it are fetched but not marked done.
    public var now: Timestamp
    /// Waits after consecutive pacing violations of one chunk; when they run out the download stops.
    public var pacingRetryDelays: [Duration] = [.seconds(15), .seconds(30), .seconds(60), .seconds(120), .seconds(300)]

    /// Creates a plan.
    public init(series: [DownloadSeries], range: Range<Timestamp>, now: Timestamp) {
        self.series = series
        self.range = range
        self.now = now
    }
}
