import Backtest
import Simulation
import Testing
import TradingEngine
import TradingModel

@testable import Research

/// `sweep.eachSymbol`: every configuration runs on each symbol alone and is measured as one pooled book. With fixed
/// sizing and cash that never binds, that book is the portfolio backtest of all the symbols, to the last bit of
/// every metric; on symbols whose bars start and end at different times, each account counts at its starting cash
/// before its first bar and at its latest equity after its last.
@Suite struct EachSymbolSweepTests {
    static let market = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 5, bars: 400, seed: 11))
    static let crossover = StrategySpec.movingAverageCrossover(
        config: MovingAverageCrossoverConfig(fastPeriod: 10, slowPeriod: 30, sizing: .fixedQuantity(Quantity(20))))

    static func evaluator(cash: Money, eachSymbol: Bool, commission: CommissionModel = .none) -> BacktestEvaluator {
        var config = BacktestConfig()
        config.engine.initialCash = cash
        config.simulation.commission = commission
        var evaluator = BacktestEvaluator(spec: crossover, config: config)
        evaluator.eachSymbol = eachSymbol
        return evaluator
    }

    @Test(arguments: [CommissionModel.none, .ibkrFixedDefault])
    func theBookOfAccountsRunApartIsThePortfolioWithAmpleCash(commission: CommissionModel) async throws {
        let space = try ParameterSpace(ranges: [
            ParameterRange(parsing: "fastPeriod=5:15:5"), ParameterRange(parsing: "slowPeriod=20:40:10"),
        ])
        let request = SweepRequest(space: space, objective: try Objective())
        let apart = try await request.run(
            data: Self.market, evaluator: Self.evaluator(cash: Money(1_000_000), eachSymbol: true, commission: commission),
            maxConcurrency: 2)
        let together = try await request.run(
            data: Self.market, evaluator: Self.evaluator(cash: Money(5_000_000), eachSymbol: false, commission: commission),
            maxConcurrency: 2)
        #expect(apart.rows.count == 9)
        #expect(apart.rows.map(\.metrics) == together.rows.map(\.metrics))
        #expect(apart.csv() == together.csv())
        #expect(apart.rows.allSatisfy { ($0.metrics["trades"] ?? 0) > 10 })
        // The two are different experiments (cash, how it is shared): their shards never merge.
        #expect(apart.header.fingerprint != together.header.fingerprint)
    }

    @Test func raggedAccountsCountAtTheirStartingCashAndThenTheirLatestEquity() throws {
        // Symbol 0 trades all 400 bars, symbol 1 only bars 100..<250, symbol 2 bars 0..<300.
        var series = Self.market.series
        series[1] = Array(series[1][100..<250])
        series[2] = Array(series[2][0..<300])
        let ragged = MarketData(
            universe: Universe(instruments: Array(Self.market.universe.instruments.prefix(3))), series: Array(series.prefix(3)))
        let cash = Money(100_000)
        let evaluator = Self.evaluator(cash: cash, eachSymbol: true)
        let parameters = try #require(try ParameterSpace(ranges: [ParameterRange(parsing: "fastPeriod=5")]).configurations.first)
        let book = try evaluator.pooledBook(parameters, data: ragged)
        // An independent sum: each account's equity at or before each time, its cash before its first point.
        let curves = try ragged.eachInstrument.map { try evaluator.backtest(parameters, data: $0).equityCurve }
        let times = Set(curves.flatMap { curve in (0..<curve.count).map { curve.time(at: $0).nanoseconds } }).sorted()
        #expect(book.times == times)
        for (k, time) in times.enumerated() {
            var total: Int64 = 0
            for curve in curves {
                let seen = (0..<curve.count).last { curve.time(at: $0).nanoseconds <= time }
                total += seen.map { curve.equity(at: $0).units } ?? cash.units
            }
            #expect(book.equity[k] == total, "at \(Timestamp(nanoseconds: time))")
        }
        #expect(book.accounts == 3 && book.initialCash == cash.units * 3)
        #expect(!book.trades.isEmpty)
        #expect(try book.metrics(periodsPerYear: 252).values.count == SweepMetrics.names.count)
    }
}
