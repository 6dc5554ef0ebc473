import Foundation
import SimulatedVenue
import GatewayCore
import GatewaySimulator
import Storage
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// A live run against the simulator logs its session in the journal; replaying the log with the logged
/// configuration gives the same actions, a tampered input shows as a difference, and another configuration trades
/// differently on the same data.
@Suite struct SessionReplayTests {
    @Test func aLoggedRunReplaysIdenticallyAndATamperedInputIsReported() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe)
        try await withSessionVenue { simulator in
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try await LiveRunner.run(
                        spec: .momentumRotation(config: fastMomentum), configuration: runnerConfiguration(simulator, journal: journal),
                        logger: quietLogger(), stop: stop)
                }
                group.addTask {
                    await simulator.waitForBarSubscriptions(3)
                    var steps = 0
                    while steps < 2_000 {
                        await simulator.advance(by: .seconds(5))
                        steps += 1
                        if steps % 12 == 0, await simulator.state().account.commissions > 0, steps >= 48 { break }
                        try? await simulator.sleep(for: .milliseconds(10))
                    }
                    stopper.yield("test done")
                }
                try await group.waitForAll()
            }
        }
        let session = try #require(try journal.sessions().last)
        let settings = try SessionLog.decode(SessionSettings.self, header: session.settings)
        let strategy = try SessionLog.decode(SessionStrategy.self, header: try #require(session.strategy))
        #expect(strategy.spec == .momentumRotation(config: fastMomentum))
        let steps = try journal.sessionSteps(session: session.number)

        let replayer = SessionReplay.replayer(settings: settings, strategy: strategy, startedAt: session.startedAt)
        let replayed = try steps.map(replayer.replay)
        #expect(replayed.count == steps.count && steps.count > 20, "\(steps.count) steps")
        let firstDifference = replayed.first { !$0.agrees }
        #expect(firstDifference == nil, "first difference at \(firstDifference.map(\.sequence) ?? 0)")
        let orders = replayed.flatMap(\.replayed).filter(\.isOrderAction)
        #expect(!orders.isEmpty, "the run traded")

        // One execution a share short: the replay's actions differ from that input on.
        let index = try #require(
            try steps.firstIndex { step in
                if case .orderEvent(_, .execution) = try SessionLog.input(step.input) { true } else { false }
            })
        var tampered = steps
        guard case .orderEvent(let generation, .execution(var report)) = try SessionLog.input(steps[index].input) else {
            Issue.record("not an execution")
            return
        }
        report.execution.shares = (report.execution.shares ?? 1) - 1
        tampered[index].input = try SessionLog.encode(SessionInput.orderEvent(generation: generation, .execution(report)))
        let differing = try tampered.map(
            SessionReplay.replayer(settings: settings, strategy: strategy, startedAt: session.startedAt).replay)
        let first = try #require(differing.first { !$0.agrees })
        #expect(first.sequence == steps[index].sequence)

        // Another configuration on the same data: two holdings instead of one trade otherwise.
        var two = fastMomentum
        two.holdings = 2
        let other = try steps.map(
            SessionReplay.replayer(
                settings: settings, strategy: SessionStrategy(spec: .momentumRotation(config: two), execution: nil),
                startedAt: session.startedAt
            ).replay)
        #expect(other.flatMap(\.replayed).filter(\.isOrderAction) != orders)
    }
}
