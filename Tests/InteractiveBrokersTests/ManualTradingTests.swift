import Foundation
import GatewayCore
import GatewaySimulator
import LiveSession
import Logging
import Storage
import TWSClient
import TWSProtocol
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers

/// A simulator (manual clock, synthetic SYN000…) for the manual tools, with a chosen account code.
func withManualSimulator<Result: Sendable>(
    account: String = "DU1234567", _ body: @Sendable (GatewaySimulator, Int) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "test.gateway")
    logger.logLevel = .warning
    let simulator = GatewaySimulator(
        configuration: GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: simulatorData, gateway: GatewayConfiguration(accounts: [account]),
            clock: .manual), logger: logger)
    return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
        group.addTask { try await simulator.run() }
        let port = await simulator.listeningPort()
        do {
            let result = try await body(simulator, port)
            group.cancelAll()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}

/// How many orders the simulator lists as open (every client), and whether it holds any position.
func simulatorOpenOrders(_ port: Int) async throws -> Int {
    try await TWSConnection.connect(connectionConfiguration(port, clientID: 77)) { c, _ in try await c.allOpenOrders().count }
}

/// A scratch journal file, removed afterwards.
func withScratchJournal<T>(_ body: (OrderJournal) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-manual-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(try OrderJournal(path: url.appendingPathComponent("journal.sqlite").path))
}

@Suite("manual trading against the simulator", .timeLimit(.minutes(1)))
struct ManualTradingTests {
    static func settings(_ journal: OrderJournal?) -> ManualSettings {
        var settings = ManualSettings(clock: { fixedTime })
        settings.journal = journal
        settings.timeout = .seconds(5)
        return settings
    }

    static func ticket(
        _ side: String = "buy", _ quantity: String = "10", type: String = "MKT",
        _ change: (inout ManualOrderArguments) -> Void = { _ in }
    ) throws -> ManualOrderTicket {
        var a = ManualOrderArguments(side: side, symbol: "SYN000", quantity: quantity)
        a.type = type
        change(&a)
        return try ManualOrderTicket(a, at: .zero)
    }

    /// Places one order over a fresh connection.
    static func place(
        _ ticket: ManualOrderTicket, key: String, port: Int, settings: ManualSettings, clientID: Int = 41
    ) async throws -> ManualOrderResult {
        try await TWSConnection.connect(connectionConfiguration(port, clientID: clientID)) { connection, info in
            try await ManualTrading.placeOrder(ticket, clientOrderID: ClientOrderID(key), on: (connection, info, settings))
        }
    }

    @Test("a market order is journaled before it is sent, acknowledged, filled, and its fill journaled")
    func marketOrder() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                let result = try await Self.place(try Self.ticket(), key: "m1", port: port, settings: Self.settings(journal))
                #expect(result.outcome == .acknowledged && result.account == "DU1234567")
                #expect(result.orderRef == "IBT:manual:m1")
                let leg = try #require(result.legs.first)
                #expect(leg.state == .filled && leg.filled == Quantity(10) && leg.averagePrice != nil)
                let order = try #require(try journal.order(ClientOrderID("IBT:manual:m1")))
                #expect(order.brokerOrderID == Int64(leg.brokerOrderID))
                #expect(order.state == .filled && order.filledQuantity == Quantity(10))
                let fills = try journal.fills()
                #expect(fills.count == 1 && fills[0].commission != nil)
                let history = try journal.history(of: ClientOrderID("IBT:manual:m1"))
                #expect(history.first?.state == .pendingSubmit)  // the intent came first
                let held = await simulator.state().account.holdings.values.map(\.quantity)
                #expect(held == [Quantity(10)])

