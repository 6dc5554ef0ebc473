import Simulation
import Testing
import TradingModel

/// Issue 26: how a resting limit fills on bars. `trades` (the default): when the bar's path reaches it. `quotes`
/// (`SimulationConfig.limitFillsAtQuotes`, `backtest.limitFills: quotes`, the drift report): only when the quote on
/// its side, the bar's open or close across the spread, reaches it, and then at that quote, as the gateway simulator
/// and IB fill it. Adaptive orders take `adaptiveSlippage`.
@Suite("limit fills: trades or quotes; adaptive slippage")
struct LimitFillModelTests {
    static let spread = SlippageModel.quotedSpread(basisPoints: 2, tick: Price("0.01")!)

    @Test("a bar whose low touches the limit fills it on trades, not on quotes")
    func touchingLow() {
        var trades = Harness()
        trades.submit(T.order(1, .buy, 10, .limit(Price(100))))
        #expect(T.fills(trades.feed(T.bar(1, "100.20", "100.30", "99.95", "100.10"))).map(\.price) == [Price(100)])
        var config = SimulationConfig()
        config.limitFillsAtQuotes = Self.spread
        var quotes = Harness(config)
        quotes.submit(T.order(1, .buy, 10, .limit(Price(100))))
        // At 100 the spread is 2 ticks: the ask is one tick above the price. Open 100.20, close 100.10: no ask ≤ 100.
        #expect(T.fills(quotes.feed(T.bar(1, "100.20", "100.30", "99.95", "100.10"))).isEmpty)
        // Close 99.98: its ask 99.99 is under the limit: filled there, at the quote.
        #expect(T.fills(quotes.feed(T.bar(2, "100.10", "100.10", "99.90", "99.98"))).map(\.price) == [Price("99.99")!])
    }

    @Test("a sell limit on quotes fills at the bid; an open already through fills at the open's quote")
    func sellAndOpen() {
        var config = SimulationConfig()
        config.limitFillsAtQuotes = Self.spread
        var quotes = Harness(config)
        quotes.submit(T.order(1, .sell, 10, .limit(Price(100))))
        // The open 100.50 has a bid of 100.49 (one tick under), above the limit: filled at it.
        #expect(T.fills(quotes.feed(T.bar(1, "100.50", "100.60", "100.40", "100.45"))).map(\.price) == [Price("100.49")!])
    }

    @Test("an Adaptive order fills as a market order with adaptiveSlippage; others keep slippage")
    func adaptiveSlippage() {
        var config = SimulationConfig(slippage: .fixedBasisPoints(10))
        config.adaptiveSlippage = SlippageModel.none
        var harness = Harness(config)
        var adaptive = T.order(1, .buy, 10)
        adaptive.execution = OrderExecution(algo: .adaptive(.patient))
        harness.submit(adaptive)
        harness.submit(T.order(2, .buy, 10))
        let prices = T.fills(harness.feed(T.bar(1, "100", "100", "100", "100"))).map(\.price)
        #expect(prices == [Price(100), Price("100.10")!])
    }
}

/// IB's MIDPRICE: a backtest fills it as a market order without the spread (the bar's trade prices stand for the
/// midpoint), within its cap; against quotes (the gateway simulator) at the quote's midpoint.
@Suite("MIDPRICE orders")
struct MidpriceMatchingTests {
    @Test("on bars: at the next open, no slippage; a cap waits like a limit")
    func bars() {
        var harness = Harness(SimulationConfig(slippage: .fixedBasisPoints(10)))
        harness.submit(T.order(1, .buy, 10, .midprice(cap: nil)))
        harness.submit(T.order(2, .buy, 10, .midprice(cap: Price("99.50")!)))
        #expect(T.fills(harness.feed(T.bar(1, "100", "100.20", "99.80", "100.10"))).map(\.price) == [Price(100)])
        #expect(T.fills(harness.feed(T.bar(2, "99.90", "99.90", "99.40", "99.60"))).map(\.price) == [Price("99.50")!])
    }

    @Test("on quotes: at the midpoint")
    func quotes() {
        var engine = MatchingEngine(config: SimulationConfig(), instrumentCount: 1)
        var reports: [ExecutionReport] = []
        engine.submit(T.order(1, .sell, 10, .midprice(cap: nil)), at: T.time(0), into: &reports)
        reports = []
        let quote = Quote(
            timestamp: T.time(1), bid: Price("99.99")!, ask: Price("100.02")!, bidSize: Quantity(100),
            askSize: Quantity(100))
        engine.process(quote: quote, for: T.id, into: &reports)
        #expect(T.fills(reports).map(\.price) == [Price("100.005")!])
    }
}
