import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// The engine's positions against the broker's while running (issue 21): a difference confirmed by a second look
/// is an ALERT that pauses entries until the books agree again; a reconnect triggers a check.
struct PositionCheckTests {
    typealias Harness = SessionCoreHarness<BuyWhenFlat>

    static func settings(interval: TimeSpan? = .minutes(5), pausing: Bool = true) -> SessionSettings {
        var settings = Harness.settings()
        settings.positionCheck = PositionCheckSettings(interval: interval, confirmAfter: .seconds(15), pausesEntries: pausing)
        return settings
    }

    static func aapl(_ quantity: Int) -> [TWSPosition] {
        [TWSPosition(account: "DU111", contract: TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD"),
                     quantity: Decimal(quantity), averageCost: 150)]
    }

    /// A tick `after` the last input, with the other requests it makes (heartbeat, execution sync) answered;
    /// returns the position checks it asked for.
    static func tick<S: Strategy>(_ harness: inout SessionCoreHarness<S>, after span: TimeSpan) -> [SessionTag] {
        harness.send(.tick, after: span)
        harness.answerAll { $0 == .positions }
        return harness.outstanding.filter { $0.1 == .positions }.map(\.0)
    }

    /// A tick `after` the last input must ask for the positions: answers them, returns the answer's actions.
    static func check<S: Strategy>(
        _ harness: inout SessionCoreHarness<S>, after span: TimeSpan, answer positions: [TWSPosition]
    ) -> [SessionAction] {
        guard let tag = tick(&harness, after: span).first else {
            Issue.record("no position check after \(span)")
            return []
        }
        return harness.send(.answer(tag, .positions(positions)))
    }

    @Test func aDifferenceSeenTwiceIsAnAlertThatPausesEntriesUntilTheBooksAgree() throws {
        var harness = Harness(BuyWhenFlat(), settings: Self.settings())
        harness.startUp()
        #expect(Self.tick(&harness, after: .seconds(60)).isEmpty, "not before the interval")
        // The broker holds 100 AAPL the engine knows nothing of (a gateway that lost state answers the other way).
        let first = Self.check(&harness, after: .seconds(240), answer: Self.aapl(100))
        #expect(first.logs.contains { $0.contains("positions differ from the broker's (AAPL 0 here, 100 at the broker); checking again in 15 s") })
        #expect(!first.contains { if case .milestone(.runner(.positionMismatch)) = $0 { true } else { false } })
        #expect(Self.tick(&harness, after: .seconds(10)).isEmpty, "the second look waits 15 s")
        let second = Self.check(&harness, after: .seconds(5), answer: Self.aapl(100))
        let difference = PositionDifference(symbol: "AAPL", engine: .zero, broker: Quantity(100))
        #expect(second.contains(.milestone(.runner(.positionMismatch([difference])))))
        let alert = try #require(second.first { if case .log(.critical, _) = $0 { true } else { false } })
        #expect(alert == .log(.critical, "ALERT: positions differ from the broker's: AAPL 0 here, 100 at the broker. No new orders until they agree (health.positionMismatch: pause); working orders stay. Compare with TWS's portfolio"))
        // Paused: the strategy's buy is not sent.
        let bar = harness.bar(at: Harness.start + .seconds(400)).flatMap { harness.send($0, after: .seconds(1)) }
        #expect(bar.placed.isEmpty)
        // The same difference again is not a second ALERT; agreement resumes entries.
        let third = Self.check(&harness, after: .seconds(300), answer: Self.aapl(100))
        #expect(!third.logs.contains { $0.hasPrefix("ALERT") })
        let agreed = Self.check(&harness, after: .seconds(300), answer: [])
        #expect(agreed.logs.contains("positions agree with the broker's again; new orders resume"))
        #expect(agreed.contains(.milestone(.runner(.positionsAgree))))
        let after = harness.bar(at: Harness.start + .seconds(1100)).flatMap { harness.send($0, after: .seconds(1)) }
        #expect(after.placed.count == 1)
        #expect(harness.core.counts.positionChecks == 4)
    }

