import TradingModel

/// How a series' bars are spaced, accumulated bar by bar (so a streamed file needs no second pass).
///
/// `isDaily`: every bar starts at midnight UTC. `medianBarsPerDay`: the median number of bars per calendar day
/// (UTC), the upper median for an even number of days (what `Analytics.Annualization` multiplies by 252 for intraday
/// data; the CLI reads that from the equity curve's times).
public struct BarSpacing: Hashable, Sendable {
    /// Every bar so far starts at midnight UTC.
    public private(set) var isDaily = true
    private var barsPerDay: [Int] = []
    private var currentDay = Int64.min

    /// An empty accumulator.
    public init() {}

    /// Adds bars in ascending time order.
    public mutating func observe(_ bars: some Sequence<Bar>) {
        for bar in bars {
            if bar.timestamp.nanoseconds % Timestamp.nanosecondsPerDay != 0 { isDaily = false }
            let day = bar.timestamp.dayNumber
            if day != currentDay {
                barsPerDay.append(0)
                currentDay = day
            }
            barsPerDay[barsPerDay.count - 1] += 1
        }
    }

    /// The median number of bars per day, `nil` before the first bar.
    public var medianBarsPerDay: Int? {
        guard !barsPerDay.isEmpty else { return nil }
        return barsPerDay.sorted()[barsPerDay.count / 2]
    }
}
