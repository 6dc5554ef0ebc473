import Analytics
import Backtest
import TradingModel

/// One point of an equity curve with an exact time.
public struct TimedEquity: Hashable, Sendable {
    /// The bar time.
    public var time: Timestamp
    /// Equity after that bar.
    public var equity: Double

    /// Creates a point.
    public init(time: Timestamp, equity: Double) {
        self.time = time
        self.equity = equity
    }
}

/// An out-of-sample test run: its equity curve (from the last in-sample bar on) and its closed trades.
public struct OutOfSampleRun: Sendable {
    /// Equity points; the first is the last in-sample bar (the account is still flat there).
    public var points: [TimedEquity]
    /// Closed trades.
    public var trades: [TradeRecord]

    /// Creates a run.
    public init(points: [TimedEquity], trades: [TradeRecord]) {
        self.points = points
        self.trades = trades
    }
}

/// What walk-forward analysis needs from a strategy: in-sample metrics of a configuration, and an out-of-sample
/// run that may warm up on earlier bars but trades only from `tradingStart` on.
public protocol WalkForwardEvaluator: Sendable {
    /// Return periods per year.
    var periodsPerYear: Int { get }
    /// Metrics of one configuration on the in-sample data.
    func metrics(_ parameters: ParameterSet, data: MarketData) throws(ResearchError) -> SweepMetrics
    /// The out-of-sample run of the chosen configuration; `data` ends with the out-of-sample window.
    func outOfSample(
        _ parameters: ParameterSet, data: MarketData, tradingStart: Timestamp
    ) throws(ResearchError) -> OutOfSampleRun
}

extension BacktestEvaluator: WalkForwardEvaluator {
    /// A gated backtest over warm-up + out-of-sample bars (see `TradingGate`).
    public func outOfSample(
        _ parameters: ParameterSet, data: MarketData, tradingStart: Timestamp
    ) throws(ResearchError) -> OutOfSampleRun {
        let result = try backtest(parameters, data: data, tradingStart: tradingStart)
        return OutOfSampleRun(
            points: result.equityCurve.map { TimedEquity(time: $0.time, equity: $0.equity.doubleValue) },
            trades: result.analyticsTrades)
    }
}

/// One window's outcome.
public struct WindowOutcome: Sendable {
    /// The window.
    public var window: WalkForwardWindow
    /// The chosen configuration with its in-sample metrics (`nil` when no configuration was eligible: the
    /// out-of-sample window is then spent in cash).
    public var chosen: SweepRow?
    /// Configurations evaluated in sample.
    public var trials: Int
    /// Out-of-sample metrics of the chosen configuration (from its segment of the curve and its trades).
    public var outOfSampleMetrics: SweepMetrics?
    /// The out-of-sample equity segment, starting at the last in-sample bar.
    public var segment: [TimedEquity]
    /// Closed out-of-sample trades (not kept by shard files; see `tradeCount`).
    public var trades: [TradeRecord]
    /// Number of closed out-of-sample trades.
    public var tradeCount: Int
}

/// How much a parameter moved across windows.
public struct ParameterStability: Hashable, Sendable {
    /// The parameter.
    public var name: String
    /// The chosen value per window (`nil` where nothing was chosen).
    public var values: [Double?]
    /// Mean of the chosen values.
    public var mean: Double?
    /// Population standard deviation of the chosen values.
    public var standardDeviation: Double?
    /// `standardDeviation / |mean|`.
    public var coefficientOfVariation: Double?
    /// Number of distinct chosen values.
    public var distinctValues: Int
    /// Share of windows that chose the most common value.
    public var modalShare: Double?

