/// Whether a benchmark's closes can be set against an equity curve return for return. `ibtrader backtest` and
/// `ibtrader analyze` apply the same rule: a daily benchmark against intraday equity is not used, and the reader is
/// told why.
public enum BenchmarkFrequency {
    /// Why a benchmark cannot be used with an equity curve, as a sentence for the reader; `nil` when it can.
    ///
    /// A benchmark is daily when every close is stamped at midnight UTC. Against intraday equity, its last close at or
    /// before each bar would be the same all day: each bar's return would be compared with a return of 0 (and the
    /// whole day's move with the first bar of the next day), so beta, alpha and correlation would mean nothing.
    /// - Parameters:
    ///   - name: the benchmark as the user named it (a path, or `bundled`).
    ///   - prices: its closes.
    ///   - equityTimes: the equity curve's times, Unix seconds.
    /// - Returns: the reason, naming the benchmark, or `nil`.
    public static func refusal(of name: String, prices: [PricePoint], equityTimes: some Sequence<Int64>) -> String? {
        guard !prices.isEmpty, prices.allSatisfy({ $0.time % 86_400 == 0 }) else { return nil }
        guard equityTimes.contains(where: { $0 % 86_400 != 0 }) else { return nil }
        return "The benchmark \(name) is daily and the equity intraday: alpha, beta and correlation would compare each "
            + "bar's return with a daily close carried forward, so the report is made without a benchmark. Give an "
            + "intraday benchmark of the same bar size."
    }
}
