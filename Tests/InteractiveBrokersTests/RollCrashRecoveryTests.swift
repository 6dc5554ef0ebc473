import Foundation
import JournalModel
import Storage
import TWSTestSupport
import Testing
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 47's "restart mid-roll completes it exactly once", with processes: an `ibtrader gateway` over the bundled
/// ES months, a bot that buys `ES continuous` in December 2013 with momentum's protective stop, a second run on the
/// roll day (2013-12-13) that dies right after journaling the roll's two legs (`after-intent-journaled`), and a
/// restart on the same journal. Afterwards the simulator holds one March contract and no December, each leg was
/// placed and filled once, the journal has one roll decision, and March's position has its stop again.
@Suite(
    .serialized, .timeLimit(.minutes(3)),
    .enabled(if: CrashProcessHarness.binary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "the ibtrader executable is not built next to the test bundle"))
struct RollCrashRecoveryTests {
    static func config(in folder: URL, journal: String) throws -> URL {
        let text = """
            connection: {host: 127.0.0.1, port: 7497, clientId: 7}
            universe: {symbols: [ES continuous]}
            strategy:
              name: momentum
              cash: 200000
              parameters: {lookback: 12, holdings: 1, rebalance: 12, minimumScore: none, investedFraction: 0.5}
            orders: {timeout: 5m, outsideRth: false, cancelOnExit: false}
            data: {barSize: 5 secs, warmup: 3600 S, marketDataType: realtime}
            journal: {path: \(journal)}
            logging: {level: info, summaryInterval: 30s}
            """
        let url = folder.appendingPathComponent("roll.yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func aCrashAfterTheRollsLegsAreJournaledRollsOnce() async throws {
        let binary = try #require(CrashProcessHarness.binary)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-roll-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journalPath = folder.appendingPathComponent("roll.journal.sqlite").path
        let config = try Self.config(in: folder, journal: journalPath)
        // Thursday 2013-12-12 15:30 UTC (the start's 14:30 and the harness's hour): December is the front month.
        let gateway = try await CrashProcessHarness.startGateway(
            binary, folder: folder, options: ["--data", "bundled:futures", "--start", "2013-12-12 09:30"])
        defer { gateway.stop() }
        func journalFills() -> [JournalFill] {
            (try? OrderJournal(path: journalPath, createIfMissing: false).fills()) ?? []
        }

        // Run 1 buys December and its stop; stopped once both are in the journal.
        let bought = try await CrashProcessHarness.run(
            binary, config: config, gateway: gateway, crashAt: nil, duration: "60s", limit: .seconds(60)
        ) {
            let orders = (try? OrderJournal(path: journalPath, createIfMissing: false).orders()) ?? []
            return !journalFills().isEmpty && orders.contains { $0.intent.orderRef.rawValue.hasSuffix("-SL") }
        }
        #expect(bought.status == 0, "\(bought.log)")
        let firstFills = journalFills()
        try #require(firstFills.count == 1, "run 1 bought:\n\(bought.log)")

        // To the roll day's session: run 2 rolls on its first bar and dies with the legs journaled, unsent.
        let admin = gateway.admin
        try await offPool { try admin.command("advance 82800") }
        let crashed = try await CrashProcessHarness.run(
            binary, config: config, gateway: gateway, crashAt: "after-intent-journaled", duration: "60s", limit: .seconds(60))
        #expect(crashed.status == CrashPoint.exitStatus, "run 2 must die at the roll's legs:\n\(crashed.log)")
        #expect(crashed.log.contains("roll ES continuous: 1 contract long from 2013-12 to 2014-03"), "\(crashed.log)")
        let legsJournaled = try OrderJournal(path: journalPath).orders().filter { $0.intent.orderRef.rawValue.contains("ROLL-") }
        #expect(legsJournaled.count == 2 && legsJournaled.allSatisfy { $0.state == .pendingSubmit }, "\(legsJournaled)")

        // The restart sends each leg once; stopped once both filled and March has its stop.
        let restarted = try await CrashProcessHarness.run(
            binary, config: config, gateway: gateway, crashAt: nil, duration: "60s", limit: .seconds(60)
        ) {
            let orders = (try? OrderJournal(path: journalPath, createIfMissing: false).orders()) ?? []
            let legs = orders.filter { $0.intent.orderRef.rawValue.contains("ROLL-") }
            return legs.count == 2 && legs.allSatisfy { $0.state == .filled }
                && orders.contains { $0.intent.orderRef.rawValue.hasSuffix("-SL") && !$0.state.isTerminal && $0.intent.createdAt > legs[0].intent.createdAt }
        }
        #expect(restarted.status == 0, "\(restarted.log)")

        // The simulator: March only, each leg placed once, every execution journaled once.
        var connection = TWSConnectionConfiguration(host: "127.0.0.1", port: gateway.port, clientID: 7)
        connection.readyTimeout = .seconds(10)
        connection.requestTimeout = .seconds(10)
        let (positions, open, completed, executions) = try await TWSConnection.connect(connection) { connection, _ in
            (try await connection.positions(), try await connection.allOpenOrders(), try await connection.completedOrderList(),
             try await connection.executions())
        }
        let held = Dictionary(
            positions.map { (String($0.contract.lastTradeDateOrContractMonth.prefix(6)), $0.quantity ?? 0) }, uniquingKeysWith: +)
        #expect((held["201312"] ?? 0) == 0 && held["201403"] == 1, "\(positions)\n\(restarted.log)")
        let refs = (open.map(\.order.orderRef) + completed.map(\.order.orderRef)).filter { $0.contains("ROLL-") }
        #expect(refs.count == 2 && Set(refs).count == 2, "each leg once: \(refs)")
        let journal = try OrderJournal(path: journalPath)
        let fills = try journal.fills()
        #expect(Set(fills.map(\.execID)) == Set(executions.map(\.execution.executionID)))
        #expect(fills.count == executions.count)
        let decisions = try journal.events(kind: .roll).map(\.message).filter { $0.hasPrefix("roll ES continuous: ") }
        #expect(decisions.count == 1, "one roll decision: \(decisions)")
        // March's stop is working at the simulator, and none is left on December, where nothing is held (it would
        // open a short there). (Momentum's own protection would place March's too; a bracket's stop is carried by the
        // restart alone: FuturesRollRestartTests.)
        #expect(!open.contains { $0.contract.lastTradeDateOrContractMonth.hasPrefix("201312") }, "\(open.map(\.order.orderRef))")
        #expect(open.contains { $0.contract.lastTradeDateOrContractMonth.hasPrefix("201403") && $0.order.orderType == "STP" },
                "\(open.map { "\($0.contract.lastTradeDateOrContractMonth) \($0.order.orderType)" })\n\(restarted.log)")
    }
}