                // The same key again is never sent twice.
                await #expect(throws: ManualTradingError.duplicateOrderRef("IBT:manual:m1", state: "filled")) {
                    _ = try await Self.place(try Self.ticket(), key: "m1", port: port, settings: Self.settings(journal))
                }
            }
        }
    }

    @Test("a bracket goes out as entry, stop-loss and take-profit, linked and all acknowledged")
    func bracket() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { _, port in
                let ticket = try Self.ticket(type: "LMT") { $0.limit = "1"; $0.stopLoss = "0.5"; $0.takeProfit = "10000" }
                let result = try await Self.place(ticket, key: "b1", port: port, settings: Self.settings(journal))
                #expect(result.outcome == .acknowledged)
                #expect(result.legs.map(\.orderRef) == ["IBT:manual:b1", "IBT:manual:b1-SL", "IBT:manual:b1-TP"])
                #expect(result.legs.map(\.state) == [.accepted, .accepted, .accepted])
                let open = try await TWSConnection.connect(connectionConfiguration(port, clientID: 41)) { c, info in
                    try await ManualTrading.openOrders(on: c, info: info, settings: Self.settings(nil))
                }
                #expect(open.map(\.orderRef) == ["IBT:manual:b1", "IBT:manual:b1-SL", "IBT:manual:b1-TP"])
                #expect(open.dropFirst().allSatisfy { $0.parentID == open[0].orderID })
                #expect(try journal.orders().map(\.intent.parentRef?.rawValue) == [nil, "IBT:manual:b1", "IBT:manual:b1"])
            }
        }
    }

    @Test("a rejection comes back with TWS's text and is journaled")
    func rejected() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                await simulator.apply(.rejectNextOrder(reason: "Simulated margin check"))
                let result = try await Self.place(try Self.ticket(), key: "r1", port: port, settings: Self.settings(journal))
                guard case .rejected(let text) = result.outcome else {
                    Issue.record("expected a rejection, got \(result.outcome)")
                    return
                }
                #expect(text.contains("Simulated margin check"))
                #expect(!result.succeeded)
                #expect(try journal.order(ClientOrderID("IBT:manual:r1"))?.state == .rejected)
            }
        }
    }

    @Test("a risk denial sends nothing and is journaled as a risk-denial event")
    func denied() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                var settings = Self.settings(journal)
                settings.risk.maxPositionValue = Money(1)
                let result = try await Self.place(try Self.ticket(), key: "d1", port: port, settings: settings)
                guard case .denied(let denial) = result.outcome else {
                    Issue.record("expected a denial, got \(result.outcome)")
                    return
                }
                #expect(denial.rule == .maxPositionValue)
                #expect(result.legs.isEmpty)
                #expect(try await simulatorOpenOrders(port) == 0)
                #expect(await simulator.state().account.holdings.isEmpty)
                #expect(try journal.orders().isEmpty)
                #expect(try journal.events(kind: .riskDenial).count == 1)
            }
        }
    }

    @Test("a live account is refused without confirmation and used with --confirm-live")
    func liveAccount() async throws {
        try await withManualSimulator(account: "U1234567") { simulator, port in
            await #expect(throws: ManualTradingError.account(.liveAccountNotConfirmed(account: "U1234567"))) {
                _ = try await Self.place(try Self.ticket(), key: "l1", port: port, settings: Self.settings(nil))
            }
            #expect(await simulator.state().account.holdings.isEmpty)
            var wrong = Self.settings(nil)
            wrong.confirmedLiveAccount = "U7654321"
            await #expect(throws: ManualTradingError.self) {
                _ = try await Self.place(try Self.ticket(), key: "l2", port: port, settings: wrong)
            }
            var confirmed = Self.settings(nil)
            confirmed.confirmedLiveAccount = "U1234567"
            let result = try await Self.place(try Self.ticket(), key: "l3", port: port, settings: confirmed)
            #expect(result.outcome == .acknowledged && result.account == "U1234567")
        }
    }

    @Test("cancel one order by id or orderRef, then every order with a global cancel; both journaled")
    func cancels() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { _, port in
                let settings = Self.settings(journal)
                for key in ["c1", "c2", "c3"] {
                    let ticket = try Self.ticket(type: "LMT") { $0.limit = "1" }
                    #expect(try await Self.place(ticket, key: key, port: port, settings: settings).succeeded)
                }
                // Another client's order: refused when the configuration forbids it (else cancelled:
                // ManualOrdersAsRecordedTests); a global cancel reaches it.
                let other = try Self.ticket(type: "LMT") { $0.limit = "1" }
                #expect(try await Self.place(other, key: "c4", port: port, settings: settings, clientID: 42).succeeded)
                try await TWSConnection.connect(connectionConfiguration(port, clientID: 41)) { c, info in
                    let open = try await ManualTrading.openOrders(on: c, info: info, settings: settings)
                    #expect(open.count == 4)
                    let first = try #require(open.first { $0.orderRef == "IBT:manual:c1" })
                    let one = try await ManualTrading.cancel(.orderID(first.orderID), on: c, info: info, settings: settings)
                    #expect(one.cancelled.map(\.orderRef) == ["IBT:manual:c1"] && one.stillOpen.isEmpty)
                    let byRef = try await ManualTrading.cancel(.orderRef("IBT:manual:c2"), on: c, info: info, settings: settings)
                    #expect(byRef.cancelled.map(\.orderRef) == ["IBT:manual:c2"])
                    var forbidding = settings
                    forbidding.cancelOtherClients = false
                    await #expect(throws: ManualTradingError.otherClient(orderID: open[3].orderID, clientID: 42)) {
                        _ = try await ManualTrading.cancel(.orderRef("IBT:manual:c4"), on: c, info: info, settings: forbidding)
                    }
                    await #expect(throws: ManualTradingError.orderNotFound("with orderRef nope")) {
                        _ = try await ManualTrading.cancel(.orderRef("nope"), on: c, info: info, settings: settings)
                    }
                    let all = try await ManualTrading.cancelAll(on: c, info: info, settings: settings)
                    #expect(Set(all.cancelled.map(\.orderRef)) == ["IBT:manual:c3", "IBT:manual:c4"])
                    #expect(all.stillOpen.isEmpty)
                    #expect(try await ManualTrading.openOrders(on: c, info: info, settings: settings).isEmpty)
                }
                let states = try journal.orders().map(\.state)
                #expect(states == [.canceled, .canceled, .canceled, .canceled])
                #expect(try journal.events(kind: .note).count == 3)
            }
        }
    }

    @Test("positions and the account summary with P&L")
    func positionsAndAccount() async throws {
        try await withManualSimulator { _, port in
            let settings = Self.settings(nil)
            _ = try await Self.place(try Self.ticket("buy", "25"), key: "p1", port: port, settings: settings)
            try await TWSConnection.connect(connectionConfiguration(port, clientID: 41)) { c, info in
                let positions = try await ManualTrading.positions(on: c, info: info, settings: settings)
                #expect(positions.map(\.symbol) == ["SYN000"] && positions.map(\.quantity) == [Quantity(25)])
                let report = try await ManualTrading.accountReport(on: c, info: info, settings: settings)
                #expect(report.account == "DU1234567" && report.currency == "USD")
                #expect(report.values["NetLiquidation"].flatMap(Double.init) ?? 0 > 0)
                #expect(report.values["BuyingPower"] != nil && report.values["TotalCashValue"] != nil)
                #expect(report.dailyPnL != nil && report.realizedPnL != nil)
            }
        }
    }
}
