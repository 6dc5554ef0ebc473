import Foundation
import SimulatedVenue
import Logging
import Storage
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

// The shared harness of `FaultAcceptanceTests`: a LiveRunner against the in-process simulator (manual replay clock),
// small scripted strategies, and one invariant check run after every fault.

/// The simulator's start: one hour into a session, so warm-up bars exist.
let faultStart = simulatorData.defaultStart + .seconds(3600)
/// The first bar the strategies may trade on (later than every warm-up bar).
let faultTradeTime = faultStart + .seconds(10)
/// Engine and simulator start with the same cash, so their cash can be compared after the fills.
let faultCash = 1_000_000.0

/// What the engine did, as the run's observers and the strategy saw it (shared across tasks).
final class EngineRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var fillList: [Fill] = []
    private var rejectionList: [OrderID] = []
    private var cancellationList: [OrderID] = []
    private var latestCash: Money?
    private var closed = Timestamp.zero
    private var milestoneList: [LiveRunnerMilestone] = []
    let milestones: AsyncStream<LiveRunnerMilestone>
    private let continuation: AsyncStream<LiveRunnerMilestone>.Continuation

    init() { (milestones, continuation) = AsyncStream.makeStream(of: LiveRunnerMilestone.self) }

    func engine(_ event: EngineEvent) {
        if case .barsClosed(let time) = event { lock.withLock { closed = max(closed, time) } }
        guard case .execution(let report) = event else { return }
        lock.withLock {
            switch report {
            case .filled(let fill): fillList.append(fill)
            case .rejected(let id, _, _): rejectionList.append(id)
            case .canceled(let id, _, _): cancellationList.append(id)
            default: break
            }
        }
    }

    func cash(_ value: Money) { lock.withLock { latestCash = value } }

    func milestone(_ value: LiveRunnerMilestone) {
        lock.withLock { milestoneList.append(value) }
        continuation.yield(value)
    }

    /// Every fill the engine handled, in order.
    var fills: [Fill] { lock.withLock { fillList } }
    /// The latest slice the engine closed (live, back-filled or warm-up).
    var lastClosed: Timestamp { lock.withLock { closed } }
    /// Orders the engine saw rejected.
    var rejections: [OrderID] { lock.withLock { rejectionList } }
    /// Orders the engine saw cancelled.
    var cancellations: [OrderID] { lock.withLock { cancellationList } }
    /// The engine's cash at its latest strategy event.
    var cash: Money? { lock.withLock { latestCash } }
    var allMilestones: [LiveRunnerMilestone] { lock.withLock { milestoneList } }

    /// Waits for a milestone (returns at once when it was already reported).
    func wait(for milestone: LiveRunnerMilestone) async {
        if allMilestones.contains(milestone) { return }
        for await next in milestones where next == milestone { return }
    }
}

/// Steps towards a target position in SYN000: at the first bar at or after each step's time, one market order for
/// the difference (each step acts once, so a rejected or denied order is not retried by the strategy).
struct TargetSchedule: Strategy {
    var steps: [(time: Timestamp, target: Int64)]
    let recorder: EngineRecorder
    var next = 0

    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        recorder.cash(context.cash)
        guard case .bar(let id, let bar) = event, id == syn0, next < steps.count, bar.timestamp >= steps[next].time,
            !context.hasOpenOrders(for: syn0)
        else { return [] }
        let difference = Quantity(steps[next].target) - context.position(for: syn0).quantity
        next += 1
        guard difference != .zero else { return [] }
        let side: Side = difference > .zero ? .buy : .sell
        return [.submit(.market(syn0, side, difference > .zero ? difference : -difference))]
    }
}