    /// Issue 45: the operator's positions table has the broker's quantity beside the bot's, from the start's snapshot
    /// and each later look, and marks where they differ; a symbol only the broker holds gets a row with the bot's 0.
    @Test func theStatusShowsTheBrokersQuantityBesideTheBots() throws {
        var harness = Harness(BuyWhenFlat(), settings: Self.settings())
        harness.startUp()
        let start = harness.core.status(at: harness.now)
        #expect(start.positions.isEmpty, "both flat: no rows")
        #expect(start.brokerPositionsAt != nil, "the start's snapshot is the first look")
        _ = Self.check(&harness, after: .seconds(300), answer: Self.aapl(100))
        let first = try #require(harness.core.status(at: harness.now).positions.first { $0.symbol == "AAPL" })
        #expect(first.quantity == 0 && first.brokerQuantity == 100 && first.agreesWithBroker, "not confirmed yet")
        #expect(!first.changedSinceBrokerLook)
        _ = Self.check(&harness, after: .seconds(15), answer: Self.aapl(100))
        let row = try #require(harness.core.status(at: harness.now).positions.first { $0.symbol == "AAPL" })
        #expect(row.quantity == 0 && row.brokerQuantity == 100 && !row.agreesWithBroker, "confirmed")
        _ = Self.check(&harness, after: .seconds(300), answer: [])
        #expect(harness.core.status(at: harness.now).positions.isEmpty, "they agree again, both flat")
    }

    @Test func aDifferenceThatClearsOnTheSecondLookIsNoAlert() {
        var harness = Harness(BuyWhenFlat(), settings: Self.settings())
        harness.startUp()
        _ = Self.check(&harness, after: .seconds(300), answer: Self.aapl(100))
        let second = Self.check(&harness, after: .seconds(15), answer: [])
        #expect(!second.logs.contains { $0.hasPrefix("ALERT") || $0.contains("agree") })
        // Back on the regular interval.
        #expect(Self.tick(&harness, after: .seconds(60)).isEmpty)
        _ = Self.check(&harness, after: .seconds(240), answer: [])
    }

    @Test func withAlertOnlyEntriesGoOn() {
        var harness = Harness(BuyWhenFlat(), settings: Self.settings(pausing: false))
        harness.startUp()
        _ = Self.check(&harness, after: .seconds(300), answer: Self.aapl(100))
        let second = Self.check(&harness, after: .seconds(15), answer: Self.aapl(100))
        #expect(second.logs.contains { $0.hasSuffix("Trading goes on (health.positionMismatch: alert). Compare with TWS's portfolio") })
        let bar = harness.bar(at: Harness.start + .seconds(400)).flatMap { harness.send($0, after: .seconds(1)) }
        #expect(bar.placed.count == 1)
    }

    @Test func aReconnectIsFollowedByACheckOnceTheResynchronizationIsOver() throws {
        var harness = Harness(BuyWhenFlat(), settings: Self.settings(interval: nil))
        harness.startUp()
        #expect(Self.tick(&harness, after: .seconds(600)).isEmpty, "no interval: no periodic check")
        harness.send(.connectionClosed(generation: 1, "peer closed"), after: .seconds(1))
        harness.send(.tick, after: .seconds(1))
        harness.send(.connected(Harness.connection(generation: 2)))
        // The reconciliation gate's look (BookGateTests): asked for as soon as the broker's orders are read again.
        harness.answerAll { $0 == .positions }
        let tag = try #require(harness.outstanding.first { $0.1 == .positions }?.0)
        let agreed = harness.send(.answer(tag, .positions([])))
        #expect(agreed.logs.contains { $0.hasPrefix("the broker's positions and orders agree with the bot's") })
        #expect(harness.core.counts.positionChecks == 1)
    }
}
