import Foundation
import LiveSession
import Logging
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import Storage

/// Buys 10 when flat and keeps a 15 % protective stop at the broker while it holds; after 12 of its bars it rotates
/// out as momentum does when the symbol leaves its top ranks: cancels the protection and sells.
struct ProtectThenRotate: Strategy {
    var held = 0
    var rotated = false
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event else { return [] }
        let position = context.position(for: id)
        let trading = ProtectiveOrders.tradingOrders(id, context)
        if position.isFlat {
            // One round trip: once rotated out it stays out.
            return trading.isEmpty && !rotated ? [.submit(.market(id, .buy, Quantity(10)))] : []
        }
        held += 1
        if held >= 12, trading.isEmpty {
            rotated = true
            return ProtectiveOrders.cancel(id, context) + [.submit(.market(id, .sell, position.quantity))]
        }
        return ProtectiveOrders.maintain(id, levels: .init(stopLossPercent: 15, takeProfitPercent: nil), context)
    }
}

/// Issue 42's acceptance, against the simulator: `ctl kill` during a rotation, and a journal that fails its writes
/// (a full disk) during one, leave the position the broker holds with its protective stop working at the broker. The
/// same run without a halt rotates out (the stop cancelled, the position sold), so the check can fail. The journal
/// case failed before the driver wrote a batch's new intents ahead of its cancels: the disk filled at the rotation's
/// own exit intent, after the stop's cancel had gone out.
@Suite("A halt keeps protection at the broker", .serialized, .timeLimit(.minutes(2)))
struct HaltKeepsProtectionAtTheSimulatorTests {
    enum Halt: String, CaseIterable, Sendable { case none, kill, journal }

    /// The client's stops working at the simulator, as (side, remaining).
    static func workingStops(_ state: GatewayState, clientID: Int) -> [(String, Double)] {
        state.orders.values.filter { $0.key.clientID == clientID && $0.isStopLike && !$0.isTerminal }
            .map { ($0.wire.action, $0.remaining.doubleValue) }
    }

    @Test(arguments: Halt.allCases)
    func aRotationUnderAHaltLeavesTheStopWorking(halt: Halt) async throws {
        let log = CapturedLog()
        var logger = Logger(label: "test.protection") { _ in CapturingLogHandler(log: log) }
        logger.logLevel = .info
        let link = OperatorLink()
        // The journal on a disk of its own that the test fills (JournalFullDiskTests' `FullDisk`).
        let disk = try FullDisk()
        defer { disk.remove() }
        let journal = try OrderJournal(
            path: disk.directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe, checkpoints: .manual)
        let run = try await faultRun(
            clientID: 71, strategy: { _ in ProtectThenRotate() },
            configure: {
                $0.operatorLink = link
                $0.journal = journal
            }, logger: logger
        ) { venue, recorder in
            // Holding 10 with its stop working at the broker.
            await replaySteps(venue, recorder, limit: 60) { state in
                !Self.workingStops(state, clientID: 71).isEmpty
            }
            switch halt {
            case .none: break
            case .kill:
                let reply = await link.send(.kill, by: "test", reason: "rotation under the kill switch")
                #expect(reply.done, "\(reply)")
            case .journal:
                try disk.fill(journal)
                await replaySteps(venue, recorder, limit: 40) { _ in
                    log.lines.contains { $0.1.hasPrefix("ALERT: the journal failed a write") }
                }
                #expect(log.lines.contains { $0.1.hasPrefix("ALERT: the journal failed a write") }, "the journal never failed")
            }
            // Past the rotation (12 bars after the entry) and on.
            await replaySteps(venue, recorder, limit: 30)
        }
        let held = run.state.account.holdings.values.map(\.quantity.doubleValue).reduce(0, +)
        let stops = Self.workingStops(run.state, clientID: 71)
        switch halt {
        case .none:
            #expect(held == 0, "without a halt the rotation sells")
            #expect(stops.isEmpty, "and its stop is cancelled first")
        case .kill, .journal:
            #expect(held == 10, "the exit is refused under the halt")
            #expect(stops.count == 1 && stops.first?.0 == "SELL" && stops.first?.1 == 10, "the stop stays working: \(stops)\n\(log.lines.map(\.1).filter { !$0.hasPrefix("portfolio") }.suffix(40).joined(separator: "\n"))")
            #expect(!log.lines.contains { $0.1.contains("without its protective stop") }, "no protection ALERT")
        }
        if halt == .journal { try disk.free(journal) }
        try? journal.close()
    }
}