/// One journaled run of `TargetSchedule` (on instrument 0 of `symbols`) against `venue`: `drive` replays, then the run
/// stops. The restart tests run it twice on one journal.
func runTargetSchedule(
    _ venue: VirtualVenue, clientID: Int, symbols: [Symbol], engine: EngineConfig, journal: OrderJournal,
    steps: [(time: Timestamp, target: Int64)],
    drive: @escaping @Sendable (VirtualVenue, EngineRecorder) async throws -> Void
) async throws -> (LiveRunSummary, EngineRecorder) {
    let recorder = EngineRecorder()
    var configuration = LiveRunnerConfiguration(
        connection: venue.clientConnection(clientID), symbols: symbols, engine: engine)
    venue.attach(&configuration)
    configuration.journal = journal
    configuration.session.warmupDuration = "600 S"
    configuration.session.commissionWait = .seconds(3600)
    configuration.session.resilience.resetSchedule = nil
    configuration.observer = { recorder.milestone($0) }
    configuration.engineEventObserver = { event, _ in recorder.engine(event) }
    let runConfiguration = configuration
    var logger = Logger(label: "test.target-schedule")
    logger.logLevel = .critical
    let runLogger = logger
    let (stop, stopper) = AsyncStream.makeStream(of: String.self)
    let strategy = TargetSchedule(steps: steps, recorder: recorder)
    let summary = try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
        group.addTask {
            try await LiveRunner.run(strategy: strategy, configuration: runConfiguration, logger: runLogger, stop: stop)
        }
        group.addTask {
            await recorder.wait(for: .subscribed(generation: 0, feed: 0))
            try await drive(venue, recorder)
            stopper.yield("test done")
            return nil
        }
        var summary: LiveRunSummary?
        while let next = try await group.next() {
            if let next { summary = next }
        }
        return summary
    }
    return (try #require(summary), recorder)
}

/// One bracket on SYN000 at the first tradable bar: buy 100 at market, stop-loss 10 % below, take-profit 10 % above
/// (whole cents, so the prices are on the tick).
struct FaultBracket: Strategy {
    let recorder: EngineRecorder
    var done = false

    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        recorder.cash(context.cash)
        guard case .bar(let id, let bar) = event, id == syn0, !done, bar.timestamp >= faultTradeTime else { return [] }
        done = true
        let cent: Int64 = 1_000_000
        let stop = Price(units: bar.close.units * 9 / 10 / cent * cent)
        let target = Price(units: bar.close.units * 11 / 10 / cent * cent)
        return [
            .submitBracket(
                BracketOrder(entry: .market(syn0, .buy, Quantity(100)), stopLoss: stop, takeProfit: target))
        ]
    }
}

/// The counts taken when the drive ends (set once, read after the run).
private final class BeforeStop: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (engineFills: -1, executions: -1)
    func set(_ fills: Int, _ executions: Int) { lock.withLock { counts = (fills, executions) } }
    var value: (engineFills: Int, executions: Int) { lock.withLock { counts } }
}

/// What a fault run leaves for the checks.
struct FaultRun {
    var summary: LiveRunSummary
    var state: GatewayState
    var journal: OrderJournal
    var recorder: EngineRecorder
    var clientID: Int
    /// The account the bot traded (`nil`: the login's only one).
    var account: String?
    /// Fills the engine had seen, and executions the simulator had made, when the stop was asked for: the stop
    /// records the broker's executions again, which would hide a fill lost earlier.
    var beforeStop: (engineFills: Int, executions: Int)
}

