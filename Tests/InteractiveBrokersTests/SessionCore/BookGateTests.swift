import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Buys 10 when flat and sells the position when long, whenever nothing is working: an exit on every other bar.
struct RoundTripper: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !context.hasOpenOrders(for: id) else { return [] }
        let held = context.position(for: id).quantity
        if held.isZero { return [.submit(.market(id, .buy, Quantity(10)))] }
        return [.submit(.market(id, .sell, held))]
    }
}

/// Issue 44: the reconciliation gate. From a drop until the broker's orders and positions have been read again and
/// agree with the bot's, the core sends nothing; a difference is an ALERT, and the symbol never gets an order that
/// sells what the broker does not hold.
struct BookGateTests {
    typealias Harness = SessionCoreHarness<RoundTripper>

    static func settings() -> SessionSettings {
        var settings = Harness.settings()
        settings.journaled = true
        settings.positionCheck = PositionCheckSettings(interval: .minutes(5), confirmAfter: .seconds(15), pausesEntries: true)
        return settings
    }

    /// Started, holding 10 AAPL bought (and filled) on the first bar.
    static func holding() throws -> Harness {
        var harness = Harness(RoundTripper(), settings: settings())
        harness.startUp()
        let placed = harness.bar(at: Harness.start + .seconds(60)).flatMap { harness.send($0, after: .seconds(1)) }
        let group = try #require(placed.placed.first)
        let wire = try #require(group.placements.first)
        var report = Harness.execution(of: group, id: "E-1", permID: 77)
        harness.send(.orderEvent(generation: 1, .execution(report)))
        report.commission = TWSCommissionReport(executionID: "E-1", commission: 1, currency: "USD")
        harness.send(.orderEvent(generation: 1, .commission(report)))
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
            orderID: wire.orderID, status: "Filled", filled: 10, remaining: 0, permID: 77))))
        #expect(harness.core.engine.portfolio.position(for: InstrumentID(index: 0)).quantity == Quantity(10))
        return harness
    }

    /// A tick `after` the last input, its other requests answered: the positions requests outstanding.
    static func tick(_ harness: inout Harness, after span: TimeSpan) -> [SessionTag] {
        harness.send(.tick, after: span)
        harness.answerAll { $0 == .positions }
        return harness.outstanding.filter { $0.1 == .positions }.map(\.0)
    }

    /// Drops the connection, reconnects and answers the recovery (resynchronization, back-fill), leaving the gate's
    /// positions request outstanding; returns its tag.
    static func reconnect(_ harness: inout Harness) throws -> SessionTag {
        let lost = harness.send(.connectionClosed(generation: 1, "peer closed"), after: .seconds(5))
        #expect(lost.logs.contains { $0.hasPrefix("no order is sent until the broker's positions and orders are read again") })
        harness.send(.tick, after: .seconds(1))
        harness.send(.connected(Harness.connection(generation: 2)))
        harness.answerAll { $0 == .positions }
        return try #require(harness.outstanding.first { $0.1 == .positions }?.0)
    }

    @Test func afterADropNothingIsSentUntilTheBrokersBookAgreesThenTheDecisionsAreTakenOnIt() throws {
        var harness = try Self.holding()
        let tag = try Self.reconnect(&harness)
        let closed = harness.core.status(at: harness.now).trading
        #expect(closed.state == "no new orders")
        #expect(closed.reasons.contains("the broker's book is not confirmed since the connection to TWS closed"))
        // Resubscribed, but the book is not confirmed: the bar waits, nothing is sent.
        let waiting = harness.bar(at: Harness.start + .seconds(120)).flatMap { harness.send($0, after: .seconds(1)) }
        #expect(waiting.placed.isEmpty)
        let agreed = harness.send(.answer(tag, .positions(PositionCheckTests.aapl(10))))
        #expect(agreed.logs.contains("the broker's positions and orders agree with the bot's after the connection to TWS closed: orders go out again"))
        // The bar that waited reaches the strategy on the confirmed book: its exit goes out.
        #expect(agreed.placed.count == 1)
        #expect(agreed.placed.first?.placements.first?.order.action == "SELL")
        #expect(!agreed.logs.contains { $0.hasPrefix("ALERT") })
        #expect(harness.core.status(at: harness.now).trading.reasons.isEmpty)
    }

    @Test func aGatewayThatLostThePositionsIsAnAlertAndThePositionIsNeverSold() throws {
        var harness = try Self.holding()
        let tag = try Self.reconnect(&harness)
        let first = harness.send(.answer(tag, .positions([])))
        #expect(first.logs.contains { $0.contains("(AAPL 10 here, 0 at the broker); checking again in 15 s; nothing is sent meanwhile") })
        let waiting = harness.bar(at: Harness.start + .seconds(120)).flatMap { harness.send($0, after: .seconds(1)) }
        #expect(waiting.placed.isEmpty)
        #expect(Self.tick(&harness, after: .seconds(5)).isEmpty, "the second look waits 15 s")
        let again = try #require(Self.tick(&harness, after: .seconds(10)).first)
        let second = harness.send(.answer(again, .positions([])))
        let difference = PositionDifference(symbol: "AAPL", engine: Quantity(10), broker: .zero)
        #expect(second.contains(.milestone(.runner(.positionMismatch([difference])))))
        let alert = try #require(second.logs.first { $0.hasPrefix("ALERT") })
        #expect(alert.contains("the broker's positions differ from the bot's: AAPL 10 here, 0 at the broker"), "\(alert)")
        #expect(alert.contains("new entries stay paused until the operator resumes"), "\(alert)")
        let journaled = second.compactMap { action -> String? in
            if case .journal(.event(.reconciliation, let text, _)) = action { text } else { nil }
        }
        #expect(journaled.contains(alert))
        // The bar that waited: the strategy sells the 10 it believes it holds; the broker holds none: not sent.
        #expect(second.placed.isEmpty)
        #expect(second.logs.contains { $0.contains("not sent: AAPL's position differs from the broker's") }, "\(second.logs)")
        // The operator resumes: the pause ends, but AAPL still sells nothing the broker does not hold.
        let resumed = harness.send(.control(OperatorControl(id: 1, action: .resume, by: "test", reason: "")))
        let replies = resumed.compactMap { action -> OperatorReply? in
            if case .reply(let reply) = action { reply } else { nil }
        }
        #expect(replies.first?.message.contains("AAPL still differ") == true, "\(replies)")
        #expect(harness.core.status(at: harness.now).trading.reasons == [
            "AAPL: positions differ from the broker's (no order sells more than it holds)"
        ])
        let later = harness.bar(at: Harness.start + .seconds(180)).flatMap { harness.send($0, after: .seconds(5)) }
        #expect(later.placed.isEmpty)
        #expect(harness.core.engine.portfolio.position(for: InstrumentID(index: 0)).quantity == Quantity(10))
    }

    @Test func aFlattenDuringTheDropClosesOnlyOnceTheBookIsConfirmed() throws {
        var harness = try Self.holding()
        harness.send(.connectionClosed(generation: 1, "peer closed"), after: .seconds(5))
        harness.send(.tick, after: .seconds(1))
        harness.send(.connected(Harness.connection(generation: 2)))
        // The operator flattens before the book is confirmed: the close waits for it.
        let during = harness.send(.control(OperatorControl(id: 2, action: .flatten, by: "test", reason: "")))
        #expect(during.placed.isEmpty)
        harness.answerAll { $0 == .positions }
        let tag = try #require(harness.outstanding.first { $0.1 == .positions }?.0)
        let agreed = harness.send(.answer(tag, .positions(PositionCheckTests.aapl(10))))
        #expect(agreed.placed.count == 1, "the close goes out on the confirmed book")
        #expect(agreed.placed.first?.placements.first?.order.action == "SELL")
        #expect(agreed.placed.first?.placements.first?.order.totalQuantity == 10)
    }

    @Test func anExitDuringAnIBOutageIsRefusedAndDecidedAgainOnceTheBookIsConfirmed() throws {
        var harness = try Self.holding()
        let lost = harness.send(.connectivity(generation: 1, .lost), after: .seconds(1))
        #expect(lost.logs.contains { $0.hasSuffix("(TWS lost its connection to IB (1100))") })
        // A bar while TWS is cut off from IB: the strategy's exit is refused, not kept for later.
        let during = harness.bar(at: Harness.start + .seconds(120)).flatMap { harness.send($0, after: .seconds(1)) }
        #expect(during.placed.isEmpty)
        #expect(during.logs.contains { $0.contains("not sent: the broker's book is not confirmed since TWS lost its connection to IB (1100)") })
        harness.send(.connectivity(generation: 1, .restored(dataLost: false)), after: .seconds(5))
        harness.answerAll { $0 == .positions }
        let tag = try #require(harness.outstanding.first { $0.1 == .positions }?.0)
        let agreed = harness.send(.answer(tag, .positions(PositionCheckTests.aapl(10))))
        #expect(agreed.logs.contains { $0.hasPrefix("the broker's positions and orders agree with the bot's after TWS lost its connection to IB (1100) (1 order command(s) were not sent meanwhile)") })
        #expect(agreed.placed.isEmpty, "the refused exit is not sent by itself")
        let next = harness.bar(at: Harness.start + .seconds(180)).flatMap { harness.send($0, after: .seconds(5)) }
        #expect(next.placed.first?.placements.first?.order.action == "SELL", "decided again on the confirmed book")
    }
}
