import Foundation
import SimulatedVenue
import GatewayCore
import GatewaySimulator
import Logging
import Storage
import Synchronization
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Momentum over the synthetic universe: 12-bar lookback, rebalance every 12 slices, one holding.
private let momentum = MomentumRotationConfig(
    lookback: 12, ranking: .rateOfChange, minimumScore: nil, holdings: 1, rebalance: .everyBars(12),
    weighting: .equal, investedFraction: 0.5)

/// Collects milestones across tasks.
private final class Milestones: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [ConnectivityMilestone] = []
    let stream: AsyncStream<ConnectivityMilestone>
    private let continuation: AsyncStream<ConnectivityMilestone>.Continuation
    init() { (stream, continuation) = AsyncStream.makeStream(of: ConnectivityMilestone.self) }
    func add(_ item: ConnectivityMilestone) {
        lock.withLock { items.append(item) }
        continuation.yield(item)
    }
    var all: [ConnectivityMilestone] { lock.withLock { items } }
}

private func quiet() -> Logger {
    var logger = Logger(label: "test.outage")
    logger.logLevel = ProcessInfo.processInfo.environment["FAULT_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .critical
    return logger
}

/// A runner against a manual-clock simulator one hour into a session, at a venue in virtual time; `drive` replays
/// and injects faults. `elapsed`, when given, is set to the venue's time at the end.
private func outageRun(
    grace: TimeSpan, entitled: Bool = true, journal: OrderJournal?, elapsed: VenueTime? = nil,
    prepare: @Sendable (VirtualVenue) async -> Void = { _ in },
    configure: @Sendable (inout LiveRunnerConfiguration) -> Void = { _ in },
    drive: @escaping @Sendable (VirtualVenue, Milestones, AsyncStream<String>.Continuation) async -> Void
) async throws -> (LiveRunSummary, [ConnectivityMilestone], GatewayState, [TWSExecutionReport]) {
    let gateway = GatewaySimulatorConfiguration(
        host: "127.0.0.1", port: 0, data: simulatorData,
        gateway: GatewayConfiguration(liveDataEntitled: entitled), start: simulatorData.defaultStart + .seconds(3600),
        clock: .manual)
    let milestones = Milestones()
    return try await VirtualVenue.run(simulator: gateway) { simulator in
        await prepare(simulator)
        var configuration = LiveRunnerConfiguration(
            connection: simulator.clientConnection(41), symbols: ["SYN000", "SYN001", "SYN002"],
            engine: EngineConfig(initialCash: Money(100_000)))
        simulator.attach(&configuration)
        configuration.journal = journal
        configuration.session.warmupDuration = "1800 S"
        configuration.session.commissionWait = .seconds(3600)
        configuration.session.resilience.gracePeriod = grace
        configuration.session.resilience.resetSchedule = nil  // the bot's clock must not make the test's outage "expected"
        configuration.connectivityObserver = { milestones.add($0) }
        configure(&configuration)
        let runConfiguration = configuration
        let (stop, stopper) = AsyncStream.makeStream(of: String.self)
        return try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
            group.addTask {
                try await LiveRunner.run(
                    strategy: MomentumRotation(config: momentum), configuration: runConfiguration, logger: quiet(),
                    stop: stop)
            }
            group.addTask {
                await drive(simulator, milestones, stopper)
                return nil
            }
            let summary = try await group.first { $0 != nil } ?? nil
            guard let summary else { throw CancellationError() }
            elapsed?.set(simulator.elapsed)
            // The simulator's view, over a fresh connection with the same client id.
            let executions = try await executionsAfterRun(simulator, clientID: 41)
            let state = await simulator.state()
            group.cancelAll()
            return (summary, milestones.all, state, executions)
        }
    }
}

/// A time on the venue's clock, handed out of a run.
private final class VenueTime: Sendable {
    private let time = Mutex(Duration.zero)
    func set(_ value: Duration) { time.withLock { $0 = value } }
    var value: Duration { time.withLock { $0 } }
}

