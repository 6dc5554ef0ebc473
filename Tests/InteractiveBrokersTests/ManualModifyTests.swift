import Foundation
import LiveSession
import Storage
import TWSClient
import TWSProtocol
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers

/// `ibtrader modify`: the pure validation, and modifications against the simulator.
@Suite("manual modify", .timeLimit(.minutes(1)))
struct ManualModifyTests {
    static func modification(_ change: (inout ManualModifyArguments) -> Void) throws -> ManualModification {
        var a = ManualModifyArguments()
        change(&a)
        return try ManualModification(a)
    }

    static func message(_ change: (inout ManualModifyArguments) -> Void) -> String? {
        do {
            _ = try modification(change)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("arguments: at least one change, positive numbers, one trailing option")
    func validation() {
        #expect(Self.message { _ in } == "nothing to change: give --qty, --limit, --stop, --trail-amount or --trail-percent")
        #expect(Self.message { $0.quantity = "0" } == "--qty must be a positive number, got '0'")
        #expect(Self.message { $0.limit = "-1" } == "--limit must be a positive price, got '-1'")
        #expect(Self.message { $0.trailPercent = "100" } == "--trail-percent must be a number in (0, 100), got '100'")
        #expect(Self.message { $0.trailAmount = "1"; $0.trailPercent = "2" } == "--trail-amount and --trail-percent are exclusive: give one")
        #expect(Self.message { $0.quantity = "5"; $0.limit = "10.5" } == nil)
    }

    @Test("the change must fit the order's type; unchanged terms are refused")
    func changeOfType() throws {
        let limit = try Self.modification { $0.limit = "149.5" }
        #expect(try limit.change(of: .limit(Price(150)), quantity: Quantity(10)) == OrderModification(type: .limit(Price("149.5")!)))
        #expect(throws: ManualOrderError("--limit does not apply to a STP order")) {
            _ = try limit.change(of: .stop(Price(140)), quantity: Quantity(10))
        }
        #expect(throws: ManualOrderError("a price does not apply to a MKT order")) {
            _ = try limit.change(of: .market, quantity: Quantity(10))
        }
        // A stop-limit keeps the price not given.
        let stop = try Self.modification { $0.stop = "139" }
        #expect(
            try stop.change(of: .stopLimit(stop: Price(140), limit: Price(141)), quantity: Quantity(10))
                == OrderModification(type: .stopLimit(stop: Price(139), limit: Price(141))))
        // A trailing amount may become a percent (still TRAIL).
        let percent = try Self.modification { $0.trailPercent = "1.5" }
        #expect(try percent.change(of: .trailingAmount(Price(2)), quantity: Quantity(10)) == OrderModification(type: .trailingPercent(1.5)))
        // Only the quantity: no pricing in the change.
        let quantity = try Self.modification { $0.quantity = "20" }
        #expect(try quantity.change(of: .market, quantity: Quantity(10)) == OrderModification(quantity: Quantity(20)))
        #expect(throws: ManualOrderError("the order already has these terms: nothing to change")) {
            _ = try quantity.change(of: .market, quantity: Quantity(20))
        }
    }

    /// Places a resting limit buy (far below the market) under `key` with client 41.
    static func restingOrder(_ key: String, port: Int, journal: OrderJournal?) async throws -> Int {
        let ticket = try ManualTradingTests.ticket(type: "LMT") { $0.limit = "1" }
        let result = try await ManualTradingTests.place(ticket, key: key, port: port, settings: ManualTradingTests.settings(journal))
        #expect(result.outcome == .acknowledged)
        return try #require(result.legs.first).brokerOrderID
    }

    static func modify(
        _ id: Int, port: Int, settings: ManualSettings, clientID: Int = 41,
        _ change: (inout ManualModifyArguments) -> Void
    ) async throws -> ManualModifyResult {
        let modification = try Self.modification(change)
        return try await TWSConnection.connect(connectionConfiguration(port, clientID: clientID)) { connection, info in
            try await ManualTrading.modifyOrder(id, modification: modification, on: (connection, info, settings))
        }
    }

    static func openOrder(_ port: Int, ref: String) async throws -> TWSOrder? {
        try await TWSConnection.connect(connectionConfiguration(port, clientID: 77)) { c, _ in
            try await c.allOpenOrders().first { $0.order.orderRef == ref }?.order
        }
    }

    @Test("quantity and limit of a working order are modified: one placeOrder with the same id, journaled, echoed")
    func modifiesLimitOrder() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                let id = try await Self.restingOrder("mod-1", port: port, journal: journal)
                let result = try await Self.modify(id, port: port, settings: ManualTradingTests.settings(journal)) {
                    $0.quantity = "20"
                    $0.limit = "1.5"
                }
                #expect(result.outcome == .acknowledged)
                #expect(result.orderRef == "IBT:manual:mod-1" && result.orderID == id)
                #expect(result.before == "BUY 10 LMT 1" && result.after == "BUY 20 LMT 1.5")
                let wire = try #require(try await Self.openOrder(port, ref: "IBT:manual:mod-1"))
                #expect(wire.totalQuantity == Decimal(20) && wire.limitPrice == 1.5)
                let log = await simulator.state().placeOrderLog.filter { $0.orderRef == "IBT:manual:mod-1" }
                #expect(log.map(\.isModification) == [false, true] && Set(log.map(\.orderID)) == [id])
                #expect(await simulator.state().submissions(clientID: 41)["IBT:manual:mod-1"] == 1)
                let history = try journal.history(of: ClientOrderID("IBT:manual:mod-1"))
                #expect(history.contains { $0.state == .pendingReplace })
                let notes = try journal.events(kind: .note).map(\.message)
                #expect(notes.contains { $0.contains("manual modify of order \(id) IBT:manual:mod-1: BUY 10 LMT 1 → BUY 20 LMT 1.5") })
            }
        }
    }

    @Test("a bracket's stop-loss is moved by its own id and stays linked to its parent")
    func movesBracketStop() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { _, port in
                let ticket = try ManualTradingTests.ticket(type: "LMT") { $0.limit = "1"; $0.stopLoss = "0.5"; $0.takeProfit = "10000" }
                let placed = try await ManualTradingTests.place(
                    ticket, key: "mod-b", port: port, settings: ManualTradingTests.settings(journal))
                let stopLoss = try #require(placed.legs.first { $0.orderRef == "IBT:manual:mod-b-SL" })
                let result = try await Self.modify(stopLoss.brokerOrderID, port: port, settings: ManualTradingTests.settings(journal)) {
                    $0.stop = "0.6"
                }
                #expect(result.outcome == .acknowledged && result.before == "SELL 10 STP 0.5" && result.after == "SELL 10 STP 0.6")
                let wire = try #require(try await Self.openOrder(port, ref: "IBT:manual:mod-b-SL"))
                #expect(wire.auxPrice == 0.6 && wire.parentID == placed.legs[0].brokerOrderID)
            }
        }
    }

    @Test("refused before sending: a price the type lacks, an unknown id, another client's order, a risk denial")
    func refusals() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                let id = try await Self.restingOrder("mod-2", port: port, journal: journal)
                let settings = ManualTradingTests.settings(journal)
                await #expect(throws: ManualTradingError.notModifiable("order \(id): --stop does not apply to a LMT order")) {
                    _ = try await Self.modify(id, port: port, settings: settings) { $0.stop = "2" }
                }
                await #expect(throws: ManualTradingError.orderNotFound("with order id 999")) {
                    _ = try await Self.modify(999, port: port, settings: settings) { $0.limit = "2" }
                }
                await #expect(throws: ManualTradingError.otherClientModify(orderID: id, clientID: 41)) {
                    _ = try await Self.modify(id, port: port, settings: settings, clientID: 42) { $0.limit = "2" }
                }
                var killed = settings
                killed.killSwitchEngaged = true
                let denied = try await Self.modify(id, port: port, settings: killed) { $0.quantity = "30" }
                #expect(denied.outcome.denialRule == .killSwitch, "\(denied.outcome)")
                var limited = settings
                limited.risk.maxPositionValue = Money(15)  // 20 × 1 would be 20
                let overLimit = try await Self.modify(id, port: port, settings: limited) { $0.quantity = "20" }
                #expect(overLimit.outcome.denialRule == .maxPositionValue, "\(overLimit.outcome)")
                let log = await simulator.state().placeOrderLog.filter { $0.orderRef == "IBT:manual:mod-2" }
                #expect(log.count == 1, "nothing but the original placeOrder reached the simulator")
                #expect(try journal.events(kind: .riskDenial).count == 2)
            }
        }
    }

    @Test("a modification TWS rejects leaves the old terms working and is reported with TWS's text")
    func rejected() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                let id = try await Self.restingOrder("mod-3", port: port, journal: journal)
                // Off the tick at that price (0.01 from $1 under the contract's market rule): refused before anything
                // is sent, naming the prices on the tick.
                await #expect(
                    throws: ManualTradingError.offTick(
                        "1.005 is not a price SYN000 trades at: its tick at 1.005 is 0.01 (market rule 26: 0 → 0.0001, "
                            + "1 → 0.01); use 1 or 1.01")
                ) {
                    _ = try await Self.modify(id, port: port, settings: ManualTradingTests.settings(journal)) {
                        $0.limit = "1.005"
                    }
                }
                let sent = await simulator.state().placeOrderLog.filter { $0.orderRef == "IBT:manual:mod-3" }
                #expect(sent.count == 1, "only the original placeOrder reached the simulator")
                // A price TWS refuses (out of its range): the rejection is reported with TWS's text.
                let result = try await Self.modify(id, port: port, settings: ManualTradingTests.settings(journal)) {
                    $0.limit = "20000000"
                }
                guard case .rejected(let text) = result.outcome else {
                    Issue.record("expected a rejection, got \(result.outcome)")
                    return
                }
                #expect(text.hasPrefix("201 "), "\(text)")
                let wire = try #require(try await Self.openOrder(port, ref: "IBT:manual:mod-3"))
                #expect(wire.limitPrice == 1 && wire.totalQuantity == Decimal(10))
                #expect(try journal.events(kind: .note).contains { $0.message.contains("rejected") })
            }
        }
    }
}

extension ManualOrderOutcome {
    /// The rule of a denial, `nil` for other outcomes.
    var denialRule: RiskRuleKind? { if case .denied(let denial) = self { denial.rule } else { nil } }
}
