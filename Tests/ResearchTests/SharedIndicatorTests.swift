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

    @Test func aPortfolioSweepSharingItsAveragesEqualsEachConfigurationAlone() async throws {
        let evaluator = Self.evaluator()
        let space = try Self.space()
        let swept = try await SweepRequest(space: space, objective: try Objective())
            .run(data: Self.market, evaluator: evaluator, maxConcurrency: 2)
        let alone = try space.configurations.map { try evaluator.metrics($0, data: Self.market) }
        #expect(swept.rows.map(\.metrics) == alone)
    }

    @Test func anEachSymbolSweepRunASymbolAtATimeEqualsEachConfigurationsBook() async throws {
        let evaluator = Self.evaluator(eachSymbol: true)
        let space = try Self.space()
        let configurations = space.configurations.enumerated().map { (id: $0.offset, parameters: $0.element) }
        let books = try await evaluator.pooledBooks(configurations, data: Self.market, maxConcurrency: 2)
        for (id, parameters, book) in books {
            let alone = try evaluator.pooledBook(parameters, data: Self.market)
            #expect(book.times == alone.times && book.equity == alone.equity && book.cash == alone.cash, "config \(id)")
            #expect(book.orderedTrades == alone.orderedTrades, "config \(id)")
        }
        let swept = try await SweepRequest(space: space, objective: try Objective())
            .run(data: Self.market, evaluator: evaluator, maxConcurrency: 2)
        #expect(swept.rows.map(\.metrics) == (try space.configurations.map { try evaluator.metrics($0, data: Self.market) }))
    }

    @Test func theColumnsAreWhatTheRunReads() throws {
        // Columns whose fast and slow values are swapped (closes unchanged) turn every cross around: the run reads them.
        let evaluator = Self.evaluator()
        let parameters = try #require(try Self.space().configurations.first)
        var shared = try #require(evaluator.sharedIndicators(for: [parameters], data: Self.market))
        let fast = SharedIndicators.Average(kind: .simple, period: 3)
        let slow = SharedIndicators.Average(kind: .simple, period: 20)
        (shared.averages[fast], shared.averages[slow]) = (shared.averages[slow], shared.averages[fast])
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

    @Test func nothingIsSharedBeyondTheByteLimitOrForOtherStrategies() throws {
        let configurations = try Self.space().configurations
        #expect(Self.evaluator().sharedIndicators(for: configurations, data: Self.market, byteLimit: 1_000) == nil)
        let rsi = BacktestEvaluator(spec: .rsiMeanReversion(config: RSIMeanReversionConfig()))
        let periods = try ParameterSpace(ranges: [ParameterRange(parsing: "period=5:20:5")]).configurations
        #expect(rsi.sharedIndicators(for: periods, data: Self.market) == nil)
    }
}
