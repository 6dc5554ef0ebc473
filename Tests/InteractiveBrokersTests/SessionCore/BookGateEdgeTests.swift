import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Sells 10 short when flat with nothing working.
struct ShortsTenWhenFlat: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, context.position(for: id).quantity.isZero, !context.hasOpenOrders(for: id)
        else { return [] }
        return [.submit(.market(id, .sell, Quantity(10)))]
    }
}

/// The reconciliation gate's failure paths and boundaries, and the held symbol's cover (issue 80's generated mutants
/// of `LiveSessionCore+BookGate.swift` that the gate's other tests let through): a resynchronization or a positions
/// request that fails is tried again `confirmAfter` later, not sooner and not never; the looks happen at exactly
/// their time; a cancel waits for the gate like any other command; an order on a held symbol may reduce the position
/// by exactly what the broker holds for the bot, long or short, and a resize counts only its unfilled part.
struct BookGateEdgeTests {
    static let aapl = InstrumentID(index: 0)

    /// Started, holding the 10 AAPL the strategy's first order bought or sold (filled on the first bar).
    static func holding<S: Strategy>(_ strategy: S) throws -> SessionCoreHarness<S> {
        var harness = SessionCoreHarness(strategy, settings: BookGateTests.settings())
        harness.startUp()
        let placed = harness.bar(at: SessionCoreHarness<S>.start + .seconds(60)).flatMap { harness.send($0, after: .seconds(1)) }
        let group = try #require(placed.placed.first)
        let wire = try #require(group.placements.first)
        var report = SessionCoreHarness<S>.execution(of: group, id: "E-1", permID: 77)
        harness.send(.orderEvent(generation: 1, .execution(report)))
        report.commission = TWSCommissionReport(executionID: "E-1", commission: 1, currency: "USD")
        harness.send(.orderEvent(generation: 1, .commission(report)))
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
            orderID: wire.orderID, status: "Filled", filled: 10, remaining: 0, permID: 77))))
        #expect(harness.core.engine.portfolio.position(for: aapl).quantity.magnitude == Quantity(10))
        return harness
    }

    /// An order of the bot's, as the engine would send it.
    static func order(_ side: Side, _ quantity: Int64) -> EngineCommand {
        .submit(Order(id: OrderID(900), clientOrderID: ClientOrderID("T:edge"), request: .market(aapl, side, Quantity(quantity)),
                      createdAt: SessionCoreHarness<RoundTripper>.start))
    }

    /// Whether the gate lets `command` go out (`interceptForBookGate` did not deal with it).
    static func goesOut<S: Strategy>(_ harness: inout SessionCoreHarness<S>, _ command: EngineCommand) -> Bool {
        var out = Actions()
        return !harness.core.interceptForBookGate(command, &out)
    }

    @Test func aFailedResynchronizationIsTriedAgainExactlyConfirmAfterLater() throws {
        var harness = try BookGateTests.holding()
        harness.send(.connectionClosed(generation: 1, "peer closed"), after: .seconds(5))
        harness.send(.tick, after: .seconds(1))
        harness.send(.connected(SessionCoreHarness<RoundTripper>.connection(generation: 2)))
        let openOrders = try #require(harness.outstanding.first { $0.1 == .openOrders }, "\(harness.outstanding)")
        let failed = harness.send(.failed(openOrders.0, .unanswered("timed out")), after: .seconds(1))
        #expect(failed.logs.contains("the broker's orders could not be read again; nothing is sent until they are (trying again in 15 s)"), "\(failed.logs)")
        #expect(failed.contains(.wakeUp(at: harness.now + .seconds(15))))
        harness.answerAll { $0 == .positions }
        #expect(!harness.outstanding.contains { $0.1 == .positions }, "no look at the positions on orders not read")
        let early = harness.send(.tick, after: .seconds(14))
        #expect(!SessionCoreHarness<RoundTripper>.requests(early).contains { $0.1 == .openOrders }, "not before 15 s")
        harness.answerAll { $0 == .positions || $0 == .openOrders }
        let due = harness.send(.tick, after: .seconds(1))
        #expect(SessionCoreHarness<RoundTripper>.requests(due).contains { $0.1 == .openOrders }, "read again at exactly 15 s")
        harness.answerAll { $0 == .positions }
        let look = try #require(harness.outstanding.first { $0.1 == .positions }?.0, "read: the gate's look follows")
        let agreed = harness.send(.answer(look, .positions(PositionCheckTests.aapl(10))))
        #expect(agreed.logs.contains { $0.hasPrefix("the broker's positions and orders agree with the bot's") })
    }

    @Test func aFailedPositionsRequestIsAskedAgainExactlyConfirmAfterLater() throws {
        var harness = try BookGateTests.holding()
        let tag = try BookGateTests.reconnect(&harness)
        let failed = harness.send(.failed(tag, .unanswered("timed out")), after: .seconds(2))
        #expect(failed.logs.contains("the broker's positions could not be read (timed out); nothing is sent until they are"), "\(failed.logs)")
        #expect(failed.contains(.wakeUp(at: harness.now + .seconds(15))))
        #expect(BookGateTests.tick(&harness, after: .seconds(14)).isEmpty, "not before 15 s")
        let again = try #require(BookGateTests.tick(&harness, after: .seconds(1)).first, "asked again at exactly 15 s")
        let agreed = harness.send(.answer(again, .positions(PositionCheckTests.aapl(10))))
        #expect(agreed.logs.contains { $0.hasPrefix("the broker's positions and orders agree with the bot's") })
    }

    @Test func theSecondLookIsAtExactlyConfirmAfterAndTheRegularCheckAnIntervalAfterTheAlert() throws {
        var harness = try BookGateTests.holding()
        let tag = try BookGateTests.reconnect(&harness)
        let first = harness.send(.answer(tag, .positions([])), after: .seconds(1))
        #expect(first.contains(.wakeUp(at: harness.now + .seconds(15))))
        #expect(BookGateTests.tick(&harness, after: .seconds(14)).isEmpty, "the second look waits 15 s")
        let again = try #require(BookGateTests.tick(&harness, after: .seconds(1)).first, "and comes at exactly 15 s")
        let second = harness.send(.answer(again, .positions([])))
        #expect(second.logs.contains { $0.hasPrefix("ALERT") })
        #expect(second.contains(.wakeUp(at: harness.now + .minutes(5))), "the regular check's time")
        #expect(PositionCheckTests.tick(&harness, after: .seconds(1)).isEmpty, "the regular check waits its interval")
        #expect(PositionCheckTests.tick(&harness, after: .seconds(299)).count == 1)
    }

    @Test func aCancelWaitsForTheGateOutsideAStop() throws {
        var harness = try BookGateTests.holding()
        _ = try BookGateTests.reconnect(&harness)
        var out = Actions()
        #expect(harness.core.interceptForBookGate(.cancel(OrderID(1)), &out), "the gate is closed: refused")
        #expect(out.list.logs == ["cancel of order 1 not sent: the broker's book is not confirmed since the connection to TWS closed"])
    }

    @Test func aHeldLongSellsExactlyWhatTheBrokerHoldsForTheBot() throws {
        var harness = try Self.holding(RoundTripper())
        harness.core.positionCheck.held = [Self.aapl: Quantity(6)]
        #expect(Self.goesOut(&harness, Self.order(.sell, 6)))
        #expect(!Self.goesOut(&harness, Self.order(.sell, 7)))
        #expect(Self.goesOut(&harness, Self.order(.buy, 20)), "adding is an entry: the pause decides, not the cover")
    }

    @Test func aHeldShortBuysBackExactlyWhatTheBrokerHoldsForTheBot() throws {
        var harness = try Self.holding(ShortsTenWhenFlat())
        #expect(harness.core.engine.portfolio.position(for: Self.aapl).quantity == Quantity(-10))
        harness.core.positionCheck.held = [Self.aapl: Quantity(-6)]
        #expect(Self.goesOut(&harness, Self.order(.buy, 6)))
        #expect(!Self.goesOut(&harness, Self.order(.buy, 7)))
        #expect(Self.goesOut(&harness, Self.order(.sell, 20)), "adding is an entry: the pause decides, not the cover")
    }

    @Test func aFlatHeldSymbolsOrdersAreEntriesEitherSide() {
        var harness = SessionCoreHarness(ShortsTenWhenFlat(), settings: BookGateTests.settings())
        harness.startUp()
        // The broker holds 5 short for the bot, the bot nothing: opening a short is an entry, not a reduction.
        harness.core.positionCheck.held = [Self.aapl: Quantity(-5)]
        #expect(Self.goesOut(&harness, Self.order(.sell, 10)))
        harness.core.positionCheck.held = [Self.aapl: Quantity(5)]
        #expect(Self.goesOut(&harness, Self.order(.buy, 10)))
    }

    @Test func aResizeCountsOnlyItsUnfilledPartAgainstTheCover() throws {
        var harness = try BookGateTests.holding()
        // The strategy's exit of the 10: 3 fill, 7 are held and 7 work.
        let bar = harness.bar(at: SessionCoreHarness<RoundTripper>.start + .seconds(120)).flatMap { harness.send($0, after: .seconds(1)) }
        let exit = try #require(bar.placed.first)
        var report = SessionCoreHarness<RoundTripper>.execution(of: exit, id: "E-2", shares: 3)
        harness.send(.orderEvent(generation: 1, .execution(report)))
        report.commission = TWSCommissionReport(executionID: "E-2", commission: 1, currency: "USD")
        harness.send(.orderEvent(generation: 1, .commission(report)))
        #expect(harness.core.engine.portfolio.position(for: Self.aapl).quantity == Quantity(7))
        let working = try #require(harness.core.engine.orders.openOrders(for: Self.aapl).first)
        #expect(working.filledQuantity == Quantity(3))
        harness.core.positionCheck.held = [Self.aapl: Quantity(5)]
        // A total of 8 leaves 5 to sell: covered; 9 leaves 6: not.
        let to8 = EngineCommand.modify(working.id, OrderModification(quantity: Quantity(8)), filledQuantity: Quantity(3))
        let to9 = EngineCommand.modify(working.id, OrderModification(quantity: Quantity(9)), filledQuantity: Quantity(3))
        #expect(Self.goesOut(&harness, to8))
        #expect(!Self.goesOut(&harness, to9))
    }
}
