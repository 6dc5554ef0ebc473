import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers

/// `EngineCore.restore`: the engine after a restart holds the broker's positions and our open orders, which then
/// behave like orders it placed itself.
struct ReconciliationEngineRestoreTests {
    /// Records what it is told; sells everything of AAPL on the first bar when it holds some.
    struct Watcher: Strategy {
        var seen: [StrategyEvent] = []
        var sellOnBar = false
        mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
            seen.append(event)
            guard sellOnBar, case .bar = event else { return [] }
            let held = context.position(for: aapl).quantity
            sellOnBar = false
            return held.units > 0 ? [.submit(OrderRequest(instrument: aapl, side: .sell, quantity: held))] : []
        }
    }

    static func engine(sellOnBar: Bool = false) -> EngineCore<Watcher> {
        EngineCore(
            universe: testUniverse, strategy: Watcher(sellOnBar: sellOnBar),
            config: EngineConfig(initialCash: Money(100_000)))
    }

    @Test func positionsAreBookedAtTheirAverageCostAgainstCash() {
        var engine = Self.engine()
        let skipped = engine.restore(
            positions: [
                RestoredPosition(instrument: aapl, quantity: Quantity(100), averagePrice: Price(150)),
                RestoredPosition(instrument: msft, quantity: Quantity(-10), averagePrice: Price(300)),
                RestoredPosition(instrument: InstrumentID(9), quantity: Quantity(1), averagePrice: Price(1)),
            ], at: t0)
        #expect(skipped == [InstrumentID(9)])
        #expect(engine.portfolio.position(for: aapl).quantity == Quantity(100))
        #expect(engine.portfolio.position(for: aapl).averagePrice == Price(150))
        #expect(engine.portfolio.position(for: msft).quantity == Quantity(-10))
        #expect(engine.portfolio.cash == Money(100_000 - 15_000 + 3_000))
        #expect(engine.portfolio.equity == Money(100_000))
        #expect(engine.portfolio.realizedPnL == .zero && engine.portfolio.commissions == .zero)
        #expect(engine.strategy.seen.isEmpty)
        // A second restore of a held position is refused (the engine must be flat there).
        #expect(engine.restore(positions: [RestoredPosition(instrument: aapl, quantity: Quantity(5), averagePrice: Price(1))], at: t0) == [aapl])
    }

    @Test func theStrategySeesARestoredPositionAndMayCloseIt() {
        var engine = Self.engine(sellOnBar: true)
        engine.restore(positions: [RestoredPosition(instrument: aapl, quantity: Quantity(100), averagePrice: Price(150))], at: t0)
        let bar = Bar(timestamp: t0 + .seconds(5), open: Price(151), high: Price(151), low: Price(151), close: Price(151), volume: Quantity(1))
        let commands = engine.handle(.bar(aapl, bar))
        guard case .submit(let order) = commands.first else {
            Issue.record("the strategy must be able to close the adopted position, got \(commands)")
            return
        }
        #expect(order.side == .sell && order.quantity == Quantity(100))
    }

    @Test func anAdoptedOrderIsOpenKeepsItsFillsAndTakesReportsLikeAnyOther() throws {
        var engine = Self.engine()
        engine.restore(positions: [RestoredPosition(instrument: aapl, quantity: Quantity(40), averagePrice: Price(10))], at: t0)
        var request = OrderRequest(instrument: aapl, side: .buy, quantity: Quantity(100), type: .limit(Price(10)))
        request.clientOrderID = "IBT:1:O-7"
        let restored = engine.restore(
            order: RestoredOrder(request: request, stage: .working, filledQuantity: Quantity(40), averageFillPrice: Price(10)),
            at: t0)
        let order = try #require(restored)
        #expect(order.state == .partiallyFilled && order.filledQuantity == Quantity(40))
        #expect(order.clientOrderID == "IBT:1:O-7")
        #expect(engine.state.openOrders(for: aapl).map(\.id) == [order.id])
        // What traded before the restart is not booked again.
        #expect(engine.portfolio.position(for: aapl).quantity == Quantity(40))
        // The rest fills through a normal report: position and order move together.
        let fill = Fill(orderID: order.id, instrument: aapl, side: .buy, quantity: Quantity(60), price: Price(10), timestamp: t0 + .seconds(1))
        _ = engine.handle(.execution(.filled(fill)))
        #expect(engine.orders.order(order.id)?.state == .filled)
        #expect(engine.portfolio.position(for: aapl).quantity == Quantity(100))
        #expect(engine.state.openOrders(for: aapl).isEmpty)
    }

    @Test func anAdoptedOrderCanBeCancelledAndAResentOneWaitsForItsAcknowledgement() throws {
        var engine = Self.engine()
        var working = OrderRequest(instrument: msft, side: .sell, quantity: Quantity(5), type: .limit(Price(400)))
        working.clientOrderID = "IBT:1:O-8"
        let adoptedOrder = engine.restore(order: RestoredOrder(request: working, stage: .working), at: t0)
        let adopted = try #require(adoptedOrder)
        #expect(adopted.state == .accepted)
        let commands = engine.handle(.killSwitch(engaged: true))
        #expect(commands == [.cancel(adopted.id)])
        _ = engine.handle(.execution(.canceled(adopted.id, reason: .requested, at: t0)))
        #expect(engine.orders.order(adopted.id)?.state == .canceled)

        var unsent = OrderRequest(instrument: aapl, side: .buy, quantity: Quantity(10))
        unsent.clientOrderID = "IBT:1:O-9"
        let resentOrder = engine.restore(order: RestoredOrder(request: unsent, stage: .submitted), at: t0)
        let resent = try #require(resentOrder)
        #expect(resent.state == .submitted)
        _ = engine.handle(.execution(.accepted(resent.id, at: t0)))
        #expect(engine.orders.order(resent.id)?.state == .accepted)
        // Bracket children restored after their parent are linked to it.
        var child = OrderRequest(instrument: aapl, side: .sell, quantity: Quantity(10), type: .stop(Price(9)))
        child.clientOrderID = "IBT:1:O-9-SL"
        let linkedOrder = engine.restore(
            order: RestoredOrder(request: child, stage: .submitted, parent: "IBT:1:O-9"), at: t0)
        let linked = try #require(linkedOrder)
        #expect(linked.parentID == resent.id)
        #expect(engine.restore(order: RestoredOrder(request: OrderRequest(instrument: InstrumentID(7), side: .buy, quantity: Quantity(1)), stage: .working), at: t0) == nil)
    }
}
