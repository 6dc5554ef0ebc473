import Backtest
import Simulation
import Testing
import TradingModel

@testable import Research
@testable import TradingEngine

/// Sweeps share their indicators: every distinct moving average is computed once per symbol and read by every
/// configuration that uses it, and a configuration run with shared columns equals the same configuration run alone,
/// fill for fill and in every metric.
@Suite struct SharedIndicatorTests {
    static let market = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 4, bars: 500, seed: 31))

    static func evaluator(kind: MovingAverageKind = .simple, stops: ATRStopConfig? = nil, eachSymbol: Bool = false) -> BacktestEvaluator {
        var config = BacktestConfig()
        config.engine.initialCash = Money(1_000_000)
        config.simulation.commission = .ibkrFixedDefault
        var evaluator = BacktestEvaluator(
            spec: .movingAverageCrossover(
                config: MovingAverageCrossoverConfig(
                    kind: kind, allowShort: true, sizing: .fixedQuantity(Quantity(25)), atrStops: stops)),
            config: config)
        evaluator.eachSymbol = eachSymbol
        return evaluator
    }

    static func space() throws -> ParameterSpace {
        try ParameterSpace(ranges: [ParameterRange(parsing: "fastPeriod=3:15:3"), ParameterRange(parsing: "slowPeriod=20:60:10")])
    }

    /// Everything a fill-for-fill comparison needs.
    static func same(_ a: BacktestResult, _ b: BacktestResult) -> Bool {
        a.fills == b.fills && a.trades == b.trades && a.equityCurve == b.equityCurve && a.finalEquity == b.finalEquity
            && a.orders.count == b.orders.count
    }

    @Test(arguments: [MovingAverageKind.simple, .exponential])
    func everyConfigurationRunWithSharedAveragesEqualsItsRunAlone(kind: MovingAverageKind) throws {
        let evaluator = Self.evaluator(kind: kind, stops: ATRStopConfig(period: 14, stopMultiple: 2))
        let configurations = try Self.space().configurations
        let shared = try #require(evaluator.sharedIndicators(for: configurations, data: Self.market))
        // 5 fast and 5 slow lengths: 10 averages for 25 configurations, not 50.
        #expect(shared.computed.count == 10)
        var fills = 0
        for parameters in configurations {
            let alone = try evaluator.backtest(parameters, data: Self.market)
            let sharing = try evaluator.backtest(parameters, data: Self.market, shared: shared)
            #expect(Self.same(alone, sharing), "\(parameters)")
            fills += alone.fills.count
        }
        #expect(fills > 1_000)
    }

    /// RSI over its thresholds (one RSI per period for every threshold) and Bollinger bands over their widths (one
    /// mean and one σ per period), with ATR stops and shorts.
    @Test(arguments: ["rsi", "bollinger"])
    func meanReversionConfigurationsRunWithSharedColumnsEqualTheirRunsAlone(strategy: String) throws {
        var config = BacktestConfig()
        config.engine.initialCash = Money(1_000_000)
        let stops = ATRStopConfig(period: 10, stopMultiple: 1.5)
        let evaluator: BacktestEvaluator
        let space: ParameterSpace
        if strategy == "rsi" {
            evaluator = BacktestEvaluator(
                spec: .rsiMeanReversion(config: RSIMeanReversionConfig(allowShort: true, atrStops: stops)), config: config)
            space = try ParameterSpace(ranges: [ParameterRange(parsing: "period=2:6:2"), ParameterRange(parsing: "oversold=20:40:10")])
        } else {
            evaluator = BacktestEvaluator(
                spec: .bollingerMeanReversion(config: BollingerMeanReversionConfig(allowShort: true, atrStops: stops)),
                config: config)
            space = try ParameterSpace(ranges: [
                ParameterRange(parsing: "period=10:20:5"), ParameterRange(parsing: "entryDeviations=1,1.5,2"),
            ])
        }
        let configurations = space.configurations
        let shared = try #require(evaluator.sharedIndicators(for: configurations, data: Self.market))
        // 3 periods: 3 RSIs, or 3 means and 3 σ, for 9 configurations.
        #expect(shared.computed.count == (strategy == "rsi" ? 3 : 6))
        var fills = 0
        for parameters in configurations {
            let alone = try evaluator.backtest(parameters, data: Self.market)
            #expect(Self.same(alone, try evaluator.backtest(parameters, data: Self.market, shared: shared)), "\(parameters)")
            fills += alone.fills.count
        }
        #expect(fills > 100)
        // The columns are what the run reads: the first period's given the last period's values, it trades otherwise.
        let first = try #require(configurations.first)
        let (short, long): (SharedIndicators.Column, SharedIndicators.Column) =
            strategy == "rsi" ? (.rsi(period: 2), .rsi(period: 6)) : (.deviation(period: 10), .deviation(period: 20))
        var swapped = shared
        swapped.values[short] = shared.values[long]
        #expect(!Self.same(try evaluator.backtest(first, data: Self.market), try evaluator.backtest(first, data: Self.market, shared: swapped)))
    }

    @Test func aPortfolioSweepSharingItsAveragesEqualsEachConfigurationAlone() async throws {
        let evaluator = Self.evaluator()
        let space = try Self.space()
        let swept = try await SweepRequest(space: space, objective: try Objective())
            .run(data: Self.market, evaluator: evaluator, maxConcurrency: 2)
        let alone = try space.configurations.map { try evaluator.metrics($0, data: Self.market) }
        #expect(swept.rows.map(\.metrics) == alone)
    }

    @Test func theColumnsAreWhatTheRunReads() throws {
        // Columns whose fast and slow values are swapped (closes unchanged) turn every cross around: the run reads them.
        let evaluator = Self.evaluator()
        let parameters = try #require(try Self.space().configurations.first)
        var shared = try #require(evaluator.sharedIndicators(for: [parameters], data: Self.market))
        let fast = SharedIndicators.Column.average(.simple, period: 3)
        let slow = SharedIndicators.Column.average(.simple, period: 20)
        (shared.values[fast], shared.values[slow]) = (shared.values[slow], shared.values[fast])
        let alone = try evaluator.backtest(parameters, data: Self.market)
        let swapped = try evaluator.backtest(parameters, data: Self.market, shared: shared)
        #expect(!alone.fills.isEmpty && !Self.same(alone, swapped))
    }

    @Test func columnsOfOtherBarsAreLeftAtTheFirstCloseThatDiffers() throws {
        let evaluator = Self.evaluator()
        let configurations = try Self.space().configurations
        // Columns over the first 300 bars only, and over bars whose closes differ from bar 200 on.
        let short = MarketData(universe: Self.market.universe, series: Self.market.series.map { Array($0.prefix(300)) })
        let changed = MarketData(
            universe: Self.market.universe,
            series: Self.market.series.map { bars in
                bars.enumerated().map { k, bar in
                    k < 200 ? bar : Bar(
                        timestamp: bar.timestamp, open: bar.open, high: bar.high + Price(1), low: bar.low,
                        close: bar.close + Price(1), volume: bar.volume)
                }
            })
        for other in [short, changed] {
            let shared = try #require(evaluator.sharedIndicators(for: configurations, data: other))
            for parameters in configurations.prefix(6) {
                let alone = try evaluator.backtest(parameters, data: Self.market)
                #expect(Self.same(alone, try evaluator.backtest(parameters, data: Self.market, shared: shared)), "\(parameters)")
            }
        }
    }

    @Test func aColumnKeepsNoValueApartFromANaNTheIndicatorGives() {
        struct NaNAfterOne: CloseIndicator {
            mutating func update(_ close: Double) -> Double? { close > 1 ? .nan : nil }
        }
        var reading = SharedReading(
            NaNAfterOne(), column: SharedColumn(closes: [1, 2, 3], values: [SharedColumn.none, .nan, .nan]))
        #expect(reading.update(1) == nil)
        #expect(reading.update(2)?.isNaN == true)
        // Left at a close the column does not have: its own indicator goes on, with the same answers.
        #expect(reading.update(5)?.isNaN == true && !reading.isShared)
    }

    @Test func nothingIsSharedBeyondTheByteLimitOrByARotation() throws {
        let configurations = try Self.space().configurations
        #expect(Self.evaluator().sharedIndicators(for: configurations, data: Self.market, byteLimit: 1_000) == nil)
        let momentum = BacktestEvaluator(spec: .momentumRotation(config: MomentumRotationConfig()))
        let lookbacks = try ParameterSpace(ranges: [ParameterRange(parsing: "lookback=5:20:5")]).configurations
        #expect(momentum.sharedIndicators(for: lookbacks, data: Self.market) == nil)
    }
}
