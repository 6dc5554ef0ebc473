import Foundation
import SimulatedVenue
import GatewayCore
import GatewaySimulator
import Storage
import TWSClient
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Buys 10 of the first instrument once and keeps it protected at the broker (`ProtectiveOrders`), tight levels so
/// the simulator's synthetic prices reach one of them within minutes.
private struct BuyOnceProtected: Strategy {
    var bought = false
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        if case .filled(let fill, _) = event, fill.side == .buy { bought = true }  // (warm-up orders are denied)
        guard case .bar(let id, _) = event, id.index == 0 else { return [] }
        let levels = ProtectiveOrders.Levels(stopLossPercent: 1, takeProfitPercent: 1)
        if !bought, context.position(for: id).isFlat, !context.hasOpenOrders(for: id) {
            return [.submit(.market(id, .buy, Quantity(10)))]
        }
        return ProtectiveOrders.maintain(id, levels: levels, context)
    }
}

/// Issue 21: protective orders stay at the broker when the bot stops, and protect the position while no bot runs.
@Suite("Protective orders against the gateway simulator", .timeLimit(.minutes(2)))
struct ProtectiveOrdersRunnerTests {
    @Test func theProtectionOutlivesTheBotAndTheRestartFindsThePositionClosed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("protect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try OrderJournal(path: folder.appendingPathComponent("j.sqlite").path, durability: .processCrashSafe)
        try await withSessionVenue { simulator in
            var configuration = runnerConfiguration(simulator, journal: journal)
            configuration.session.cancelOnExit = true
            let run = configuration
            @Sendable func openRefs() async throws -> [String] {
                try await TWSConnection.connect(simulator.clientConnection(77), environment: simulator.environment()) { c, _ in
                    try await c.allOpenOrders().map(\.order.orderRef)
                }
            }
            // 1. The bot buys and protects, then stops (cancelOnExit: true).
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            let first = try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                group.addTask { try await LiveRunner.run(strategy: BuyOnceProtected(), configuration: run, logger: quietLogger(), stop: stop) }
                group.addTask {
                    await simulator.waitForBarSubscriptions(3)
                    for _ in 0..<40 {
                        await simulator.advance(by: .seconds(5))
                        try await simulator.sleep(for: .milliseconds(30))
                        if try await openRefs().count == 2 { break }
                    }
                    stopper.yield("test done")
                    return nil
                }
                var summary: LiveRunSummary?
                for try await value in group { if let value { summary = value } }
                return summary
            }
            #expect(first?.enginePositions == ["SYN000": Quantity(10)], "\(String(describing: first))")
            let working = try await openRefs()
            #expect(working.count == 2 && working.allSatisfy { ProtectiveOrders.isProtective(ClientOrderID($0)) }, "\(working)")

            // 2. No bot runs; the market moves until the broker closes the position through its protection. On
            // SYN000's bridged path of 2022-01-05 the 1 % stop is first crossed at 19:40:30 UTC, about 4 h 10 min
            // after the entry; the simulator still matches orders at every 5-second step of a 1-minute advance.
            var closed = false
            for _ in 0..<600 where !closed {
                await simulator.advance(by: .seconds(60))
                closed = await simulator.state().account.holdings.values.allSatisfy { $0.quantity.isZero }
            }
            #expect(closed, "a 1 % stop or target was reached while the bot was down")
            #expect(try await openRefs().isEmpty, "one leg filled, its OCA sibling cancelled")

            // 3. The restart takes the broker's word: flat, the protective fill journaled, no phantom, no mismatch.
            let (stop2, stopper2) = AsyncStream.makeStream(of: String.self)
            let restarted = run
            let second = try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                group.addTask {
                    try await LiveRunner.run(
                        strategy: BuyOnceProtected(bought: true), configuration: restarted, logger: quietLogger(), stop: stop2)
                }
                group.addTask {
                    await simulator.waitForBarSubscriptions(3)
                    for _ in 0..<4 {
                        await simulator.advance(by: .seconds(5))
                        try await simulator.sleep(for: .milliseconds(30))
                    }
                    stopper2.yield("test done")
                    return nil
                }
                var summary: LiveRunSummary?
                for try await value in group { if let value { summary = value } }
                return try #require(summary)
            }
            #expect(second.enginePositions.isEmpty && second.brokerPositions.values.allSatisfy(\.isZero))
            let fills = try journal.fills()
            #expect(fills.count == 2 && fills.filter { $0.side == .sell }.count == 1, "\(fills.map { "\($0.side) \($0.quantity) \($0.orderRef?.rawValue ?? "-")" })")
            #expect(fills.contains { ProtectiveOrders.isProtective($0.orderRef ?? "") }, "\(fills.map(\.orderRef))")
        }
    }
}
