/// Whether a benchmark's closes can be set against an equity curve return for return. `ibtrader backtest` and
/// `ibtrader analyze` apply the same rules, and the reader is told why a benchmark was not used:
/// - a daily benchmark is not set against intraday equity;
/// - a benchmark must cover the run: one that starts after the run's first point, or ends more than
///   `coverageTolerance` before its last, would be missing or carried forward flat over the gap.
public enum BenchmarkFrequency {
    /// How far a benchmark may end before the run does (seconds): a long weekend with a holiday, or a data source
    /// that ends a day or two earlier, carries its last close over a few bars at most.
    public static let coverageTolerance: Int64 = 5 * 86_400

    /// Why a benchmark cannot be used with an equity curve, as a sentence for the reader; `nil` when it can.
    ///
    /// A benchmark is daily when every close is stamped at midnight UTC. Against intraday equity, its last close at or
    /// before each bar would be the same all day: each bar's return would be compared with a return of 0 (and the
    /// whole day's move with the first bar of the next day), so beta, alpha and correlation would mean nothing.
    /// A benchmark that ends before the run would be flat from its last close on (a run entirely after it gets no
    /// beta at all, and a partly covered one a beta diluted by the flat stretch).
    /// - Parameters:
    ///   - name: the benchmark as the user named it (a path, or `bundled`).
    ///   - prices: its closes, in time order.
    ///   - equityTimes: the equity curve's times, Unix seconds, in time order.
    /// - Returns: the reason, naming the benchmark, or `nil`.
    public static func refusal(of name: String, prices: [PricePoint], equityTimes: some Sequence<Int64>) -> String? {
        guard let first = prices.first?.time, let last = prices.last?.time else { return nil }
        var runStart: Int64?
        var runEnd: Int64 = .min
        var intraday = false
        for time in equityTimes {
            if runStart == nil { runStart = time }
            runEnd = time
            if time % 86_400 != 0 { intraday = true }
        }
        guard let runStart else { return nil }
        if intraday, prices.allSatisfy({ $0.time % 86_400 == 0 }) {
            return "The benchmark \(name) is daily and the equity intraday: alpha, beta and correlation would compare "
                + "each bar's return with a daily close carried forward, so the report is made without a benchmark. "
                + "Give an intraday benchmark of the same bar size."
        }
        let span = "the run spans \(CivilTime.format(runStart)) to \(CivilTime.format(runEnd))"
        if first > runStart {
            return "The benchmark \(name) starts on \(CivilTime.format(first)) and \(span): it has no close for the "
                + "run's first returns, so the report is made without a benchmark. Give a benchmark that covers the run."
        }
        if runEnd - last > coverageTolerance {
            return "The benchmark \(name) ends on \(CivilTime.format(last)) and \(span): its last close would be "
                + "carried forward, flat, over the rest of the run, so the report is made without a benchmark. Give a "
                + "benchmark that covers the run."
        }
        return nil
    }
}
