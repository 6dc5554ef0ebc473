import Backtest
import Testing
import TradingEngine
import TradingModel

/// Issue 47: a backtest over the bars the bot saw (each contract month's as traded) moves a continuous future's
/// history where the bot did (`BacktestConfig.historyRebases`) and re-warms the strategy, so its decisions from there
/// on are a back-adjusted backtest's. Checked against a plain backtest over the same bars back-adjusted by hand.
struct HistoryRebaseBacktestTests {
    static let hour: Int64 = 3_600
    static let start = Timestamp(year: 2024, month: 3, day: 4, secondOfDay: 14 * 3600)

    static func bar(_ k: Int, _ close: Int) -> Bar {
        let price = Price(close)
        return Bar(
            timestamp: start + .seconds(hour * Int64(k)), open: price, high: price, low: price, close: price,
            volume: Quantity(1_000))
    }

    /// The old month falls from 110 to 103 and rises to 115 (20 bars); the new month, 30 below, goes on rising.
    static func underlying(_ k: Int) -> Int { k < 8 ? 110 - k : 96 + k }
    static let asTraded = (0..<20).map { bar($0, underlying($0)) } + (20..<30).map { bar($0, underlying($0) - 30) }
    /// The same with the old month moved by the gap: no jump.
    static let backAdjusted = (0..<30).map { bar($0, underlying($0) - 30) }
    static let rebase = HistoryRebase(
        instrument: InstrumentID(index: 0), gap: Price(-30), before: start + .seconds(hour * 20),
        after: start + .seconds(hour * 19))

    static func orders(_ series: [[Bar]], rebases: [HistoryRebase] = []) -> [String] {
        let strategy = MovingAverageCrossover(config: MovingAverageCrossoverConfig(
            fastPeriod: 2, slowPeriod: 4, allowShort: true, sizing: .fixedQuantity(Quantity(1))))
        var config = BacktestConfig()
        config.historyRebases = rebases
        let symbols: [Symbol] = series.count == 1 ? ["ES continuous"] : ["ES continuous", "NQ continuous"]
        let result = BacktestRunner.run(
            strategy: strategy, data: MarketData(universe: Universe(symbols: symbols), series: series), config: config)
        return result.orders.filter { $0.instrument.index == 0 }.map {
            "\($0.createdAt) \($0.side.rawValue) \($0.quantity)"
        }
    }

    @Test func movedAtTheRollTheDecisionsAreTheBackAdjustedBacktests() {
        let adjusted = Self.orders([Self.backAdjusted])
        #expect(adjusted.count == 1, "one buy on the turn, then held: \(adjusted)")
        #expect(Self.orders([Self.asTraded], rebases: [Self.rebase]) == adjusted)
        // Without the move the roll's jump of −30 reads as a fall: the strategy turns short on it.
        let unmoved = Self.orders([Self.asTraded])
        #expect(unmoved != adjusted)
        #expect(unmoved.contains { $0.contains("SELL") } && !adjusted.contains { $0.contains("SELL") }, "\(unmoved)")
    }

    @Test func withASecondInstrumentTheMoveIsBetweenTimeSteps() {
        let other = (0..<30).map { Self.bar($0, 50 + ($0 % 3)) }
        let adjusted = Self.orders([Self.backAdjusted, other])
        #expect(Self.orders([Self.asTraded, other], rebases: [Self.rebase]) == adjusted)
        #expect(Self.orders([Self.asTraded, other]) != adjusted)
    }
}