    init(name: String, values: [Double?]) {
        self.name = name
        self.values = values
        let xs = values.compactMap { $0 }
        distinctValues = Set(xs).count
        guard !xs.isEmpty else { return }
        let m = xs.reduce(0, +) / Double(xs.count)
        let sd = (xs.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(xs.count)).squareRoot()
        mean = m
        standardDeviation = sd
        coefficientOfVariation = m != 0 ? sd / abs(m) : nil
        var counts: [Double: Int] = [:]
        for x in xs { counts[x, default: 0] += 1 }
        modalShare = Double(counts.values.max() ?? 0) / Double(values.count)
    }
}

/// The whole walk-forward analysis.
public struct WalkForwardResult: Sendable {
    /// The windows and what happened in each.
    public var windows: [WindowOutcome]
    /// The out-of-sample segments chained into one curve, starting at the first segment's starting equity.
    public var stitched: [TimedEquity]
    /// Metrics of the stitched curve (from the curve alone: trade statistics stay per window, see `trades`).
    public var stitchedMetrics: SweepMetrics?
    /// Closed out-of-sample trades over all windows.
    public var trades: Int
    /// Walk-forward efficiency: mean out-of-sample objective / mean in-sample objective of the chosen
    /// configurations (windows where both are defined). Meaningful for annualised objectives (Sharpe, CAGR).
    public var efficiency: Double?
    /// Per swept parameter, how the chosen value moved.
    public var stability: [ParameterStability]
    /// The objective used in every window.
    public var objective: Objective
    /// Windows of the whole analysis (more than `windows.count` for a shard).
    public var windowCount: Int
}

/// Walk-forward analysis: optimise in each in-sample window, test the winner on the following out-of-sample
/// window, and chain the out-of-sample results.
///
/// No look-ahead by construction: the in-sample sweep sees only bars before the window's out-of-sample boundary,
/// and the out-of-sample run sees bars up to the window's end, trading only from the boundary on (earlier bars
/// just warm up indicators).
public enum WalkForward {
    /// Runs the analysis.
    /// - Parameters:
    ///   - data: all bars.
    ///   - plan: window lengths and mode.
    ///   - space: the parameters swept in every in-sample window.
    ///   - objective: what the in-sample sweep maximises (or minimises), with constraints.
    ///   - evaluator: the strategy.
    ///   - maxConcurrency: backtests at once within a window's sweep.
    ///   - progress: `(finished, total)` over all in-sample backtests.
    ///   - shard: run only windows `K, K+N, …` (merge the shards' `WalkForwardRecord`s for the whole analysis).
    /// - Throws: `ResearchError` from windows or configurations.
    public static func run<E: WalkForwardEvaluator>(
        data: MarketData, plan: WindowPlan, space: ParameterSpace, objective: Objective, evaluator: E,
        maxConcurrency: Int, progress: SweepRunner.Progress? = nil, shard: Shard = .whole
    ) async throws(ResearchError) -> WalkForwardResult {
        let times = data.distinctTimes
        let allWindows = try plan.windows(over: times)
        let windows = allWindows.filter { shard.contains($0.index) }
        let configurations = space.configurations.enumerated().map { (id: $0.offset, parameters: $0.element) }
        guard !configurations.isEmpty else { throw .emptySweep }
        let total = configurations.count * windows.count
        var outcomes: [WindowOutcome] = []
        for window in windows {
            let inSampleData = data.slice(from: times[window.inSample.lowerBound], to: times[window.outOfSample.lowerBound])
            let done = outcomes.count * configurations.count
            var windowProgress: SweepRunner.Progress?
            if let progress {
                windowProgress = { @Sendable (finished: Int, _: Int) in progress(done + finished, total) }
            }
            let rows = try await SweepRunner.run(
                configurations, data: inSampleData, maxConcurrency: maxConcurrency,
                evaluate: { (p, d) throws(ResearchError) in try evaluator.metrics(p, data: d) },
                progress: windowProgress)
            let chosen = objective.best(of: rows).map { rows[$0] }
            let lastInSample = times[window.outOfSample.lowerBound - 1]
            let oosStart = times[window.outOfSample.lowerBound]
            let oosEnd = window.outOfSample.upperBound < times.count
                ? times[window.outOfSample.upperBound] : Timestamp(nanoseconds: Int64.max)
            var segment: [TimedEquity]
            var trades: [TradeRecord] = []
            if let chosen {
                let run = try evaluator.outOfSample(
                    chosen.parameters, data: data.slice(from: times[window.inSample.lowerBound], to: oosEnd),
                    tradingStart: oosStart)
                segment = run.points.filter { $0.time >= lastInSample }
                trades = run.trades
            } else {
                segment = times[(window.outOfSample.lowerBound - 1)..<window.outOfSample.upperBound]
                    .map { TimedEquity(time: $0, equity: 1) }
            }
            outcomes.append(WindowOutcome(
                window: window, chosen: chosen, trials: rows.count,
                outOfSampleMetrics: metrics(segment, trades: trades, periodsPerYear: evaluator.periodsPerYear),
                segment: segment, trades: trades, tradeCount: trades.count))
        }
        return assemble(
            outcomes, parameterNames: space.ranges.map(\.name), objective: objective,
            periodsPerYear: evaluator.periodsPerYear, windowCount: allWindows.count)
    }

