import Foundation
import Storage
import Testing
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 5's crash tests: a separate `ibtrader gateway` process, an `ibtrader run` that dies at an
/// `IBTRADER_CRASH_AT` point (`_exit`, no cleanup), and a restart on the same journal. Afterwards every order
/// exists exactly once at the simulator and every simulator execution is in the journal exactly once, with its
/// commission. The gateway's replay clock only moves when the test advances it, so the restart happens at the same
/// data time as the crash (the unsent intent is fresh, hence sent, not abandoned).
@Suite(
    .serialized, .timeLimit(.minutes(2)),
    .enabled(if: CrashProcessHarness.binary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "the ibtrader executable is not built next to the test bundle"))
struct CrashRecoveryTests {
    /// Each crash point.
    @Test(arguments: CrashPoint.Location.allCases)
    func crashRestartAndNothingTwice(at location: CrashPoint.Location) async throws {
        let binary = try #require(CrashProcessHarness.binary)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ibtrader-crash-\(location.rawValue)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journalPath = folder.appendingPathComponent("crash.journal.sqlite").path
        let config = try CrashProcessHarness.writeConfig(in: folder, journal: journalPath)
        let gateway = try await CrashProcessHarness.startGateway(binary, folder: folder)
        let started = ContinuousClock.now
        defer { gateway.stop() }

        let crashed = try await CrashProcessHarness.run(
            binary, config: config, gateway: gateway, crashAt: location.rawValue, duration: "20s")
        #expect(crashed.status == CrashPoint.exitStatus, "the run must die at \(location.rawValue):\n\(crashed.log)")
        #expect(crashed.log.contains("IBTRADER_CRASH_AT: exiting at \(location.rawValue)"))
        let beforeRestart = try OrderJournal(path: journalPath).orders()
        let crashedRef = try #require(beforeRestart.max { $0.sequence < $1.sequence }?.intent.orderRef.rawValue)
        // No pause before the restart: the run namespace comes from the journal, not from the start second.

        // The restart runs until an order of its own (run 2) has filled, and is then stopped gracefully: a fixed
        // duration saw too few bars for a rebalance when a loaded machine spent it starting up (CI, once). After a
        // fill the restart may hold its book for hours of replay: there it is done once it has restored (its cash
        // checkpoint) and every fill has its commission. (The refs carry the journal's bot identity,
        // `IBT:<bot>.R2:`; a check for `IBT:R2:` never held, so every restart ran its whole 60 s.)
        let restarted = try await CrashProcessHarness.run(
            binary, config: config, gateway: gateway, crashAt: nil, duration: "60s", limit: .seconds(60)
        ) {
            guard let journal = try? OrderJournal(path: journalPath, createIfMissing: false),
                let fills = try? journal.fills()
            else { return false }
            let runTwoFilled = fills.contains { fill in
                guard let ref = fill.orderRef, case .run(2, _) = RunNamespace(orderRef: ref.rawValue) else { return false }
                return true
            }
            if runTwoFilled { return true }
            guard location == .afterFill, let account = try? journal.runs().last?.account,
                let checkpoint = try? journal.latestCashCheckpoint(account: account)
            else { return false }
            return checkpoint.run == 2 && !fills.isEmpty && fills.allSatisfy { $0.commission != nil }
        }
        #expect(restarted.status == 0, "the restart must end cleanly:\n\(restarted.log)")
        #expect(ContinuousClock.now - started < .seconds(55), "the restart's stop condition never held; it ran out its time")

        // What the simulator holds (as client 7, whose executions reqExecutions lists), and what the journal says.
        var connection = TWSConnectionConfiguration(host: "127.0.0.1", port: gateway.port, clientID: 7)
        connection.readyTimeout = .seconds(10)
        connection.requestTimeout = .seconds(10)
        let (open, completed, executions) = try await TWSConnection.connect(connection) { connection, _ in
            (try await connection.allOpenOrders(), try await connection.completedOrderList(),
             try await connection.executions())
        }
        let journal = try OrderJournal(path: journalPath)
        let journalOrders = try journal.orders()
        let journalFills = try journal.fills()
        let events = try journal.events(kind: .reconciliation).map(\.message)

        // Every order exactly once at the simulator, and each one known to the journal.
        let simulatorRefs = (open.map(\.order.orderRef) + completed.map(\.order.orderRef)).filter { $0.hasPrefix("IBT:") }
        let counts = Dictionary(simulatorRefs.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts.values.allSatisfy { $0 == 1 }, "orders placed twice: \(counts.filter { $0.value > 1 })")
        let journalRefs = Set(journalOrders.map(\.intent.orderRef.rawValue))
        #expect(Set(simulatorRefs).isSubset(of: journalRefs))
        #expect(simulatorRefs.count >= 2, "the runs must have traded:\n\(crashed.log)\n\(restarted.log)")
        // Nothing is left journaled-but-unsent, and every journaled order that traded is at the simulator.
        #expect(journalOrders.filter { $0.state == .pendingSubmit || $0.state == .submitted }.isEmpty)
        for order in journalOrders where order.filledQuantity.units > 0 {
            #expect(counts[order.intent.orderRef.rawValue] == 1, "\(order.intent.orderRef) filled but not at the simulator")
        }

        // Every simulator execution in the journal exactly once, with its commission.
        let simulatorIDs = executions.map(\.execution.executionID)
        #expect(Set(simulatorIDs).count == simulatorIDs.count)
        #expect(Set(journalFills.map(\.execID)) == Set(simulatorIDs))
        #expect(journalFills.count == simulatorIDs.count)
        #expect(journalFills.allSatisfy { $0.commission != nil })

        // Two runs, two namespaces of the journal's bot (IBT:<bot>.R1:, IBT:<bot>.R2:), every order in one of them.
        let runs = try journal.runs()
        #expect(runs.map(\.number) == [1, 2])
        let bot = try #require(try journal.botIdentity())
        let prefixes = ["IBT:\(bot).R1:", "IBT:\(bot).R2:"]
        #expect(journalOrders.allSatisfy { order in prefixes.contains { order.intent.orderRef.rawValue.hasPrefix($0) } })

        // The restart's engine cash (its checkpoint, written right after restoring) is what the engine would have
        // had without the crash: the first run started flat with 100 000, so 100 000 plus every fill journaled
        // up to that checkpoint, with its commission.
        let account = try #require(runs.last?.account)
        let checkpoint = try #require(try journal.latestCashCheckpoint(account: account))
        #expect(checkpoint.run == 2)
        var expected = Money(100_000)
        var counted = 0
        for fill in journalFills where fill.sequence <= checkpoint.fillCheckpoint {
            let notional = Money(price: fill.price, quantity: fill.quantity)
            expected += (fill.side == .buy ? -notional : notional) - (fill.commission ?? .zero)
            counted += 1
        }
        // Within 1e-6 (100 fixed-point units).
        #expect(abs(checkpoint.cash.units - expected.units) <= 100, "engine cash \(checkpoint.cash), expected \(expected)")
        if location == .afterFill { #expect(counted > 0, "the crash came after a fill") }

        // The order in flight at the crash went the right way.
        let decided = events.filter { $0.hasPrefix(crashedRef + ":") }
        switch location {
        case .afterIntentJournaled:
            #expect(beforeRestart.last { $0.intent.orderRef.rawValue == crashedRef }?.state == .pendingSubmit)
            #expect(decided.contains { $0.contains("sending it once") }, "\(decided)")
            #expect(counts[crashedRef] == 1)
        case .afterSubmit:
            #expect(decided.contains { $0.contains("filled at the broker") || $0.contains("adopted") }, "\(decided)")
            #expect(!decided.contains { $0.contains("sending") })
            #expect(counts[crashedRef] == 1)
        case .afterFill:
            #expect(!decided.contains { $0.contains("sending") && $0.contains("filled") })
            #expect(!journalFills.isEmpty)
        }
    }
}
