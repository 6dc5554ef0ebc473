import Simulation
import TradingEngine
import TradingModel

/// One CSV file of one symbol, read while the backtest runs.
public struct StreamedBarFile: Sendable {
    /// The symbol of the file's bars.
    public var symbol: Symbol
    /// The file's path.
    public var path: String
    /// Bad-row policy.
    public var policy: BadRowPolicy
    /// Bars before this time are skipped (`nil`: from the first bar).
    public var start: Timestamp?
    /// Bars after this time are skipped (`nil`: to the last bar); the whole file is still read and checked.
    public var end: Timestamp?
    /// Optional sector of the symbol (for sector risk limits).
    public var sector: String?

    /// Describes a file.
    public init(
        symbol: Symbol, path: String, policy: BadRowPolicy = .fail, start: Timestamp? = nil, end: Timestamp? = nil,
        sector: String? = nil
    ) {
        self.symbol = symbol
        self.path = path
        self.policy = policy
        self.start = start
        self.end = end
        self.sector = sector
    }
}

/// What a streamed run produced: the result plus what is known about the bars only after reading them all.
public struct StreamedBacktest: Sendable {
    /// The backtest result (identical to loading the file into `MarketData` and calling `run`).
    public var result: BacktestResult
    /// The spacing of the bars that were run.
    public var spacing: BarSpacing
    /// Rows skipped under `.skip`, and inconsistent bars.
    public var loaded: LoadedBars
    /// Wall-clock seconds spent in the engine alone (CSV parsing excluded), for throughput reports.
    public var engineSeconds: Double

    @usableFromInline
    init(result: BacktestResult, spacing: BarSpacing, loaded: LoadedBars, engineSeconds: Double) {
        self.result = result
        self.spacing = spacing
        self.loaded = loaded
        self.engineSeconds = engineSeconds
    }
}

extension BacktestRunner {
    /// Runs a backtest on one CSV file while reading it, so the bars are never all in memory (a 1M-bar file needs
    /// ~1 MB of bars instead of 48 MB). The result is identical to `run(strategy:data:config:progress:)` on the
    /// loaded file; progress totals are estimated from the file size until the last call, which is exact.
    /// - Parameters:
    ///   - strategy: the strategy value.
    ///   - file: the file, its symbol and the time window.
    ///   - config: engine and simulation settings.
    ///   - progress: an optional callback every N bars.
    /// - Throws: `BarLoadingError` from the file (the run is abandoned).
    @inlinable
    public static func run<S: Strategy>(
        strategy: S, file: StreamedBarFile, config: BacktestConfig = BacktestConfig(),
        progress: BacktestProgressHook? = nil
    ) throws(BarLoadingError) -> StreamedBacktest {
        let sectors = file.sector.map { [file.symbol: $0] } ?? [:]
        let universe = Universe(symbols: [file.symbol], sectors: sectors)
        let estimate = BarCSVLoader.estimatedRowCount(path: file.path)
        var loop = Loop(strategy: strategy, universe: universe, expectedPoints: estimate, config: config)
        var spacing = BarSpacing()
        let interval = progress?.interval ?? Int.max
        var done = 0
        // The engine's own time, without parsing (reported as `engine_seconds`; it never affects results).
        let clock = ContinuousClock()
        var engineTime = Duration.zero
        // The file name's bar size against the rows', on the first chunk (a chunk holds thousands of rows).
        var mismatch: BarLoadingError?
        var checked = false
        let loaded = try BarCSVLoader.stream(path: file.path, policy: file.policy) { chunk in
            if !checked {
                checked = true
                do throws(BarLoadingError) { _ = try BarFileName.checkedLength(chunk, file: file.path) } catch {
                    mismatch = error
                }
            }
            guard mismatch == nil else { return }
            var lower = 0
            var upper = chunk.count
            if let start = file.start { while lower < upper, chunk[lower].timestamp < start { lower += 1 } }
            if let end = file.end { while upper > lower, chunk[upper - 1].timestamp > end { upper -= 1 } }
            guard lower < upper else { return }
            spacing.observe(chunk[lower..<upper])
            // Blocks end on multiples of the progress interval, as in the in-memory run.
            var position = lower
            while position < upper {
                let room = interval - done % interval  // no overflow: `interval` is Int.max without a hook
                let blockEnd = upper - position <= room ? upper : position + room
                let blockStart = clock.now
                loop.runSingle(chunk, from: position, to: blockEnd)
                engineTime += clock.now - blockStart
                done += blockEnd - position
                position = blockEnd
                if done % interval == 0 {
                    progress?.report(BacktestProgress(barsProcessed: done, totalBars: max(estimate, done + 1)))
                }
            }
        }
        if let mismatch { throw mismatch }
        progress?.report(BacktestProgress(barsProcessed: done, totalBars: done))
        return StreamedBacktest(
            result: loop.finish(), spacing: spacing, loaded: loaded,
            engineSeconds: Double(engineTime.components.seconds) + Double(engineTime.components.attoseconds) * 1e-18)
    }

    /// Runs a built-in strategy on a streamed file (what the CLI calls for a single CSV file).
    /// - Parameters:
    ///   - spec: the strategy and its settings.
    ///   - file: the file, its symbol and the time window.
    ///   - config: engine and simulation settings.
    ///   - progress: an optional callback every N bars.
    /// - Throws: `BarLoadingError` from the file.
    public static func run(
        spec: StrategySpec, file: StreamedBarFile, config: BacktestConfig = BacktestConfig(),
        progress: BacktestProgressHook? = nil
    ) throws(BarLoadingError) -> StreamedBacktest {
        try spec.visit(StreamedRun(file: file, config: config, progress: progress))
    }

    /// A backtest over one file read while it runs, with the strategy a spec names.
    private struct StreamedRun: StrategyVisitor {
        let file: StreamedBarFile
        let config: BacktestConfig
        let progress: BacktestProgressHook?

        func visit<S: Strategy>(_ strategy: S) throws(BarLoadingError) -> StreamedBacktest {
            try BacktestRunner.run(strategy: strategy, file: file, config: config, progress: progress)
        }
    }
}