    /// Stitches the windows and computes everything derived from them, from the fields a shard file keeps (the
    /// trade lists are not used), so merged shards give exactly a single run's result.
    public static func assemble(
        _ outcomes: [WindowOutcome], parameterNames: [String], objective: Objective, periodsPerYear: Int,
        windowCount: Int
    ) -> WalkForwardResult {
        let outcomes = outcomes.sorted { $0.window.index < $1.window.index }
        let stitched = stitch(outcomes.map(\.segment))
        return WalkForwardResult(
            windows: outcomes, stitched: stitched,
            stitchedMetrics: metrics(stitched, trades: [], periodsPerYear: periodsPerYear),
            trades: outcomes.reduce(0) { $0 + $1.tradeCount },
            efficiency: efficiency(outcomes, metric: objective.metric),
            stability: parameterNames.map { name in
                ParameterStability(name: name, values: outcomes.map { $0.chosen?.parameters[name] })
            },
            objective: objective, windowCount: windowCount)
    }

    /// Chains segments by their returns: each segment is rescaled so that its first point equals the running
    /// curve's last point (which has the same time when the windows tile), and that shared point is written once.
    public static func stitch(_ segments: [[TimedEquity]]) -> [TimedEquity] {
        var curve: [TimedEquity] = []
        for segment in segments {
            guard let base = segment.first, base.equity != 0 else { continue }
            guard let last = curve.last else {
                curve = segment
                continue
            }
            let scale = last.equity / base.equity
            let rest = base.time == last.time ? segment.dropFirst() : segment[...]
            curve += rest.map { TimedEquity(time: $0.time, equity: $0.equity * scale) }
        }
        return curve
    }

    static func metrics(_ curve: [TimedEquity], trades: [TradeRecord], periodsPerYear: Int) -> SweepMetrics? {
        let equity = curve.map {
            Analytics.EquityPoint(
                time: $0.time.nanoseconds / Timestamp.nanosecondsPerSecond, equity: $0.equity, cash: nil,
                grossExposure: nil)
        }
        guard let report = try? PerformanceReport.analyze(equity: equity, trades: trades, periodsPerYear: periodsPerYear)
        else { return nil }
        return SweepMetrics(report: report, equity: curve.map(\.equity))
    }

    static func efficiency(_ outcomes: [WindowOutcome], metric: String) -> Double? {
        var inSample = 0.0, outOfSample = 0.0, count = 0
        for outcome in outcomes {
            guard let a = outcome.chosen?.metrics[metric], let b = outcome.outOfSampleMetrics?[metric] else { continue }
            inSample += a
            outOfSample += b
            count += 1
        }
        guard count > 0, inSample != 0 else { return nil }
        let value = outOfSample / inSample
        return value.isFinite ? value : nil
    }
}
