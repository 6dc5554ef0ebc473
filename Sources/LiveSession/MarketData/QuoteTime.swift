import TradingModel

/// The time a quote carries. Pure.
///
/// TWS ticks carry no time, so a quote is stamped when it arrives, on the runner's injected wall clock (UTC
/// epoch, `LiveRunnerConfiguration.clock`). One guard: when that clock and the run's data time (the latest bar's) are
/// further apart than `maximumSkew` — a replay such as the gateway simulator, whose bars are years old, or a badly
/// set system clock — the quote takes the data time, so the engine's clock (timers, order timeouts, the daily-loss
/// day) never jumps between two time lines.
///
/// ```swift
/// QuoteTime.stamp(arrival: wallNow, dataTime: lastBar)   // wallNow, unless an hour or more from lastBar
/// ```
public enum QuoteTime {
    /// How far arrival and data time may be apart before the data time is used.
    public static let defaultMaximumSkew: TimeSpan = .hours(1)

    /// The quote's time: `arrival`, or `dataTime` when they are more than `maximumSkew` apart.
    public static func stamp(
        arrival: Timestamp, dataTime: Timestamp, maximumSkew: TimeSpan = defaultMaximumSkew
    ) -> Timestamp {
        let skew = arrival > dataTime ? arrival - dataTime : dataTime - arrival
        return skew > maximumSkew ? dataTime : arrival
    }
}
