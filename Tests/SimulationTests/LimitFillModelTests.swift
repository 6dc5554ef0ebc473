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
