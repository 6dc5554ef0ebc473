import Foundation
import GatewayCore
import GatewaySimulator
import SimulatedVenue
import JournalModel
import Logging
import Storage
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// A fast momentum rotation over the synthetic universe: 12-bar lookback, rebalance every 12 slices, one holding.
let fastMomentum = MomentumRotationConfig(
    lookback: 12, ranking: .rateOfChange, minimumScore: nil, holdings: 1, rebalance: .everyBars(12),
    weighting: .equal, investedFraction: 0.5)

func runnerConfiguration(_ port: Int, journal: OrderJournal?) -> LiveRunnerConfiguration {
    var configuration = LiveRunnerConfiguration(
        connection: connectionConfiguration(port, clientID: 31), symbols: ["SYN000", "SYN001", "SYN002"],
        engine: EngineConfig(initialCash: Money(100_000)))
    configuration.journal = journal
    configuration.session.warmupDuration = "1800 S"
    configuration.session.commissionWait = .seconds(3600)
    return configuration
}

/// `runnerConfiguration` for a bot at `venue` (its transport and clock).
func runnerConfiguration(_ venue: VirtualVenue, journal: OrderJournal?) -> LiveRunnerConfiguration {
    var configuration = runnerConfiguration(0, journal: journal)
    configuration.connection = venue.clientConnection(31)
    venue.attach(&configuration)
    return configuration
}

func quietLogger() -> Logger {
    var logger = Logger(label: "test.live")
    logger.logLevel = .warning
    return logger
}

/// A simulator on a free port, its clock in manual mode, started one hour into a session (so warm-up bars exist).
func withSessionSimulator<Result: Sendable>(
    account: String = "DU1234567", _ body: @Sendable (GatewaySimulator, Int) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "test.gateway")
    logger.logLevel = .warning
    let start = simulatorData.defaultStart + .seconds(3600)
    let simulator = GatewaySimulator(
        configuration: GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: simulatorData,
            gateway: GatewayConfiguration(accounts: [account]), start: start, clock: .manual), logger: logger)
    return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
        group.addTask { try await simulator.run() }
        let port = await simulator.listeningPort()
        do {
            let result = try await body(simulator, port)
            group.cancelAll()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}

/// The simulator of `withSessionSimulator` (manual clock, one hour into a session) at a venue in virtual time.
func withSessionVenue<Result: Sendable>(
    account: String = "DU1234567", _ body: @Sendable (VirtualVenue) async throws -> Result
) async throws -> Result {
    let start = simulatorData.defaultStart + .seconds(3600)
    let configuration = GatewaySimulatorConfiguration(
        host: "127.0.0.1", port: 0, data: simulatorData, gateway: GatewayConfiguration(accounts: [account]),
        start: start, clock: .manual)
    return try await VirtualVenue.run(simulator: configuration, body)
}

extension VirtualVenue {
    /// Replays 5-second steps, 10 ms apart on the venue's clock (the bot takes each step's bars, and its timers run,
    /// before the next), until `done` holds, checked every 12 steps from the 48th on; at most 2,000 steps.
    func replay(until done: @Sendable (GatewayState) -> Bool) async {
        var steps = 0
        while steps < 2_000 {
            await advance(by: .seconds(5))
            steps += 1
            if steps % 12 == 0, steps >= 48, done(await state()) { break }
            try? await sleep(for: .milliseconds(10))
        }
    }

    /// Waits (at most a minute on the venue's clock) until the simulator holds `count` real-time bar subscriptions.
    func waitForBarSubscriptions(_ count: Int) async {
        await wait(upTo: .seconds(60)) { await self.state().activeSubscriptions.realTimeBars >= count }
    }
}

@Suite("Live runner against the gateway simulator")
struct LiveRunnerTests {
    @Test("the momentum strategy trades; the journal's fills, positions and commissions equal the simulator's")
    func momentumTradesAndJournalMatches() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite").path
        let journal = try OrderJournal(path: path, durability: .processCrashSafe)
        try await withSessionVenue { simulator in
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            let summary = try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                group.addTask {
                    try await LiveRunner.run(
                        strategy: MomentumRotation(config: fastMomentum),
                        configuration: runnerConfiguration(simulator, journal: journal), logger: quietLogger(),
                        stop: stop)
                }
                group.addTask {
                    // Wait for the runner's subscriptions, then replay until the simulator has executions.
                    await simulator.waitForBarSubscriptions(3)
                    var steps = 0
                    while steps < 2_000 {
                        await simulator.advance(by: .seconds(5))
                        steps += 1
                        if steps % 12 == 0, await simulator.state().account.commissions > 0, steps >= 48 { break }
                        try? await simulator.sleep(for: .milliseconds(10))
                    }
                    stopper.yield("test done")
                    return nil
                }
                var result: LiveRunSummary?
                for try await value in group { if let value { result = value } }
                return result
            }
            let run = try #require(summary)
            #expect(run.account == "DU1234567")
            #expect(run.warmupBars > 0)
            #expect(run.commands > 0)
            let state = await simulator.state()
            #expect(state.account.commissions > 0)