/// Advances the replay clock in 5-second steps until `done` (checked every step), at most `limit` steps.
private func replay(_ simulator: VirtualVenue, limit: Int = 2_000, until done: @Sendable (GatewayState) -> Bool) async {
    var steps = 0
    while steps < limit {
        await simulator.advance(by: .seconds(5))
        steps += 1
        if done(await simulator.state()) { return }
        try? await simulator.sleep(for: .milliseconds(10))
    }
}

private func waitFor(_ milestones: Milestones, _ accept: (ConnectivityMilestone) -> Bool) async {
    if milestones.all.contains(where: accept) { return }
    for await item in milestones.stream where accept(item) { return }
}

@Suite("Live runner outages", .timeLimit(.minutes(1)))
struct LiveRunnerOutageTests {
    @Test("a fill missed while TWS was cut off (1100 > grace) is applied once after 1102; entries paused, bars back-filled")
    func missedFillAfterLongOutage() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe)
        let (run, milestones, state, executions) = try await outageRun(grace: .zero, journal: journal) {
            simulator, milestones, stopper in
            await simulator.waitForBarSubscriptions(3)
            await simulator.apply(.connectivityLostAfterNextOrder)
            // The strategy's first order: acknowledged, then 1100; its fill happens at the simulator, unseen.
            await replay(simulator) { $0.isConnectivityLost }
            // A minute of data passes during the outage (its bars are withheld).
            for _ in 0..<12 { await simulator.advance(by: .seconds(5)) }
            await waitFor(milestones) { $0 == .paused }
            await simulator.apply(.connectivityRestored(dataLost: false))
            await waitFor(milestones) { if case .backfilled = $0 { true } else { false } }
            await replay(simulator, limit: 24) { _ in false }
            stopper.yield("test done")
        }
        #expect(milestones.contains(.paused))
        #expect(milestones.contains(.resumed))
        let index = try #require(milestones.firstIndex { if case .resynchronized = $0 { true } else { false } })
        #expect(milestones[index] == .resynchronized(missedExecutions: 1), "\(milestones)")
        let backfilled = milestones.compactMap { if case .backfilled(let n) = $0 { n } else { nil } }
        #expect(backfilled.first ?? 0 >= 3 * 10, "a minute of 5-second bars for 3 instruments: \(backfilled)")
        #expect(run.reconnects == 0)
        let fills = try journal.fills()
        #expect(Set(fills.map(\.execID)) == Set(executions.map(\.execution.executionID)))
        #expect(fills.count == executions.count)
        var positions: [Symbol: Quantity] = [:]
        for (id, holding) in state.account.holdings where holding.quantity != .zero {
            positions[Symbol(simulatorData.instrument(id).symbol)] = holding.quantity
        }
        #expect(!executions.isEmpty)
        #expect(run.enginePositions == positions)
    }

    @Test("an 1100 restored within the grace period is a blip: no pause; 1101 resynchronizes, back-fills, resubscribes")
    func blipThenDataLost() async throws {
        let (run, milestones, _, _) = try await outageRun(grace: .seconds(600), journal: nil) {
            simulator, milestones, stopper in
            await simulator.waitForBarSubscriptions(3)
            await replay(simulator, limit: 24) { _ in false }
            await simulator.apply(.connectivityLost)
            for _ in 0..<12 { await simulator.advance(by: .seconds(5)) }
            await simulator.apply(.connectivityRestored(dataLost: true))
            await waitFor(milestones) { if case .backfilled = $0 { true } else { false } }
            await simulator.waitForBarSubscriptions(3)
            await replay(simulator, limit: 12) { _ in false }
            stopper.yield("test done")
        }
        #expect(!milestones.contains(.paused))
        #expect(milestones.contains { if case .resynchronized = $0 { true } else { false } })
        let backfilled = milestones.compactMap { if case .backfilled(let n) = $0 { n } else { nil } }
        #expect(backfilled.first ?? 0 >= 3 * 10, "\(backfilled)")
        #expect(run.resubscriptions == 1)
    }

    @Test("data farms: the states TWS reported at connect are known; a broken farm is alerted after the grace period, then OK")
    func farmOutage() async throws {
        let usfarm = TWSFarm(kind: .marketData, name: "usfarm")
        let (run, milestones, _, _) = try await outageRun(grace: .zero, journal: nil) { simulator, milestones, stopper in
            await simulator.waitForBarSubscriptions(3)
            await simulator.apply(.farmStatus(2103))
            await waitFor(milestones) { $0 == .farmAlert(usfarm) }  // the loop's next 1-second tick
            await simulator.apply(.farmStatus(2104))
            // The second OK of usfarm (the first came at connect).
            await waitFor(milestones) { _ in milestones.all.filter { $0 == .farmChanged(usfarm, .ok) }.count == 2 }
            stopper.yield("test done")
        }
        let farms = milestones.filter { if case .farmChanged = $0 { true } else if case .farmAlert = $0 { true } else { false } }
        #expect(farms == [
            .farmChanged(usfarm, .ok), .farmChanged(TWSFarm(kind: .historicalData, name: "ushmds"), .ok),
            .farmChanged(TWSFarm(kind: .securityDefinition, name: "secdefnj"), .ok),
            .farmChanged(usfarm, .broken), .farmAlert(usfarm), .farmChanged(usfarm, .ok),
        ])
        #expect(run.farmOutages == 1)
    }

    @Test("a stop during the warm-up does not wait for its historical requests: the one under way is cancelled")
    func stopDuringWarmUp() async throws {
        let ended = VenueTime()
        let subscriptions = Mutex(0)
        let (run, _, _, _) = try await outageRun(
            grace: .seconds(30), journal: nil, elapsed: ended, prepare: { await $0.apply(.stallNextHistoricalRequest) },
            configure: { configuration in
                configuration.observer = { if case .subscribed = $0 { subscriptions.withLock { $0 += 1 } } }
            }
        ) { simulator, _, stopper in
            // The first warm-up request is never answered (it would time out after 60 s).
            await simulator.wait(upTo: .seconds(60)) { await !simulator.state().pendingFaults.stallNextHistorical }
            stopper.yield("test stop")
        }
        let elapsed = ended.value
        #expect(run.stopReason.contains("test stop"), "\(run.stopReason)")
        #expect(elapsed < .seconds(20), "the stop waited \(elapsed)")
        #expect(run.warmupBars == 0 && run.commands == 0)
        #expect(subscriptions.withLock { $0 } == 0, "stopped before subscribing bars")
    }

    @Test("a stop during a back-fill (after 1102) does not wait for its historical requests")
    func stopDuringBackfill() async throws {
        let ended = VenueTime()
        let (run, milestones, _, _) = try await outageRun(grace: .seconds(600), journal: nil, elapsed: ended) {
            simulator, _, stopper in
            await simulator.waitForBarSubscriptions(3)
            await replay(simulator, limit: 6) { _ in false }
            await simulator.apply(.connectivityLost)
            for _ in 0..<12 { await simulator.advance(by: .seconds(5)) }
            await simulator.apply(.stallNextHistoricalRequest)
            await simulator.apply(.connectivityRestored(dataLost: false))
            await simulator.wait(upTo: .seconds(60)) { await !simulator.state().pendingFaults.stallNextHistorical }
            stopper.yield("test stop")
        }
        let elapsed = ended.value
        #expect(run.stopReason.contains("test stop"), "\(run.stopReason)")
        #expect(elapsed < .seconds(20), "the stop waited \(elapsed)")
        #expect(!milestones.contains { if case .backfilled = $0 { true } else { false } }, "\(milestones)")
    }

    @Test("5-second bars refused for lack of permission stop the run with the reason (no delayed form)")
    func refusedBarsStopWithReason() async throws {
        let (run, _, _, _) = try await outageRun(grace: .seconds(30), entitled: false, journal: nil) { _, _, _ in }
        #expect(run.stopReason.contains("(354)"), "\(run.stopReason)")
        #expect(run.stopReason.contains("delayedFallback does not apply"))
    }
}
