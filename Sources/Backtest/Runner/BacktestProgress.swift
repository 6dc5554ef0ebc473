/// How far a running backtest has got (bars fed to the engine so far, out of all bars).
public struct BacktestProgress: Hashable, Sendable {
    /// Bars processed so far.
    public var barsProcessed: Int
    /// Bars in the run.
    public var totalBars: Int

    /// Creates a progress value.
    public init(barsProcessed: Int, totalBars: Int) {
        self.barsProcessed = barsProcessed
        self.totalBars = totalBars
    }

    /// `barsProcessed / totalBars` (1 for an empty run).
    public var fraction: Double { totalBars > 0 ? Double(barsProcessed) / Double(totalBars) : 1 }
}

/// A progress callback for `BacktestRunner.run`: called after every `interval` bars and once at the end.
///
/// The runner checks nothing per bar: it runs the bars in blocks of `interval` and calls `report` between blocks,
/// so a hook costs one call per block and cannot change results. Synchronous, on the runner's thread.
///
/// ```swift
/// let hook = BacktestProgressHook(interval: 100_000) { print("\(Int($0.fraction * 100)) %") }
/// let result = BacktestRunner.run(spec: spec, data: data, progress: hook)
/// ```
public struct BacktestProgressHook {
    /// Bars between calls (at least 1).
    public var interval: Int
    /// The callback.
    public var report: (BacktestProgress) -> Void

    /// Creates a hook.
    /// - Parameters:
    ///   - interval: bars between calls; values below 1 mean 1.
    ///   - report: called with the progress after each block and after the last bar.
    public init(interval: Int, report: @escaping (BacktestProgress) -> Void) {
        self.interval = max(1, interval)
        self.report = report
    }
}
