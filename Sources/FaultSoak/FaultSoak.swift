import Foundation
import GatewayCore
import GatewaySimulator
import InteractiveBrokers
import LiveSession
import SimulatedVenue
import Logging
import Storage
import Synchronization
import TradingEngine
import TradingModel
import TWSClient

/// The bot (`LiveRunner`, the code of `ibtrader run`) against the gateway simulator over loopback while a fault
/// script runs (`SoakSchedule`): disconnects, a hang, restarts with the gateway's state kept and lost, rejections,
/// partial fills, and order status and execution messages duplicated, late and reordered. The replay clock moves
/// one 5-second step per `pace`; a sampler compares the engine's positions (the operator link's snapshot) with the
/// simulator's every 100 ms; after a position-mismatch ALERT the soak's operator restarts the bot, which adopts the
/// broker's positions. At the end every simulator execution must be in the journal, no orderRef may have reached
/// the simulator twice, and no difference may have gone unalerted for longer than one reconciliation interval.
///
/// ```swift
/// var settings = SoakSettings()
/// settings.duration = .seconds(90)
/// let report = try await FaultSoak.run(settings)
/// print(report.lines.joined(separator: "\n"))   // lost fills: 0, duplicate orders: 0, …
/// ```
///
/// The CI runs it bounded (`FaultSoakTests`); `ibtrader-bench soak --minutes 60` runs it long.
public enum FaultSoak {
    /// Runs a soak.
    /// - Parameters:
    ///   - settings: how long and how hard.
    ///   - botLog: the bot's log lines at this level and above go to standard error (`nil`: none).
    ///   - progress: told a line every `settings.progressEvery`.
    /// - Throws: `SoakError` when the bot never starts; a journal or schedule error.
    public static func run(
        _ settings: SoakSettings, botLog: Logger.Level? = nil, progress: (@Sendable (String) -> Void)? = nil
    ) async throws -> SoakReport {
        let schedule = try SoakSchedule(script: settings.script, cycle: settings.cycle)
        // Replay time for the whole run with room to spare (the start-up and the stop take time too), plus the hour
        // before the start the warm-up reads.
        let span = (settings.duration + settings.settle + .seconds(120)).secondsValue
        let steps = span / max(settings.pace.secondsValue, 0.001)
        let intoSession = Int(settings.start.secondsValue / 60)
        let data = SoakData.make(symbols: settings.symbols, minutes: intoSession + Int(steps * 5 / 60) + 120)
        let start = SoakData.firstBar + TimeSpan(settings.start)
        let directory = settings.directory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if settings.directory == nil { try? FileManager.default.removeItem(at: directory) } }
        // `ibtrader run`'s durability (WAL, synchronous NORMAL): the soak kills no process, and a sync per commit would
        // make it wait on the disk rather than run at CPU speed.
        let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe)
        // A fixed identity (orderRefs `IBT:soak.R<run>:`) instead of a random one: the same soak repeats exactly.
        try journal.assignIdentity("soak")
        let ledger = LedgerBox(SoakLedger(clientID: settings.clientID))
        // A fixed execId prefix too (a real gateway's is new with each process).
        var gateway = GatewayConfiguration(startingCash: 1_000_000)
        gateway.executionPrefix = 0x0000_e0d5
        var simulatorConfiguration = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: data, gateway: gateway, start: start, clock: .manual)
        // The process a `restart-fresh` retires goes into the ledger at the moment it is replaced.
        simulatorConfiguration.retired = { ledger.absorb($0) }
        let wall = ContinuousClock()
        let began = wall.now

        // Everything in one process on one loop, in virtual time: the same seed gives the same run.
        let (report, final) = try await VirtualVenue.run(simulator: simulatorConfiguration) { venue in
            let simulator = venue.simulator
            let monitor = SoakMonitor(clock: venue.loop.clock)
            let botLogger = monitor.logger(level: botLog)
            var report = SoakReport()
            var faults: [String: Int] = [:]
            var replayed = 0.0
            var configuration = botConfiguration(settings, venue: venue, journal: journal, monitor: monitor)
            venue.attach(&configuration)
            let run = configuration
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    await superviseBot(
                        configuration: run, strategy: SoakTrader(period: settings.period, restEvery: settings.restEvery),
                        logger: botLogger, monitor: monitor, venue: venue)
                }
                group.addTask { await sample(simulator, monitor: monitor, venue: venue) }
                // The bot subscribes only once replay bars arrive for the warm-up's end: wait until it does.
                guard await venue.wait(upTo: .seconds(60), until: { monitor.hasSubscribed }) else {
                    monitor.finish()
                    group.cancelAll()
                    throw SoakError.botDidNotStart("not subscribed to bars within 60 s")
                }
                let began = monitor.elapsed()
                report.startupSeconds = began
                var last = 0.0
                var nextProgress = settings.progressEvery.map { wall.now + $0 }
                let faultsEnd = settings.duration.secondsValue
                let end = faultsEnd + settings.settle.secondsValue
                while true {
                    let now = monitor.elapsed() - began
                    if now >= end || monitor.botStopped { break }
                    for (_, command) in schedule.due(after: last, upTo: min(now, faultsEnd)) {
                        if case .freshRestart = command {
                            await waitForJournal(
                                simulator, journal: journal, clientID: settings.clientID, limit: settings.freshRestartWait,
                                venue: venue)
                            monitor.freshRestart()
                        }
                        await simulator.apply(command)
                        faults[name(of: command), default: 0] += 1
                    }
                    last = min(now, faultsEnd)
                    await simulator.advance(by: .seconds(5))
                    replayed += 5
                    if settings.skipNights, let open = SoakData.nextOpen(after: await simulator.now()),
                        case let gap = (open - TimeSpan.seconds(300)) - (await simulator.now()), gap > .zero
                    {
                        // The close: on to five minutes before the next open in one step (the data has no bars until
                        // then), where the gateway makes its nightly restart and the bot reconnects before the bell.
                        await simulator.advance(by: gap)
                        await simulator.apply(.restart(seconds: 1))
                        faults["nightlyRestart", default: 0] += 1
                        report.nights += 1
                    }
                    if let due = nextProgress, wall.now >= due, let progress {
                        nextProgress = due + (settings.progressEvery ?? .seconds(60))
                        let record = monitor.record
                        progress(String(
                            format: "%.0f s: %d bot runs, %d reconnects, %d faults, %d mismatch ALERTs", now,
                            record.runs, record.reconnects, faults.values.reduce(0, +), record.tracker.alerts))
                    }
                    try await venue.sleep(for: settings.pace)
                }
                monitor.finish()
                let stopping = monitor.elapsed()
                // The supervisor returns once the last run stopped; then the sampler and the simulator are ended.
                await venue.wait(upTo: .seconds(60), until: { monitor.botStopped })
                report.stopSeconds = monitor.elapsed() - stopping
                group.cancelAll()
                if let failure = monitor.failure { throw SoakError.botDidNotStart(failure) }
            }
            let record = monitor.record
            report.simulatedSeconds = monitor.elapsed()
            report.replaySeconds = replayed
            report.faults = faults
            report.botRuns = record.runs
            report.reconnects = record.reconnects
            report.samples = record.samples
            report.criticalAlerts = record.alerts
            report.gapAlerts = monitor.gapAlerts
            report.mistakenPositions = monitor.shorts
            (report.deadFeeds, report.feedsRecovered) = monitor.feeds
            (report.operatorTextLeaks, report.operatorTextScanned) = monitor.swiftText
            report.interval = settings.positionCheckInterval.secondsValue
            report.mismatches = record.tracker.figures(
                interval: report.interval, brief: settings.briefDifference, now: monitor.elapsed())
            report.finalEnginePositions = record.summaries.last?.enginePositions.mapValues(\.doubleValue) ?? [:]
            report.loopJobs = venue.loop.jobsRun
            report.outsideWaits = venue.loop.outsideWaits.count
            return (report, await simulator.state())
        }

        var finished = report
        ledger.absorb(final)
        finished.wallSeconds = (wall.now - began).secondsValue
        let figures = ledger.value
        finished.gatewayProcesses = figures.processes
        finished.orders = figures.allSubmissions.values.reduce(0, +)
        finished.executions = figures.allExecutions.count
        let journaled = Set(try journal.fills().map(\.execID))
        finished.journaledFills = journaled.count
        let (lost, phantom) = figures.compare(journaled: journaled)
        finished.lostFills = lost.map { "\($0.executionID) \($0.side) \($0.shares) \($0.symbol) (\($0.orderRef))" }
        finished.phantomFills = phantom
        finished.unreportedExecutions = figures.unreportedExecutions.subtracting(journaled).count
        finished.duplicateOrders = figures.duplicateOrders
        finished.modifications = figures.allModifications
        let twins = figures.allTwins
        finished.twinOrders = twins.count
        finished.twinsFilled = twins.filter { $0.filled > 0 }.count
        let twinAlerts = try journal.events(kind: .error).map(\.message)
            .filter { $0.contains("live twice at the broker") }
        finished.twinsCaught = twins.filter { twin in twinAlerts.contains { $0.contains("permId \(twin.permID) ") } }.count
        finished.killSwitchClaims = try journal.events(kind: .riskDenial)
            .filter { $0.message.contains("kill switch engaged") }.count
        finished.finalDifference = difference(engine: finished.finalEnginePositions, broker: brokerPositions(final))
        // The journal's events are operator text too (`ibtrader journal`, the daily report).
        for event in try journal.events() where finished.operatorTextLeaks.count < 20 {
            finished.operatorTextScanned += 1
            if let marker = OperatorText.leak(in: event.message) {
                finished.operatorTextLeaks.append("\(marker) in the journal's \(event.kind.rawValue) event: \(event.message)")
            }
        }
        return finished
    }

    /// The bot's configuration: the simulator on loopback, the journal, short reconnect delays and heartbeat, and the
    /// position check at the soak's interval, pausing entries on a difference.
    static func botConfiguration(
        _ settings: SoakSettings, venue: VirtualVenue, journal: OrderJournal, monitor: SoakMonitor
    ) -> LiveRunnerConfiguration {
        let connection = venue.connection(clientID: settings.clientID)
        var configuration = LiveRunnerConfiguration(
            connection: connection, symbols: (0..<max(1, settings.symbols)).map { Symbol("SOAK\($0)") },
            engine: EngineConfig(initialCash: Money(approximately: 1_000_000)))
        configuration.journal = journal
        // One bot on a dedicated account, whose operator restarts it after a mismatch to take the broker's word: a
        // gateway that lost its state leaves positions the bot's journal cannot prove are its own.
        configuration.session.adoptExternalPositions = true
        configuration.session.warmupDuration = "600 S"
        configuration.session.summaryInterval = .seconds(3600)
        configuration.session.reconnectDelay = .milliseconds(50)
        configuration.session.maxReconnectDelay = .seconds(1)
        configuration.session.gatewayWait = .seconds(60)
        configuration.session.resilience.resetSchedule = nil
        // A hung gateway is given up after 2 s of silence and 2 s without an answer.
        configuration.session.resilience.heartbeat = Heartbeat(interval: .seconds(2), timeout: .seconds(2))
        configuration.session.positionCheck = PositionCheckSettings(
            interval: TimeSpan(settings.positionCheckInterval), confirmAfter: TimeSpan(settings.confirmAfter),
            pausesEntries: true)
        configuration.observer = { monitor.milestone($0) }
        configuration.connectivityObserver = { monitor.connectivity($0) }
        // A bar every 100 ms of the bot's clock (the soak's pace): 3 s without one is a dead feed.
        configuration.session.resilience.deadFeedAfter = .seconds(3)
        return configuration
    }

    /// Runs the bot until the soak is over, starting it again whenever a run ends (the operator's restart).
    static func superviseBot(
        configuration: LiveRunnerConfiguration, strategy: SoakTrader, logger: Logger, monitor: SoakMonitor,
        venue: VirtualVenue
    ) async {
        var failures = 0
        while !monitor.isFinished {
            let link = OperatorLink()
            link.forwardAlerts { monitor.scanOperatorText($0.text) }
            var run = configuration
            run.operatorLink = link
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            monitor.began(link: link, stopper: stopper)
            do {
                let summary = try await LiveRunner.run(strategy: strategy, configuration: run, logger: logger, stop: stop)
                monitor.ended(summary)
                failures = 0
            } catch {
                failures += 1
                logger.error("soak: the bot's run failed: \(error)")
                guard failures < 5 else {
                    monitor.stoppedRunning(failure: "\(error)")
                    return
                }
                try? await venue.sleep(for: .milliseconds(200))
            }
        }
        monitor.stoppedRunning(failure: nil)
    }

    /// Every 100 ms: the engine's positions (the run's last snapshot) against the simulator's, from the end of a
    /// run's start-up on (reconnects included: the books can differ while the bot is cut off).
    static func sample(_ simulator: GatewaySimulator, monitor: SoakMonitor, venue: VirtualVenue) async {
        while !Task.isCancelled {
            try? await venue.sleep(for: .milliseconds(100))
            let state = await simulator.state()
            // The soak's strategy is long only: a short at the broker is a position opened by mistake.
            for (id, holding) in state.account.holdings where holding.quantity < .zero {
                monitor.short(state.data.instrument(id).symbol, holding.quantity.doubleValue, at: state.now)
            }
            guard let status = monitor.readyLink?.status else { continue }
            var engine: [Symbol: Double] = [:]
            for position in status.positions where position.quantity != 0 { engine[Symbol(position.symbol)] = position.quantity }
            let broker = brokerPositions(state)
            monitor.observe(difference: difference(engine: engine, broker: broker))
        }
    }

    /// The simulator's positions by symbol (flat ones left out), as TWS could know them: during a loss of
    /// connectivity (1100) the executions made since are IB's, not yet TWS's, so no client could see them.
    static func brokerPositions(_ state: GatewayState) -> [Symbol: Double] {
        var positions: [Symbol: Double] = [:]
        for (id, holding) in state.account.holdings where holding.quantity != .zero {
            positions[Symbol(state.data.instrument(id).symbol)] = holding.quantity.doubleValue
        }
        for record in state.executionsDuringOutage {
            let shares = record.execution.shares.map { NSDecimalNumber(decimal: $0).doubleValue } ?? 0
            let symbol = Symbol(record.contract.symbol)
            positions[symbol, default: 0] -= record.execution.side == "BOT" ? shares : -shares
            if positions[symbol] == 0 { positions[symbol] = nil }
        }
        return positions
    }

    /// "SOAK0 300 here, 0 at the broker; …", or `nil` when the books agree.
    static func difference(engine: [Symbol: Double], broker: [Symbol: Double]) -> String? {
        let symbols = Set(engine.keys).union(broker.keys).filter { (engine[$0] ?? 0) != (broker[$0] ?? 0) }
        guard !symbols.isEmpty else { return nil }
        return symbols.sorted().map { "\($0) \(engine[$0] ?? 0) here, \(broker[$0] ?? 0) at the broker" }
            .joined(separator: "; ")
    }

    /// Before the gateway loses its state: until the journal holds every execution the gateway made for the bot
    /// (bounded).
    static func waitForJournal(
        _ simulator: GatewaySimulator, journal: OrderJournal, clientID: Int, limit: Duration, venue: VirtualVenue
    ) async {
        await venue.wait(upTo: limit, step: .milliseconds(50)) {
            let made = Set(await simulator.state().executionLog.filter { $0.clientID == clientID }.map(\.execution.executionID))
            let journaled = Set((try? journal.fills().map(\.execID)) ?? [])
            return made.isSubset(of: journaled)
        }
    }

    /// A fault's command word (`partialFill`, `freshRestart`, …).
    public static func name(of command: FaultCommand) -> String {
        String("\(command)".prefix { $0 != "(" })
    }
}

/// The ledger, shared with the simulator's retirement hook.
final class LedgerBox: Sendable {
    private let ledger: Mutex<SoakLedger>
    init(_ ledger: SoakLedger) { self.ledger = Mutex(ledger) }
    func absorb(_ state: GatewayState) { ledger.withLock { $0.absorb(state) } }
    var value: SoakLedger { ledger.withLock { $0 } }
}
