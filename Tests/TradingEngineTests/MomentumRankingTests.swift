import Testing
import TradingEngine
import TradingModel

/// The rebalance's candidate set, at the strategy's own level: which instruments a rotation may buy.
@Suite struct MomentumRankingTests {
    /// A flat book with $100,000 of equity: the strategy's orders are the whole answer.
    struct FlatBook: StrategyContext {
        var now = Timestamp.zero
        var universe = Universe(symbols: ["AAA", "BBB"])
        var equity = Money(100_000)
        var cash = Money(100_000)
        func position(for instrument: InstrumentID) -> Position { Position(instrument: instrument) }
        func hasOpenOrders(for instrument: InstrumentID) -> Bool { false }
        func openOrders(for instrument: InstrumentID) -> [Order] { [] }
        func lastBar(for instrument: InstrumentID) -> Bar? { nil }
        func lastQuote(for instrument: InstrumentID) -> Quote? { nil }
    }

    static func day(_ n: Int64) -> Timestamp { Timestamp(nanoseconds: (20_000 + n) * Timestamp.nanosecondsPerDay) }

    static func bar(day n: Int64, _ close: Double) -> Bar {
        let price = Price(approximately: close)
        return Bar(timestamp: day(n), open: price, high: price, low: price, close: price, volume: Quantity(1_000))
    }

    /// Feeds one time slice (`nil`: no bar for that instrument) and returns the symbols the rebalance buys.
    static func slice(
        _ strategy: inout MomentumRotation, day n: Int64, _ closes: [Double?], book: FlatBook = FlatBook()
    ) -> [String] {
        for (i, close) in closes.enumerated() {
            guard let close else { continue }
            _ = strategy.handle(.bar(InstrumentID(index: i), bar(day: n, close)), in: book)
        }
        return strategy.handle(.barsClosed(day(n)), in: book).compactMap { action in
            guard case let .submit(order) = action, order.side == .buy else { return nil }
            return book.universe[order.instrument].symbol.rawValue
        }
    }

    @Test func anInstrumentWithoutABarInTheSliceIsNotRankedOnItsOldScore() {
        // AAA soars, then misses a day (a halt, a data gap). Its last score is still the best, but it is stale and so
        // is the price it would be sized on: the rotation ranks only instruments with a bar now.
        var strategy = MomentumRotation(config: MomentumRotationConfig(
            lookback: 2, holdings: 1, rebalance: .everyBars(1), minimumWeightChange: 0))
        _ = Self.slice(&strategy, day: 0, [100, 100])
        _ = Self.slice(&strategy, day: 1, [150, 101])
        #expect(Self.slice(&strategy, day: 2, [300, 102]) == ["AAA"])
        #expect(Self.slice(&strategy, day: 3, [nil, 103]) == ["BBB"])
    }

    @Test func aScoreExactlyAtTheMinimumQualifies() {
        // Rate of change over one bar: 100 → 150 is exactly 50 (%).
        func buys(minimumScore: Double) -> [String] {
            var strategy = MomentumRotation(config: MomentumRotationConfig(
                lookback: 1, minimumScore: minimumScore, holdings: 1, rebalance: .everyBars(1)))
            _ = Self.slice(&strategy, day: 0, [100, 100])
            return Self.slice(&strategy, day: 1, [150, 90])
        }
        #expect(buys(minimumScore: 50) == ["AAA"])
        #expect(buys(minimumScore: 50.000_001) == [])
    }
}
