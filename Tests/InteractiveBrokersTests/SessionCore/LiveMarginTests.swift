import Foundation
import Testing
import TradingEngine
import TradingModel

@testable import LiveSession

/// Buys 1,900 shares once: leveraged, to test the margin rule.
struct BuyOnce1900: Strategy {
    var bought = false
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !bought else { return [] }
        bought = true
        return [.submit(.market(id, .buy, Quantity(1_900)))]
    }
}

/// The margin rule live (issue 26): a maintenance breach is an ALERT (kind `margin`) and the book is reduce-only
/// until the requirement is met again.
struct LiveMarginTests {
    @Test func aMaintenanceBreachIsAnAlertAndItsEndIsLogged() throws {
        typealias Harness = SessionCoreHarness<BuyOnce1900>
        var settings = Harness.settings()
        settings.engine.risk.initialMarginPercent = 50
        var harness = Harness(BuyOnce1900(), settings: settings)
        harness.startUp()
        // The harness's `bar(at:close:)` takes the close in hundredths.
        func bar(_ seconds: Int64, _ close: Double) -> [SessionAction] {
            harness.bar(at: Harness.start + .seconds(seconds), close: close * 100).flatMap { harness.send($0, after: .seconds(1)) }
        }
        let buy = try #require(bar(60, 100).placed.first)
        #expect(buy.orders[0].quantity == Quantity(1_900))
        OperatorControlTests.fill(&harness, buy, price: 100)
        let fall = bar(70, 60)
        // The operator's figure: equity 23,999 less the initial margin 50 % × 114,000.
        #expect(abs((harness.core.status(at: harness.now).money.buyingPower ?? 0) - (23_999 - 57_000)) < 1e-6)
        // Equity: 100,000 − 190,000 + 1,900 × 60 − 1 (the commission) = 23,999.
        let alert = "ALERT: maintenance margin 28500.00 above equity 23999.00: reduce-only (no new entries) until it is "
            + "met again; reduce positions or add funds"
        #expect(fall.logs.contains(alert), "\(fall.logs)")
        let alerts = OperatorAlert.alerts(
            of: .tick, actions: fall, phaseBefore: .running, phaseAfter: .running, at: harness.now)
        #expect(alerts.map(\.kind) == ["margin"])
        let recovery = bar(80, 90)
        #expect(recovery.logs.contains { $0.hasPrefix("maintenance margin 42750.00 met again (equity 80999.00)") }, "\(recovery.logs)")
    }
}

/// The margin rule's figures against IB's (issue 26): each position check also asks for the account's margin
/// figures; close ones are logged, an IB requirement above the bot's is a warning, journaled.
struct MarginAgainstIBTests {
    typealias Harness = SessionCoreHarness<BuyOnce1900>

    /// A run long 1,900 AAPL at 100 (initial 95,000, maintenance 47,500 at Reg-T), at its first position check;
    /// returns the answer's actions to IB's figures.
    static func compared(_ values: [String: String]) throws -> [SessionAction] {
        var settings = Harness.settings()
        settings.engine.risk.initialMarginPercent = 50
        settings.positionCheck = PositionCheckSettings(interval: .minutes(5), confirmAfter: .seconds(15), pausesEntries: true)
        settings.journaled = true
        var harness = Harness(BuyOnce1900(), settings: settings)
        harness.startUp()
        let buy = try #require(
            harness.bar(at: Harness.start + .seconds(60), close: 10_000).flatMap { harness.send($0, after: .seconds(1)) }
                .placed.first)
        OperatorControlTests.fill(&harness, buy, price: 100)
        harness.send(.tick, after: .seconds(300))
        harness.answerAll { $0 == .positions }
        let check = try #require(harness.outstanding.first { $0.1 == .positions }?.0, "no position check")
        _ = harness.send(.answer(check, .positions(PositionCheckTests.aapl(1_900))))
        let tag = try #require(harness.outstanding.first { $0.1 == .accountValues }?.0, "no margin check asked for")
        return harness.send(.answer(tag, .accountValues(values)))
    }

    @Test func closeFiguresAreLogged() throws {
        let actions = try Self.compared([
            "InitMarginReq": "95000.00", "MaintMarginReq": "47500.00", "EquityWithLoanValue": "99999.00",
            "NetLiquidation": "99999.00",
        ])
        #expect(actions.logs == [
            "margin against IB's: initial 95000.00 (IB 95000.00), maintenance 47500.00 (IB 47500.00), equity 99999.00 "
                + "(IB 99999.00)"
        ])
    }

    @Test func anIBRequirementAboveTheBotsIsAWarningInTheJournal() throws {
        let actions = try Self.compared(["InitMarginReq": "95000", "MaintMarginReq": "66500", "NetLiquidation": "99999"])
        let warning = try #require(actions.first { if case .log(.warning, _) = $0 { true } else { false } })
        guard case .log(_, let text) = warning else { return }
        #expect(text.hasPrefix("IB's margin requirement is above the bot's (maintenance 66500.00 against 47500.00)"))
        #expect(actions.contains { if case .journal(.event(.note, let note, _)) = $0 { note == text } else { false } })
    }
}
