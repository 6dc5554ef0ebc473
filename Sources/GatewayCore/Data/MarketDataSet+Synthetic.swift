import Simulation
import TradingModel

extension MarketDataSet {
    /// A seeded random-walk universe: `count` symbols `SYN000`, `SYN001`, … with three years of daily bars
    /// (the US exchanges' trading days of 2021–2023: no weekends, no holidays), so the same seed always gives the
    /// same prices.
    /// - Parameters:
    ///   - count: number of instruments (at least 1).
    ///   - seed: the random seed.
    public static func synthetic(count: Int, seed: UInt64) -> MarketDataSet {
        var rng = SplitMix64(seed: seed)
        var series: [String: InstrumentSeries] = [:]
        let firstDay = Timestamp(year: 2021, month: 1, day: 4).dayNumber
        let lastDay = Timestamp(year: 2023, month: 12, day: 29).dayNumber
        for n in 0..<max(1, count) {
            let symbol = "SYN" + String(repeating: "0", count: max(0, 3 - String(n).count)) + String(n)
            var price = 20 + rng.nextUnit() * 180
            var bars: [Bar] = []
            for day in firstDay...lastDay {
                let t = Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay)
                guard t.weekday < 5 else { continue }
                let open = price * (1 + rng.nextGaussian() * 0.004)
                let close = max(1, open * (1 + rng.nextGaussian() * 0.015))
                let high = max(open, close) * (1 + abs(rng.nextGaussian()) * 0.006)
                let low = min(open, close) * (1 - abs(rng.nextGaussian()) * 0.006)
                let volume = Int64(500_000 + rng.nextUnit() * 4_500_000)
                price = close
                // A holiday's move happens but shows no bar: the next day opens with the gap, as after news over a
                // long weekend (and every other day keeps the prices its seed always gave).
                guard USEquityCalendar.isTradingDay(day) else { continue }
                bars.append(Bar(
                    timestamp: t, open: cents(open), high: cents(high), low: cents(low), close: cents(close),
                    volume: Quantity(volume)))
            }
            series[symbol] = InstrumentSeries(bars: bars, resolution: .days(1))
        }
        return MarketDataSet(series: series, name: "synthetic (\(max(1, count)) symbols, seed \(seed))")
    }

    private static func cents(_ value: Double) -> Price {
        Price(units: Int64((value * 100).rounded()) * 1_000_000)
    }
}
