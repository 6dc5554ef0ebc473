import Foundation
import SimulatedVenue
import GatewayCore
import GatewaySimulator
import Logging
import Storage
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers

/// The runner checkpoints its `.manual` journal on its 1-second tick while it trades, and the journal ends complete
/// and consistent.
struct LiveRunnerJournalCheckpointTests {
    @Test func theRunnersManualJournalIsCompleteAfterARunWithCheckpoints() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ckpt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite").path
        let journal = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
        var warnings = Logger(label: "test.gateway")
        warnings.logLevel = .warning
        let logger = warnings
        let gateway = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: simulatorData, gateway: GatewayConfiguration(),
            start: simulatorData.defaultStart + .seconds(3600), clock: .manual)
        let executions = try await VirtualVenue.run(simulator: gateway) { simulator in
            var configuration = LiveRunnerConfiguration(
                connection: simulator.clientConnection(41), symbols: ["SYN000", "SYN001", "SYN002"],
                engine: EngineConfig(initialCash: Money(100_000)))
            simulator.attach(&configuration)
            configuration.journal = journal
            configuration.session.warmupDuration = "1800 S"
            let strategy = MomentumRotation(
                config: MomentumRotationConfig(
                    lookback: 12, ranking: .rateOfChange, minimumScore: nil, holdings: 1, rebalance: .everyBars(12),
                    weighting: .equal, investedFraction: 0.5))
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            let runner = configuration
            let quiet = logger
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try await LiveRunner.run(
                        strategy: strategy, configuration: runner, logger: quiet, stop: stop)
                }
                group.addTask {
                    await simulator.waitForBarSubscriptions(3)
                    // Trade until the simulator has fills and the tick has checkpointed (about 2 s).
                    let deadline = simulator.elapsed + .seconds(10)
                    var steps = 0
                    while steps < 20_000, simulator.elapsed < deadline {
                        await simulator.advance(by: .seconds(5))
                        steps += 1
                        if steps >= 400, await simulator.state().account.commissions > 0 { break }
                        try await simulator.sleep(for: .milliseconds(5))
                    }
                    stopper.yield("test done")
                }
                try await group.waitForAll()
            }
            return try await executionsAfterRun(simulator, clientID: 41).count
        }
        #expect(executions > 0)
        #expect(try journal.fills().count == executions)
        try journal.close()
        #expect(OrderJournalCheckpointTestsWAL.size(path) == 0)
        #expect(try OrderJournal(path: path).fills().count == executions)
    }
}

/// The WAL's size (0 when there is none).
enum OrderJournalCheckpointTestsWAL {
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }
}