/// Runs `strategy` under the LiveRunner against a fresh manual-clock simulator at a venue in virtual time (one loop,
/// in process, every byte through the codecs); `prepare` acts at the venue before the bot starts, `drive` replays
/// and injects the fault, and the run stops when it returns. The simulator's state is taken after the runner has stopped.
func faultRun<S: Strategy>(
    clientID: Int, strategy: (EngineRecorder) -> S, configure: (inout LiveRunnerConfiguration) -> Void = { _ in },
    gateway: GatewayConfiguration = GatewayConfiguration(startingCash: faultCash),
    prepare: @escaping @Sendable (VirtualVenue) async throws -> Void = { _ in },
    logger custom: Logger? = nil, drive: @escaping @Sendable (VirtualVenue, EngineRecorder) async throws -> Void
) async throws -> FaultRun {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path)
    let recorder = EngineRecorder()
    let strategy = strategy(recorder)
    var configuration = LiveRunnerConfiguration(
        connection: TWSConnectionConfiguration(host: "127.0.0.1", port: 7497, clientID: clientID), symbols: ["SYN000"],
        engine: EngineConfig(initialCash: Money(approximately: faultCash)))
    configuration.journal = journal
    configuration.session.warmupDuration = "600 S"
    configuration.session.commissionWait = .seconds(3600)
    configuration.session.reconnectDelay = .milliseconds(20)
    configuration.session.maxReconnectDelay = .milliseconds(160)
    configuration.session.resilience.resetSchedule = nil  // the bot's clock must not make an outage "expected"
    configuration.observer = { recorder.milestone($0) }
    configuration.engineEventObserver = { event, _ in recorder.engine(event) }
    configure(&configuration)
    var logger = Logger(label: "test.faults")
    // FAULT_LOG=info (or debug) shows the runner's log when a fault test needs explaining.
    logger.logLevel = ProcessInfo.processInfo.environment["FAULT_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .critical
    let runLogger = custom ?? logger
    let simulator = GatewaySimulatorConfiguration(
        host: "127.0.0.1", port: 0, data: simulatorData, gateway: gateway, start: faultStart, clock: .manual)
    let prepared = configuration
    return try await VirtualVenue.run(simulator: simulator) { venue in
        try await prepare(venue)
        var runConfiguration = prepared
        runConfiguration.connection = venue.clientConnection(clientID)
        venue.attach(&runConfiguration)
        let run = runConfiguration
        return try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            group.addTask {
                try await LiveRunner.run(strategy: strategy, configuration: run, logger: runLogger, stop: stop)
            }
            let seen = BeforeStop()
            group.addTask {
                await recorder.wait(for: .subscribed(generation: 0, feed: 0))
                try await drive(venue, recorder)
                // Fills travel on the broker's stream, bars on the feed's: give the last fills up to 5 s to arrive (a
                // fill the bot lost never does, and the check fails).
                let made = executions(await venue.state(), clientID: clientID).count
                await venue.wait(upTo: .seconds(5), step: .milliseconds(1)) { recorder.fills.count >= made }
                seen.set(recorder.fills.count, made)
                stopper.yield("test done")
                return nil
            }
            let summary = try await group.first { $0 != nil } ?? nil
            let state = await venue.state()
            group.cancelAll()
            guard let summary else { throw CancellationError() }
            return FaultRun(
                summary: summary, state: state, journal: journal, recorder: recorder, clientID: clientID,
                account: prepared.session.account, beforeStop: seen.value)
        }
    }
}

/// Advances the replay clock in 5-second steps until `done` holds (checked after every step), at most `limit`.
/// Each step waits (on the venue's clock) until the engine has closed the slice the step emitted, so the replay does
/// not race ahead of the bot ("as fast as the client consumes"). The wait is bounded (300 ms): a step taken before
/// the simulator holds the (re)subscription brings no bar (`.subscribed` is reported before reqRealTimeBars reaches
/// it, and steps go on while the runner back-fills and resubscribes; the runner itself closes the first live bar at
/// once: `FirstLiveBarTests`), and correctness never depends on the pace — `done` and the checks wait for what they
/// need.
func replaySteps(
    _ venue: VirtualVenue, _ recorder: EngineRecorder, limit: Int = 400,
    until done: @Sendable (GatewayState) -> Bool = { _ in false }
) async {
    for _ in 0..<limit {
        await venue.advance(by: .seconds(5))
        // The bar stamped now - 5 s is the one this step completed.
        let slice = await venue.now() - .seconds(5)
        await venue.wait(upTo: .milliseconds(300), step: .milliseconds(1)) { recorder.lastClosed >= slice }
        if done(await venue.state()) { return }
    }
}

/// Executions of a client at the simulator.
func executions(_ state: GatewayState, clientID: Int) -> [ExecutionRecord] {
    state.executions.filter { $0.clientID == clientID }
}

