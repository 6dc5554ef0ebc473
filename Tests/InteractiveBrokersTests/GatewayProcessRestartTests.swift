import Foundation
import SimulatedVenue
import Storage
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 44's acceptance for the simulator: restarting the simulator process between two bot runs on the same
/// journal gives no execId conflict (IB never reuses an execId, across gateway processes either).
@Suite("Two gateway processes in sequence under one journal")
struct GatewayProcessRestartTests {
    /// One bot run at a new venue (a new simulator process) until it has paid a commission; the venue's executions.
    static func run(journal: OrderJournal) async throws -> [String] {
        try await withSessionVenue { venue in
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try await LiveRunner.run(
                        strategy: MomentumRotation(config: fastMomentum),
                        configuration: runnerConfiguration(venue, journal: journal), logger: quietLogger(), stop: stop)
                }
                group.addTask {
                    await venue.waitForBarSubscriptions(3)
                    await venue.replay { $0.account.commissions > 0 }
                    stopper.yield("test done")
                }
                try await group.waitForAll()
            }
            return try await executionsAfterRun(venue, clientID: 31).map(\.execution.executionID)
        }
    }

    @Test("the journal keeps every fill of both processes, each under its own execId")
    func twoProcessesGiveDistinctExecIds() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("procs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(
            path: directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe)
        let first = try await Self.run(journal: journal)
        let second = try await Self.run(journal: journal)
        #expect(!first.isEmpty && !second.isEmpty)
        #expect(Set(first).isDisjoint(with: second), "the second process repeated execIds of the first")
        let fills = try journal.fills()
        #expect(Set(fills.map(\.execID)) == Set(first + second))
        #expect(fills.count == first.count + second.count, "a fill of the second process was taken for one of the first")
    }
}