            // The simulator's view, over a fresh connection with the same client id.
            let executions = try await executionsAfterRun(simulator, clientID: 31)
            #expect(!executions.isEmpty)
            let fills = try journal.fills()
            #expect(Set(fills.map(\.execID)) == Set(executions.map(\.execution.executionID)))
            #expect(fills.count == executions.count)
            let journalCommission = fills.compactMap(\.commission).reduce(Money.zero, +)
            let simulatorCommission = executions.compactMap { $0.commission?.commission }.reduce(0, +)
            #expect(fills.allSatisfy { $0.commission != nil }, "fills without commission: \(fills.filter { $0.commission == nil }.map(\.execID))")
            #expect(abs(journalCommission.doubleValue - simulatorCommission) < 0.01)
            #expect(abs(journalCommission.doubleValue - state.account.commissions) < 0.01, "journal \(journalCommission) reports \(simulatorCommission) account \(state.account.commissions)")
            var simulatorPositions: [Symbol: Quantity] = [:]
            for (id, holding) in state.account.holdings where holding.quantity != .zero {
                simulatorPositions[Symbol(simulatorData.instrument(id).symbol)] = holding.quantity
            }
            #expect(run.brokerPositions.filter { $0.value != .zero } == simulatorPositions)
            #expect(run.enginePositions == simulatorPositions)
            let journaled = try #require(try journal.latestPositions())
            #expect(Dictionary(uniqueKeysWithValues: journaled.positions.filter { $0.quantity != .zero }.map { ($0.symbol, $0.quantity) }) == simulatorPositions)
            // Every order went out with a journaled intent.
            #expect(try journal.orders().count >= Set(executions.map(\.execution.orderRef)).count)
        }
    }

    @Test("a dropped connection is re-established; afterwards fills and positions still equal the simulator's")
    func reconnectsAfterDrop() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe)
        try await withSessionVenue { simulator in
            var configuration = runnerConfiguration(simulator, journal: journal)
            configuration.session.reconnectDelay = .milliseconds(20)
            let runConfiguration = configuration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            let summary = try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                group.addTask {
                    try await LiveRunner.run(
                        strategy: MomentumRotation(config: fastMomentum), configuration: runConfiguration,
                        logger: quietLogger(), stop: stop)
                }
                group.addTask {
                    await simulator.waitForBarSubscriptions(3)
                    await simulator.replay { $0.account.commissions > 0 }
                    let before = await simulator.state().account.commissions
                    await simulator.apply(.dropAllConnections)
                    await simulator.waitForBarSubscriptions(3)
                    await simulator.replay { $0.account.commissions > before }
                    stopper.yield("test done")
                    return nil
                }
                var result: LiveRunSummary?
                for try await value in group { if let value { result = value } }
                return result
            }
            let run = try #require(summary)
            #expect(run.reconnects >= 1)
            let state = await simulator.state()
            let executions = try await executionsAfterRun(simulator, clientID: 31)
            let fills = try journal.fills()
            #expect(Set(fills.map(\.execID)) == Set(executions.map(\.execution.executionID)))
            #expect(fills.count == executions.count)
            let journalCommission = fills.compactMap(\.commission).reduce(Money.zero, +)
            #expect(abs(journalCommission.doubleValue - state.account.commissions) < 0.01)
            var simulatorPositions: [Symbol: Quantity] = [:]
            for (id, holding) in state.account.holdings where holding.quantity != .zero {
                simulatorPositions[Symbol(simulatorData.instrument(id).symbol)] = holding.quantity
            }
            #expect(run.brokerPositions.filter { $0.value != .zero } == simulatorPositions)
            #expect(run.enginePositions == simulatorPositions)
        }
    }

    @Test("at start the journal is reconciled with the broker: a stale intent that never reached it is abandoned, not sent")
    func journalReconciledAtStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe)
        try journal.recordIntent(
            JournalIntent(
                orderRef: "IBT:1:O-1", symbol: "SYN000",
                request: OrderRequest(instrument: syn0, side: .buy, quantity: Quantity(10)),
                createdAt: Timestamp(seconds: 1_000_000_000)))  // a market order of an earlier day
        try await withSessionVenue { simulator in
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            let summary = try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                group.addTask {
                    try await LiveRunner.run(
                        strategy: MomentumRotation(config: fastMomentum),
                        configuration: runnerConfiguration(simulator, journal: journal), logger: quietLogger(), stop: stop)
                }
                group.addTask {
                    await simulator.waitForBarSubscriptions(3)
                    stopper.yield("test done")
                    return nil
                }
                var result: LiveRunSummary?
                for try await value in group { if let value { result = value } }
                return result
            }
            #expect(summary != nil)
            let events = try journal.events(kind: .reconciliation)
            #expect(events.contains { $0.message.contains("IBT:1:O-1") && $0.message.contains("abandoned") })
            #expect(try journal.order("IBT:1:O-1")?.state == .canceled)
            // Every client's orders, open and completed: it was never placed.
            let refs = try await TWSConnection.connect(simulator.clientConnection(31), environment: simulator.environment()) { c, _ in
                (try await c.allOpenOrders() + []).map(\.order.orderRef)
                    + (try await c.completedOrderList()).map(\.order.orderRef)
            }
            #expect(!refs.contains("IBT:1:O-1"))
            #expect(await simulator.state().account.commissions == 0)
        }
    }

    @Test("after 1101 (data lost) the bars are subscribed again and trading goes on")
    func resubscribesAfterDataLost() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe)
        try await withSessionVenue { simulator in
            let (milestones, milestone) = AsyncStream.makeStream(of: LiveRunnerMilestone.self)
            var configuration = runnerConfiguration(simulator, journal: journal)
            configuration.observer = { milestone.yield($0) }
            let runConfiguration = configuration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            let summary = try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                group.addTask {
                    try await LiveRunner.run(
                        strategy: MomentumRotation(config: fastMomentum), configuration: runConfiguration,
                        logger: quietLogger(), stop: stop)
                }
                group.addTask {
                    var iterator = milestones.makeAsyncIterator()
                    while let next = await iterator.next(), next != .subscribed(generation: 0, feed: 0) {}
                    await simulator.waitForBarSubscriptions(3)
                    await simulator.replay { $0.account.commissions > 0 }
                    let before = await simulator.state().account.commissions
                    await simulator.apply(.connectivityLost)
                    await simulator.apply(.connectivityRestored(dataLost: true))
                    while let next = await iterator.next(), next != .subscribed(generation: 0, feed: 1) {}
                    await simulator.replay { $0.account.commissions > before }
                    stopper.yield("test done")
                    return nil
                }
                var result: LiveRunSummary?
                for try await value in group { if let value { result = value } }
                return result
            }
            let run = try #require(summary)
            #expect(run.resubscriptions == 1)
            #expect(run.reconnects == 0)
            let state = await simulator.state()
            let executions = try await executionsAfterRun(simulator, clientID: 31)
            let fills = try journal.fills()
            #expect(Set(fills.map(\.execID)) == Set(executions.map(\.execution.executionID)))
            var simulatorPositions: [Symbol: Quantity] = [:]
            for (id, holding) in state.account.holdings where holding.quantity != .zero {
                simulatorPositions[Symbol(simulatorData.instrument(id).symbol)] = holding.quantity
            }
            #expect(run.enginePositions == simulatorPositions)
        }
    }

    @Test("a live account without confirmation is refused before anything is sent")
    func liveAccountRefused() async throws {
        try await withSessionVenue(account: "U1234567") { simulator in
            await #expect(throws: LiveRunnerError.liveAccountNotConfirmed(account: "U1234567")) {
                _ = try await LiveRunner.run(
                    strategy: MomentumRotation(config: fastMomentum),
                    configuration: runnerConfiguration(simulator, journal: nil), logger: quietLogger())
            }
            #expect(await simulator.state().account.commissions == 0)
        }
    }

    @Test("the account rule: paper runs, live only when confirmed by name; several accounts need one named")
    func accountRule() throws {
        #expect(try AccountRule.check(managed: ["DU1"], configured: nil, confirmedLive: nil) == "DU1")
        #expect(throws: LiveRunnerError.liveAccountNotConfirmed(account: "U2")) {
            try AccountRule.check(managed: ["U2"], configured: nil, confirmedLive: "U3")
        }
        #expect(try AccountRule.check(managed: ["U2"], configured: "U2", confirmedLive: "U2") == "U2")
        #expect(throws: LiveRunnerError.accountNotManaged(account: "DU9", managed: ["DU1"])) {
            try AccountRule.check(managed: ["DU1"], configured: "DU9", confirmedLive: nil)
        }
        #expect(throws: LiveRunnerError.accountNotChosen(managed: ["DU1", "DU2"])) {
            try AccountRule.check(managed: ["DU1", "DU2"], configured: nil, confirmedLive: nil)
        }
        #expect(try AccountRule.check(managed: ["DU1", "DU2"], configured: "DU2", confirmedLive: nil) == "DU2")
        #expect(
            LiveRunnerError.accountNotChosen(managed: ["DU1", "DU2"]).description
                == "this login manages 2 accounts (DU1, DU2): name the one to trade with connection.account "
                + "(--account); positions, cash and risk are then that account's alone")
    }
}