/// The three invariants every fault test ends with:
/// (a) no orderRef reached the simulator twice (new placeOrders, modifications aside), every journaled order that
///     is live or filled reached it exactly once, and nothing reached it without a journal intent;
/// (b) every simulator execution is in the journal exactly once (by execId) with the simulator's commission, and the
///     engine handled each fill exactly once — already before the stop, not only through the stop's sweep;
/// (c) engine positions equal the simulator's, and so does engine cash (both book IBKR's reported commission).
func expectFaultInvariants(_ run: FaultRun, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let state = run.state
    // (a)
    let submissions = state.submissions(clientID: run.clientID)
    let duplicates = submissions.filter { $0.value != 1 }
    #expect(duplicates.isEmpty, "orders submitted more than once: \(duplicates)", sourceLocation: sourceLocation)
    let journaled = try run.journal.orders()
    for order in journaled {
        // An order the bot saw end unfilled (a group whose send failed, or that the resynchronization found gone)
        // may never have reached the simulator; everything else must have, once.
        let endedUnfilled = [.rejected, .canceled].contains(order.state) && order.filledQuantity == .zero
        let count = submissions[order.intent.orderRef.rawValue] ?? 0
        #expect(
            endedUnfilled ? count <= 1 : count == 1,
            "journaled \(order.intent.orderRef) (\(order.state)) reached the simulator \(count) times",
            sourceLocation: sourceLocation)
    }
    let journalRefs = Set(journaled.map(\.intent.orderRef.rawValue))
    #expect(
        Set(submissions.keys).isSubset(of: journalRefs), "orders at the simulator without a journal intent: \(Set(submissions.keys).subtracting(journalRefs))",
        sourceLocation: sourceLocation)
    // (b)
    let brokerFills = executions(state, clientID: run.clientID)
    let fills = try run.journal.fills()
    #expect(fills.count == Set(fills.map(\.execID)).count, "an execId journaled twice", sourceLocation: sourceLocation)
    #expect(
        Set(fills.map(\.execID)) == Set(brokerFills.map(\.execution.executionID)),
        "journal \(fills.map(\.execID)) vs simulator \(brokerFills.map(\.execution.executionID))",
        sourceLocation: sourceLocation)
    let brokerCommission = Dictionary(
        brokerFills.map { ($0.execution.executionID, $0.commission.commission) }, uniquingKeysWith: { a, _ in a })
    for fill in fills {
        let expected = brokerCommission[fill.execID] ?? .nan
        #expect(
            fill.commission.map { abs($0.doubleValue - expected) < 1e-6 } == true,
            "\(fill.execID): journal commission \(fill.commission.map { "\($0)" } ?? "none"), simulator \(expected)",
            sourceLocation: sourceLocation)
    }
    func line(_ side: Side, _ quantity: Double, _ price: Double) -> String {
        "\(side) \(quantity) @ \((price * 100).rounded() / 100)"
    }
    let engineLines = run.recorder.fills.map { line($0.side, $0.quantity.doubleValue, $0.price.doubleValue) }.sorted()
    let brokerLines = brokerFills.map {
        line(
            $0.execution.side == "BOT" ? .buy : .sell,
            $0.execution.shares.map { NSDecimalNumber(decimal: $0).doubleValue } ?? 0, $0.execution.price)
    }.sorted()
    #expect(engineLines == brokerLines, "engine fills vs simulator executions", sourceLocation: sourceLocation)
    // Not only in the end: while the run was still trading (the stop's own execution sweep must not be what
    // found a fill the fault had hidden).
    #expect(
        run.beforeStop.engineFills == run.beforeStop.executions,
        "before the stop the engine had \(run.beforeStop.engineFills) fills, the simulator \(run.beforeStop.executions) executions",
        sourceLocation: sourceLocation)
    // (c)
    let account = run.account.flatMap(state.book) ?? state.account
    var positions: [Symbol: Quantity] = [:]
    for (id, holding) in account.holdings where holding.quantity != .zero {
        positions[Symbol(simulatorData.instrument(id).symbol)] = holding.quantity
    }
    #expect(run.summary.enginePositions.filter { $0.value != .zero } == positions, sourceLocation: sourceLocation)
    #expect(run.summary.brokerPositions.filter { $0.value != .zero } == positions, sourceLocation: sourceLocation)
    let cash = try #require(run.recorder.cash, sourceLocation: sourceLocation)
    #expect(
        abs(cash.doubleValue - account.cash) < 0.01, "engine cash \(cash) vs simulator \(account.cash)",
        sourceLocation: sourceLocation)
}
