import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Buys 10 on the first bar and keeps it protected at the broker (`ProtectiveOrders`, a 15 % stop); on a bar below
/// 95 (in the harness's units: `SessionCoreHarness.bar` makes a close of `c` into `c × 10⁶` price units) it rotates out: cancels the protection and sells, as momentum does when the symbol leaves its top ranks.
struct ProtectedUntilRotation: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, let bar) = event else { return [] }
        let position = context.position(for: id)
        let trading = ProtectiveOrders.tradingOrders(id, context)
        if position.isFlat {
            return trading.isEmpty ? [.submit(.market(id, .buy, Quantity(10)))] : []
        }
        if bar.close < Price(units: 95_000_000), trading.isEmpty {
            return ProtectiveOrders.cancel(id, context) + [.submit(.market(id, .sell, position.quantity))]
        }
        return ProtectiveOrders.maintain(id, levels: .init(stopLossPercent: 15, takeProfitPercent: nil), context)
    }
}

/// Issue 42: a halt never removes protection. Under `ctl kill` and after a failed journal write, the strategy's
/// rotation still cancelled the held position's protective stop while its exit was refused, leaving the position
/// with no stop and no alert. Now the cancel is not sent while every new order is refused.
struct HaltKeepsProtectionTests {
    typealias Harness = SessionCoreHarness<ProtectedUntilRotation>

    /// A harness holding 10 AAPL with its protective stop working at the broker.
    static func protectedPosition() throws -> (Harness, stopBrokerID: Int) {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(ProtectedUntilRotation(), settings: settings)
        harness.startUp()
        let buy = try #require(Self.bar(&harness, 60).placed.first)
        OperatorControlTests.fill(&harness, buy)
        let stop = try #require(Self.bar(&harness, 70).placed.first)
        #expect(stop.orders[0].side == .sell && ProtectiveOrders.isProtective(stop.orders[0].clientOrderID))
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
            orderID: stop.placements[0].orderID, status: "Submitted", filled: 0, remaining: 10))))
        return (harness, stop.placements[0].orderID)
    }

    @discardableResult
    static func bar(_ harness: inout Harness, _ seconds: Int64, close: Double = 100) -> [SessionAction] {
        harness.bar(at: Harness.start + .seconds(seconds), close: close).flatMap { harness.send($0, after: .seconds(1)) }
    }

    static func cancels(_ actions: [SessionAction]) -> [Int] {
        actions.compactMap { if case .cancelOrder(let id) = $0 { id } else { nil } }
    }

    @Test func underTheKillSwitchARotationKeepsTheStop() throws {
        var (harness, stopID) = try Self.protectedPosition()
        harness.send(OperatorControlTests.control(.kill), after: .seconds(1))
        let rotation = Self.bar(&harness, 80, close: 90)
        #expect(Self.cancels(rotation).isEmpty, "the protective stop stays at the broker")
        #expect(rotation.placed.isEmpty, "the exit is refused under the kill switch")
        #expect(harness.core.engine.orders.openOrders.contains { ProtectiveOrders.isProtective($0.clientOrderID) })
        // Resumed, the rotation goes through: the stop is cancelled and the position sold.
        harness.send(OperatorControlTests.control(.resume, id: 2), after: .seconds(1))
        let resumed = Self.bar(&harness, 90, close: 90)
        #expect(Self.cancels(resumed) == [stopID])
        #expect(resumed.placed.first?.orders[0].side == .sell)
    }

    @Test func afterAFailedJournalWriteARotationKeepsTheStop() throws {
        var (harness, _) = try Self.protectedPosition()
        harness.send(.journalFailed("No space left on device"), after: .seconds(1))
        let rotation = Self.bar(&harness, 80, close: 90)
        #expect(Self.cancels(rotation).isEmpty, "the protective stop stays at the broker")
        #expect(rotation.placed.isEmpty, "no new order while the journal fails")
        #expect(harness.core.engine.orders.openOrders.contains { ProtectiveOrders.isProtective($0.clientOrderID) })
    }
}

/// Issue 42: a position that had its protective stop and lost it is an ALERT after 30 s (journaled, an operator alert
/// of kind `protection`), and its return is said; a position that never had a stop is not watched.
struct ProtectionWatchTests {
    typealias Harness = SessionCoreHarness<ProtectedUntilRotation>

    /// A tick `after` the last input, with the requests it makes (heartbeat, execution sync) answered.
    static func tick<S: Strategy>(_ harness: inout SessionCoreHarness<S>, after span: TimeSpan) -> [SessionAction] {
        let actions = harness.send(.tick, after: span)
        return actions + harness.answerAll()
    }

    static func criticals(_ actions: [SessionAction]) -> [String] {
        actions.compactMap { if case .log(.critical, let text) = $0 { text } else { nil } }
    }

    @Test func aStopCancelledByHandIsAnAlertAfterItsGraceAndItsReturnIsSaid() throws {
        var (harness, stopID) = try HaltKeepsProtectionTests.protectedPosition()
        #expect(Self.criticals(Self.tick(&harness, after: .seconds(1))).isEmpty, "covered")
        // Someone cancels the stop in TWS.
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(orderID: stopID, status: "Cancelled", filled: 0, remaining: 10))))
        #expect(Self.criticals(Self.tick(&harness, after: .seconds(1))).isEmpty, "not at once")
        #expect(Self.criticals(Self.tick(&harness, after: .seconds(28))).isEmpty)
        let late = Self.tick(&harness, after: .seconds(2))
        let alert = try #require(Self.criticals(late).first)
        #expect(alert.hasPrefix("ALERT: 10 AAPL is held without its protective stop for 30 s (it had one)"), "\(alert)")
        #expect(late.contains { if case .journal(.event(.reconciliation, let text, _)) = $0 { text == alert } else { false } })
        let alerts = OperatorAlert.alerts(of: .tick, actions: late, phaseBefore: .running, phaseAfter: .running, at: harness.now)
        #expect(alerts.map(\.kind) == ["protection"])
        #expect(Self.criticals(Self.tick(&harness, after: .seconds(60))).isEmpty, "said once")
        // The strategy's next bar sends the stop again; once working, the return is said and resolves the alert.
        let next = HaltKeepsProtectionTests.bar(&harness, 200)
        let resend = try #require(next.placed.first, "\(next)")
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
            orderID: resend.placements[0].orderID, status: "Submitted", filled: 0, remaining: 10))))
        let back = Self.tick(&harness, after: .seconds(1))
        #expect(back.logs.contains("protection restored: 10 AAPL is covered by a working stop again"))
        let resolved = OperatorAlert.alerts(of: .tick, actions: back, phaseBefore: .running, phaseAfter: .running, at: harness.now)
        #expect(resolved.map(\.kind) == ["protection"] && resolved.allSatisfy(\.resolves))
    }

    @Test func aPositionThatNeverHadAStopIsNotWatched() throws {
        var harness = SessionCoreHarness(BuyWhenFlat())
        harness.startUp()
        let buy = try #require(harness.bar(at: SessionCoreHarness<BuyWhenFlat>.start + .seconds(60)).flatMap { harness.send($0) }.placed.first)
        OperatorControlTests.fill(&harness, buy)
        #expect(!harness.core.engine.portfolio.position(for: InstrumentID(index: 0)).isFlat)
        for _ in 0..<5 { #expect(Self.criticals(Self.tick(&harness, after: .seconds(30))).isEmpty) }
    }
}
