import Testing
import TradingModel

@testable import TradingEngine

/// The realized-P&L total a restart recovers from the restored books (`Portfolio.impliedRealizedPnL`,
/// `EngineCore.restoreRealizedPnL`).
struct RealizedPnLRestoreTests {
    @Test func theBooksImplyTheRealizedTotalAfterEveryFillLongShortAndFlipped() {
        var portfolio = Portfolio(cash: Money(1_000_000), instrumentCount: 2)
        let fills = [
            E.fill(OrderID(1), .buy, 100, "10", commission: Money(1)),
            E.fill(OrderID(2), .buy, 100, "12", commission: Money(1)),  // average 11
            E.fill(OrderID(3), .sell, 50, "13.5", commission: Money(1)),  // +125
            E.fill(OrderID(4), .sell, 200, "9", commission: Money(2)),  // −300, flips to short 50 at 9
            E.fill(OrderID(5), .sell, 30, "9.5", instrument: E.b, commission: Money(1)),
            E.fill(OrderID(6), .buy, 50, "8", commission: Money(1)),  // +50, flat
        ]
        for fill in fills {
            portfolio.apply(fill)
            #expect(portfolio.impliedRealizedPnL == portfolio.realizedPnL, "after \(fill.orderID)")
        }
        #expect(portfolio.realizedPnL == Money(-125))
    }

    @Test func flatTheRestoredTotalIsExactWithPositionsTheTotalPnLIsKept() {
        // The run before: bought 100 at 10 (commission 1), sold 60 at 12 (commission 1): realized 120, 40 open.
        var before = Portfolio(cash: Money(1_000_000), instrumentCount: 3)
        before.apply(E.fill(OrderID(1), .buy, 100, "10", commission: Money(1)))
        before.apply(E.fill(OrderID(2), .sell, 60, "12", commission: Money(1)))
        before.mark(E.a, at: Price(12))
        #expect(before.realizedPnL == Money(120))

        // The restart: the broker's average cost includes the opening commission (10.01), cash and commissions
        // come from the journal.
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([]), config: EngineConfig(initialCash: Money(1_000_000)))
        engine.restore(positions: [RestoredPosition(instrument: E.a, quantity: Quantity(40), averagePrice: Price("10.01")!)], at: E.time(0))
        engine.restore(cash: before.cash, commissions: before.commissions, at: E.time(0))
        #expect(engine.portfolio.realizedPnL == .zero, "not restored yet")
        let restored = engine.restoreRealizedPnL()
        #expect(restored == Money("120.4")! && engine.portfolio.realizedPnL == restored)
        _ = engine.handle(.bar(E.a, E.bar(1, "12")))
        // realized − commissions + unrealized = equity − starting cash, before and after.
        let total = { (p: Portfolio) in p.realizedPnL - p.commissions + p.unrealizedPnL }
        #expect(total(engine.portfolio) == total(before))
        #expect(total(engine.portfolio) == engine.portfolio.equity - engine.portfolio.initialCash)

        // Closing the position afterwards lands on the run-before-and-after total with no restart at all.
        before.apply(E.fill(OrderID(3), .sell, 40, "12", commission: Money(1)))
        var flat = EngineCore(universe: E.universe, strategy: ScriptedStrategy([]), config: EngineConfig(initialCash: Money(1_000_000)))
        flat.restore(cash: before.cash, commissions: before.commissions, at: E.time(2))
        #expect(flat.restoreRealizedPnL() == before.realizedPnL && before.realizedPnL == Money(200))
    }
}
