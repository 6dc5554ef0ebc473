import Foundation
import SimulatedVenue
import GatewayCore
import GatewaySimulator
import Storage
import Synchronization
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// The position-mismatch milestones a run reported.
private final class MismatchLog: Sendable {
    private let items = Mutex<[[PositionDifference]]>([])
    func add(_ differences: [PositionDifference]) { items.withLock { $0.append(differences) } }
    var all: [[PositionDifference]] { items.withLock { $0 } }
}

/// Issue 21's acceptance: the gateway process dies and a fresh one (without the account's positions) takes its
/// port. The bot reconnects, compares its positions with the broker's and raises the ALERT within one check,
/// without waiting for the check interval, and sends no new order meanwhile.
@Suite("Position check against the gateway simulator")
struct PositionCheckRunnerTests {
    @Test("a fresh gateway without the bot's positions: a position-mismatch ALERT right after the reconnect")
    func freshGatewayRaisesTheMismatch() async throws {
        let mismatches = MismatchLog()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe)
        let (summary, held, ordersAfter, restarted) = try await withSessionVenue { simulator in
            var configuration = runnerConfiguration(simulator, journal: journal)
            configuration.session.reconnectDelay = .milliseconds(20)
            // Far longer than the test: the check that finds the difference is the one after the reconnect.
            configuration.session.positionCheck = PositionCheckSettings(
                interval: .minutes(60), confirmAfter: .milliseconds(300), pausesEntries: true)
            configuration.observer = { milestone in
                if case .positionMismatch(let differences) = milestone { mismatches.add(differences) }
            }
            let runConfiguration = configuration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            let first = try await withThrowingTaskGroup(of: (LiveRunSummary?, [Symbol: Quantity], Int).self) { group in
                group.addTask {
                    let summary = try await LiveRunner.run(
                        strategy: MomentumRotation(config: fastMomentum), configuration: runConfiguration,
                        logger: quietLogger(), stop: stop)
                    return (summary, [:], 0)
                }
                group.addTask {
                    await simulator.waitForBarSubscriptions(3)
                    var steps = 0
                    while steps < 2_000, await simulator.state().account.holdings.values.allSatisfy({ $0.quantity == .zero }) {
                        await simulator.advance(by: .seconds(5))
                        steps += 1
                        try await simulator.sleep(for: .milliseconds(2))
                    }
                    var held: [Symbol: Quantity] = [:]
                    for (id, holding) in await simulator.state().account.holdings where holding.quantity != .zero {
                        held[Symbol(simulatorData.instrument(id).symbol)] = holding.quantity
                    }
                    await simulator.apply(.freshRestart(seconds: 0))
                    for _ in 0..<3_000 where mismatches.all.isEmpty {
                        try await simulator.sleep(for: .milliseconds(10))
                    }
                    // Paused: bars go on, the strategy would rebalance, but nothing reaches the fresh gateway.
                    for _ in 0..<24 {
                        await simulator.advance(by: .seconds(5))
                        try await simulator.sleep(for: .milliseconds(5))
                    }
                    let orders = await simulator.state().placeOrderLog.count
                    stopper.yield("test done")
                    return (nil, held, orders)
                }
                var summary: LiveRunSummary?
                var held: [Symbol: Quantity] = [:]
                var orders = 0
                for try await (run, positions, count) in group {
                    if let run { summary = run } else { held = positions; orders = count }
                }
                return (summary, held, orders)
            }
            // The next start on the same journal, against the gateway that lost the positions: it stops once trading.
            var again = runConfiguration
            let (stopAgain, stopperAgain) = AsyncStream.makeStream(of: String.self)
            again.observer = { milestone in
                if case .subscribed = milestone { stopperAgain.yield("started") }
            }
            let second = try await LiveRunner.run(
                strategy: MomentumRotation(config: fastMomentum), configuration: again, logger: quietLogger(),
                stop: stopAgain)
            return (first.0, first.1, first.2, second)
        }
        let run = try #require(summary)
        #expect(!held.isEmpty, "the bot held positions before the gateway died")
        let expected = held.keys.sorted().map { PositionDifference(symbol: $0, engine: held[$0]!, broker: .zero) }
        #expect(mismatches.all.first == expected)
        #expect(mismatches.all.count == 1, "one ALERT for one difference")
        #expect(ordersAfter == 0, "no order reached the fresh gateway while the books differ")
        #expect(run.enginePositions == held)
        #expect(run.brokerPositions.values.allSatisfy { $0 == .zero })
        // The restart takes the vanished shares out at their cost: the realized P&L is the first run's, not the
        // first run's minus the positions' whole value.
        #expect(abs(restarted.realizedPnL.doubleValue - run.realizedPnL.doubleValue) < 0.01)
        #expect(restarted.enginePositions.isEmpty)
    }
}
