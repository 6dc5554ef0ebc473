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

/// Holds 10 of its target and sells anything else it holds: a bot that took another's position as its own would
/// liquidate it.
private struct HoldTarget: Strategy {
    let target: Int
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !context.hasOpenOrders(for: id) else { return [] }
        let held = context.position(for: id).quantity
        if id.index == target { return held.isZero ? [.submit(.market(id, .buy, Quantity(10)))] : [] }
        return held.isZero ? [] : [.submit(.market(id, held.units > 0 ? .sell : .buy, held.magnitude))]
    }
}

/// Issue 21's acceptance: two bots on one account with overlapping universes each trade only their own positions.
/// Bot A buys 10 SYN000 and stops; then A restarts beside bot B (another journal, another client id, the same three
/// symbols), which buys 10 SYN001. B does not take A's SYN000 as its own (it would sell it), A does not take B's
/// SYN001, and neither raises a position mismatch while the other trades.
@Suite("Two bots on one account", .timeLimit(.minutes(2)))
struct TwoBotsRunnerTests {
    static func configuration(_ venue: VirtualVenue, client: Int, journal: OrderJournal) -> LiveRunnerConfiguration {
        var configuration = runnerConfiguration(venue, journal: journal)
        configuration.connection = venue.clientConnection(client)
        configuration.session.positionCheck = PositionCheckSettings(interval: .seconds(1), confirmAfter: .milliseconds(300))
        return configuration
    }

    @Test func eachBotTradesOnlyItsOwnPositions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("two-bots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journalA = try OrderJournal(path: folder.appendingPathComponent("a.sqlite").path, durability: .processCrashSafe)
        let journalB = try OrderJournal(path: folder.appendingPathComponent("b.sqlite").path, durability: .processCrashSafe)
        let mismatches = Mutex<[String]>([])
        let (first, second, third, holdings, log) = try await withSessionVenue { simulator in
            func run(_ bots: [(HoldTarget, LiveRunnerConfiguration)], until done: @Sendable @escaping () async -> Bool)
                async throws -> [LiveRunSummary]
            {
                // One stop stream per bot: a stream has one reader.
                let stops = bots.map { _ in AsyncStream.makeStream(of: String.self) }
                return try await withThrowingTaskGroup(of: (Int, LiveRunSummary)?.self) { group in
                    for (k, (strategy, configuration)) in bots.enumerated() {
                        var configuration = configuration
                        let name = k == 0 ? "first" : "second"
                        configuration.observer = { milestone in
                            if case .positionMismatch(let differences) = milestone {
                                mismatches.withLock { $0.append("\(name): \(PositionDifference.describe(differences))") }
                            }
                        }
                        let run = configuration
                        let stop = stops[k].stream
                        group.addTask {
                            (k, try await LiveRunner.run(strategy: strategy, configuration: run, logger: quietLogger(), stop: stop))
                        }
                    }
                    group.addTask {
                        await simulator.waitForBarSubscriptions(3 * bots.count)
                        for _ in 0..<60 {
                            await simulator.advance(by: .seconds(5))
                            try await simulator.sleep(for: .milliseconds(40))
                            if await done() { break }
                        }
                        try await simulator.sleep(for: .milliseconds(1500))  // position checks after the last fill
                        for (_, stopper) in stops { stopper.yield("test done") }
                        return nil
                    }
                    var summaries: [Int: LiveRunSummary] = [:]
                    for try await result in group { if let (k, summary) = result { summaries[k] = summary } }
                    return (0..<bots.count).compactMap { summaries[$0] }
                }
            }
            @Sendable func held(_ symbol: String) async -> Quantity {
                await simulator.state().account.holdings.first { simulatorData.instrument($0.key).symbol == symbol }?.value.quantity
                    ?? .zero
            }
            let a = Self.configuration(simulator, client: 31, journal: journalA)
            let b = Self.configuration(simulator, client: 32, journal: journalB)
            let first = try await run([(HoldTarget(target: 0), a)]) { await held("SYN000") == Quantity(10) }
            let both = try await run([(HoldTarget(target: 0), a), (HoldTarget(target: 1), b)]) {
                await held("SYN001") == Quantity(10)
            }
            let holdings = (await held("SYN000"), await held("SYN001"), await held("SYN002"))
            return (first[0], both[0], both[1], holdings, await simulator.state().placeOrderLog)
        }
        #expect(first.enginePositions == ["SYN000": Quantity(10)])
        #expect(second.enginePositions == ["SYN000": Quantity(10)], "A restarted with its own 10, not B's SYN001")
        #expect(third.enginePositions == ["SYN001": Quantity(10)], "B bought its own and left A's alone")
        #expect(holdings == (Quantity(10), Quantity(10), .zero))
        // Every order: one buy of SYN000 by A (client 31), one buy of SYN001 by B (client 32); no sell at all.
        #expect(log.filter { !$0.isModification }.map { "\($0.clientID) \($0.symbol)" } == ["31 SYN000", "32 SYN001"], "\(log)")
        #expect(mismatches.withLock { $0 }.isEmpty, "\(mismatches.withLock { $0 })")
        // Each bot's orders carry its own journal's identity.
        let botA = try #require(try journalA.botIdentity())
        let botB = try #require(try journalB.botIdentity())
        #expect(botA != botB)
        #expect(log.allSatisfy { $0.orderRef.hasPrefix("IBT:\($0.clientID == 31 ? botA : botB).R") }, "\(log.map(\.orderRef))")
    }
}
