import Foundation
import GatewayCore
import Logging
import GatewaySimulator
import LiveSession
import Storage
import TWSClient
import TWSProtocol
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers

/// Issue 79 ("IB as recorded"), end to end: the manual commands against the simulator playing what a real IB Gateway
/// was recorded doing (a 321 refusal, an execution list never ended, another client's cancel, a locate hold, a
/// deactivated order listed as open).
@Suite("manual orders: IB as recorded, at the simulator", .timeLimit(.minutes(1)))
struct ManualOrdersAsRecordedTests {
    static func cancel(
        _ target: ManualCancelTarget?, port: Int, settings: ManualSettings, clientID: Int
    ) async throws -> ManualCancelResult {
        try await TWSConnection.connect(connectionConfiguration(port, clientID: clientID)) { connection, info in
            if let target {
                try await ManualTrading.cancel(target, on: connection, info: info, settings: settings)
            } else {
                try await ManualTrading.cancelAll(on: connection, info: info, settings: settings)
            }
        }
    }

    static func openOrders(_ port: Int, settings: ManualSettings) async throws -> [ManualOpenOrder] {
        try await TWSConnection.connect(connectionConfiguration(port, clientID: 77)) { connection, info in
            try await ManualTrading.openOrders(on: connection, info: info, settings: settings)
        }
    }

    @Test("a 321 ends `order` at once: rejected with TWS's text, journaled rejected with the reason")
    func refusedBy321() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                await simulator.apply(.refuseNextOrder(code: 321, text: FaultCommand.readOnlyText))
                var settings = ManualTradingTests.settings(journal)
                settings.timeout = .seconds(30)  // a wait for the timeout would outlast the test's limit
                let result = try await ManualTradingTests.place(try ManualTradingTests.ticket(), key: "r321", port: port, settings: settings)
                #expect(result.outcome == .rejected("321 \(FaultCommand.readOnlyText)"))
                let order = try #require(try journal.order(ClientOrderID("IBT:manual:r321")))
                #expect(order.state == .rejected)
                let history = try journal.history(of: ClientOrderID("IBT:manual:r321"))
                #expect(history.contains { $0.state == .rejected && $0.message == "321 \(FaultCommand.readOnlyText)" })
            }
        }
    }

    @Test("no execDetailsEnd for a blank filter: `order` goes on, asks by account, and reads its fill back")
    func executionListNeverEnded() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                await simulator.apply(.omitBlankExecutionsEnd)
                // The start-up's list waits the request timeout (2 s here), then the order goes on.
                var configuration = connectionConfiguration(port, clientID: 41)
                configuration.requestTimeout = .seconds(2)
                let ticket = try ManualTradingTests.ticket()
                let settings = ManualTradingTests.settings(journal)
                let result = try await TWSConnection.connect(configuration) { connection, info in
                    try await ManualTrading.placeOrder(ticket, clientOrderID: ClientOrderID("x1"), on: (connection, info, settings))
                }
                #expect(result.outcome == .acknowledged)
                #expect(result.legs.first?.state == .filled && result.legs.first?.averagePrice != nil)
                #expect(try journal.fills().count == 1)
            }
        }
    }

    @Test("another client's order is cancelled from client 0, named by the client that placed it; forbidden by config")
    func cancelsAnotherClientsOrder() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { _, port in
                let id = try await ManualModifyTests.restingOrder("x-cancel", port: port, journal: journal)
                var forbidden = ManualTradingTests.settings(journal)
                forbidden.cancelOtherClients = false
                await #expect(throws: ManualTradingError.otherClient(orderID: id, clientID: 41)) {
                    _ = try await Self.cancel(.orderID(id), port: port, settings: forbidden, clientID: 0)
                }
                let result = try await Self.cancel(.orderID(id), port: port, settings: ManualTradingTests.settings(journal), clientID: 0)
                #expect(result.cancelled.map(\.clientID) == [41] && result.stillOpen.isEmpty)
                #expect(try journal.order(ClientOrderID("IBT:manual:x-cancel"))?.state == .canceled)
                #expect(try journal.events(kind: .note).contains { $0.message.hasSuffix("(placed by API client 41)") })
            }
        }
    }

    @Test("a short sale held for a locate is acknowledged as held; TWS lists it Inactive, not working")
    func shortSaleHeldForALocate() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                await simulator.apply(.locateNextShortSale(seconds: 600))
                let settings = ManualTradingTests.settings(journal)
                let result = try await ManualTradingTests.place(
                    try ManualTradingTests.ticket("sell"), key: "short", port: port, settings: settings)
                #expect(result.outcome == .acknowledged)
                #expect(result.steps.contains { $0.contains("held by IB while it locates shares") }, "\(result.steps)")
                let listed = try await Self.openOrders(port, settings: settings)
                #expect(listed.map(\.status) == ["Inactive"] && listed.allSatisfy { !$0.isWorking })
            }
        }
    }

    @Test("a deactivated order TWS lists is not waited for by `cancel --all`")
    func deactivatedOrderListed() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                await simulator.apply(.deactivateNextOrder)
                let id = try await ManualModifyTests.restingOrder("dead", port: port, journal: journal)
                let settings = ManualTradingTests.settings(journal)
                #expect(try await Self.openOrders(port, settings: settings).map(\.status) == ["Inactive"])
                let result = try await Self.cancel(nil, port: port, settings: settings, clientID: 41)
                #expect(result.inactive.map(\.orderID) == [id] && result.cancelled.isEmpty && result.stillOpen.isEmpty)
            }
        }
    }

    @Test("the bot against a gateway that never ends a blank execution list: it starts, trades and stops, with an ALERT")
    func botStartsWithoutExecDetailsEnd() async throws {
        let log = CapturedLog()
        var logger = Logger(label: "test.exec-end") { _ in CapturingLogHandler(log: log) }
        logger.logLevel = .warning
        let run = try await faultRun(
            clientID: 59,
            strategy: { TargetSchedule(steps: [(faultTradeTime, 100), (faultTradeTime + .seconds(60), 0)], recorder: $0) },
            prepare: { await $0.apply(.omitBlankExecutionsEnd) }, logger: logger
        ) { simulator, recorder in
            await replaySteps(simulator, recorder) { executions($0, clientID: 59).count >= 2 }
            await replaySteps(simulator, recorder, limit: 2)
        }
        try expectFaultInvariants(run)
        #expect(executions(run.state, clientID: 59).count == 2)
        let lines = log.lines.map(\.1)
        #expect(lines.contains { $0.hasPrefix("ALERT: the broker's executions are not all known") }, "\(lines.suffix(20))")
    }
}
