import Foundation
import Logging
import Storage
import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

/// Everything `LiveRunner` needs to know about one run.
public struct LiveRunnerConfiguration: Sendable {
    /// Where TWS / the gateway listens, and the client id.
    public var connection: TWSConnectionConfiguration
    /// The account to trade (default: the first managed account).
    public var account: String?
    /// A live (non-`DU…`) account is traded only when this names it (`--confirm-live` or `--live` + confirmation).
    public var confirmedLiveAccount: String?
    /// The universe, in instrument order.
    public var symbols: [Symbol]
    /// Cash, settlement and risk rules of the engine.
    public var engine: EngineConfig
    /// Warm-up bar size (historicalBars); should match the live 5-second bars.
    public var warmupBarSize: String = "5 secs"
    /// Warm-up duration (historicalBars); empty for none.
    public var warmupDuration: String = "3600 S"
    /// What the bars show (`TRADES`, `MIDPOINT`, …).
    public var whatToShow: String = "TRADES"
    /// Market data type requested after connecting (`nil`: leave TWS's default).
    public var marketDataType: TWSMarketDataType?
    /// Orders may fill outside regular trading hours.
    public var outsideRegularTradingHours = false
    /// At exit, cancel the open orders (`true`) or leave them working at the broker.
    public var cancelOnExit = true
    /// The order-efficiency limit on new entries (`nil`: counted and logged only).
    public var orderEfficiency: OrderEfficiencyLimit?
    /// How long a fill waits for its commission report.
    public var commissionWait: TimeSpan? = .seconds(5)
    /// Interval of the portfolio summary in the log.
    public var summaryInterval: Duration = .seconds(30)
    /// A timeout for orders the strategy sends without one (`orders.timeout`; applied by `run(spec:)`).
    public var orderTimeout: TimeSpan?
    /// Bound on the run (`nil`: until stopped).
    public var duration: Duration?
    /// How long, after stop, the broker's answers (fills in flight, cancellations) are still applied to the engine.
    public var stopDrain: Duration = .milliseconds(500)
    /// Reconnect after a lost connection (`false`: stop instead).
    public var reconnect = true
    /// The first reconnect delay; doubles per failed attempt.
    public var reconnectDelay: Duration = .seconds(1)
    /// The longest reconnect delay (attempts go on forever).
    public var maxReconnectDelay: Duration = .seconds(60)
    /// The order journal (`nil`: none; intents are then not durable).
    public var journal: OrderJournal?
    /// orderRef namespace. The default (`IBT:`) means: a run namespace allocated at start — `IBT:R<run>:` with a
    /// journal (`OrderJournal.beginRun`), else `IBT:T<epoch ms>-<pid>:`; any other prefix is used as given.
    public var reference = OrderReference()
    /// At start, which intents journaled but never sent by an earlier run are still sent (else abandoned).
    public var resendPolicy = ResendPolicy()
    /// At start, what to do with orders of ours open at the broker that no journal intent knows.
    public var unknownOrders = UnknownOrderPolicy.adopt
    /// Test only: where the process exits abruptly (`IBTRADER_CRASH_AT`, see `CrashPoint`).
    public var crashPoint: CrashPoint?
    /// Told of milestones (subscribed, reconnected), e.g. for a status display or a test.
    public var observer: (@Sendable (LiveRunnerMilestone) -> Void)?
    /// Outage handling: 1100 grace period, IB's reset window, bar back-fill, delayed data (`Connectivity/`).
    public var resilience = ResilienceSettings()
    /// Quotes (reqMktData) beside the bars: `auto` as the strategy asks (`Strategy.usesQuotes`), `on`, `off`.
    public var quotes = QuoteSubscriptionMode.auto
    /// Told of every engine event the run handles (warm-up bars included), after its commands went to the broker,
    /// with the engine's open order count; for the backtest parity test and the latency benchmark (`nil`: no cost).
    public var engineEventObserver: (@Sendable (EngineEvent, _ openOrders: Int) -> Void)?
    /// Run the session on one dedicated thread (`TWSSessionThread`): socket, connection, runner and broker share
    /// one NIO event loop, so the tick-to-order path has no cross-thread wake-ups. `false`: the shared pools (kept
    /// for the latency benchmark's comparison).
    public var usesSessionThread = true
    /// Busy-poll the session thread (`TWSBusyPollThread`): it never sleeps, reads the socket without waiting for a
    /// wake-up and writes orders with `send(2)` from the same thread; one CPU runs at 100 % for the whole run
    /// (`latency.busyPoll`, opt-in; docs/latency.md). Needs `usesSessionThread`.
    public var busyPolls = false
    /// With `busyPolls`: pin the busy thread to this CPU (Linux; `latency.busyPollCPU`).
    public var busyPollCPU: Int?
    /// With `busyPolls` and a strategy that is `Strategy.isRehearsable`: after this long without input, the busy
    /// thread runs the last bar through a copy of the engine and encodes the orders it would make, discarding them,
    /// so the bar → order path stays in the CPU's caches (`latency.keepWarm`: 1 ms; `nil`: off; docs/latency.md).
    public var keepWarmInterval: Duration?
    /// Handle a bar on arrival, on the connection's actor, when the event loop waits with nothing queued: the
    /// engine's orders are journaled and written to the socket within the bar's own routing, with no task wake-up
    /// or actor hop in between (`LiveBarPath`). `false`: every bar travels through the loop's input stream (kept
    /// for the latency benchmark's comparison). A configured `after-submit` crash point turns it off (that hook waits).
    public var handlesBarsOnArrival = true

    /// Creates a configuration.
    public init(connection: TWSConnectionConfiguration, symbols: [Symbol], engine: EngineConfig = EngineConfig()) {
        self.connection = connection
        self.symbols = symbols
        self.engine = engine
    }
}

/// Why a run could not start or went on no longer.
public enum LiveRunnerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A live account without confirmation.
    case liveAccountNotConfirmed(account: String)
    /// The configured account is not one this login manages.
    case accountNotManaged(account: String, managed: [String])
    /// A symbol TWS does not know.
    case contractNotFound(Symbol)
    /// A request failed at start-up.
    case startup(String)

    public var description: String {
        switch self {
        case .liveAccountNotConfirmed(let account):
            "refusing to trade live account \(account): it is not a paper (DU…) account. Pass --live and confirm, "
                + "or --confirm-live \(account) for unattended use"
        case .accountNotManaged(let account, let managed):
            "account \(account) is not managed by this login (managed: \(managed.joined(separator: ", ")))"
        case .contractNotFound(let symbol): "TWS knows no contract for \(symbol)"
        case .startup(let text): text
        }
    }
}

/// Milestones of a run, for `LiveRunnerConfiguration.observer`.
public enum LiveRunnerMilestone: Sendable, Equatable {
    /// 5-second bars subscribed (feed 0 after connecting, higher after a 1101 resubscription).
    case subscribed(generation: Int, feed: Int)
    /// The connection was re-established (generation 1 is the first reconnect).
    case reconnected(generation: Int)
}

/// What a run did.
public struct LiveRunSummary: Sendable {
    /// The account traded.
    public var account: String
    /// Commands carried out (submits, brackets, cancels, modifies).
    public var commands: Int
    /// Fills the engine received.
    public var fills: Int
    /// Risk denials after warm-up.
    public var denials: Int
    /// Live bars the engine received.
    public var bars: Int
    /// Of those, bars handled on arrival by the synchronous bar path (the rest went through the loop's queue).
    public var barsOnArrival = 0
    /// Rehearsals of the bar → order path run to keep it warm (`keepWarmInterval`).
    public var rehearsals = 0
    /// Inside the bot, per bar handled on arrival that sent orders: from the bar's bytes received to its order
    /// frame handed to the kernel (empty over a transport without stamps). "Received" is the kernel's receive time
    /// where the transport has it (busy-poll on Linux, `SO_TIMESTAMPNS`), else the bot's read.
    public var tickToOrder = TickToOrderLatency()
    /// The same bars from the bot's read of their bytes (without a wait in the socket's queue).
    public var readToOrder = TickToOrderLatency()
    /// The same bars from the kernel's receive time to the bot's read: the kernel's loopback or network receive
    /// path, then the time the bytes waited for the bot (empty without the kernel's time).
    public var socketWait = TickToOrderLatency()
    /// The same bars from the start of the bot's last read that found nothing to the return of the read that took
    /// them: the bytes became readable in between, so this bounds the bot's own share of `socketWait` (a polling
    /// transport's; empty otherwise), that read's system call included (one that returns data costs far more than
    /// one that finds nothing: copying, the receive-buffer work, often an ACK). The rest of `socketWait` is the
    /// kernel's.
    public var pollDelay = TickToOrderLatency()
    /// Warm-up bars.
    public var warmupBars: Int
    /// The broker's positions at the end, by symbol.
    public var brokerPositions: [Symbol: Quantity]
    /// The engine's positions at the end, by symbol.
    public var enginePositions: [Symbol: Quantity]
    /// Connections re-established.
    public var reconnects: Int
    /// Bar subscriptions made again after 1101 (market data lost).
    public var resubscriptions: Int
    /// Data farm outages (a farm reported broken: 2103, 2105, 2157).
    public var farmOutages = 0
    /// Why the run ended.
    public var stopReason: String
    /// The engine's realized-P&L total before commissions at the end, restored across restarts of the same run
    /// configuration (`LiveRunner+RealizedPnL.swift`).
    public var realizedPnL: Money = .zero
}

/// The engine driven by TWS: the same `EngineCore` as a backtest, with wall-clock data from real-time bars and
/// orders through `IBBroker`.
///
/// Start-up: connect → pick the account (a live account only when confirmed) → qualify the contracts → the
/// broker's open orders (all clients), completed orders, executions and positions → warm up the strategy on
/// historical bars (kill switch engaged, so nothing is sent) → reconcile with the journal and carry the plan out
/// (positions and open orders adopted, unsent intents sent once or abandoned) → subscribe 5-second bars → one ordered event loop: bars and broker
/// reports into the engine, its commands to the broker. Stop (duration, `stop` stream, connection lost): kill
/// switch (no new entries), cancel open orders if configured, record the broker's executions and positions,
/// disconnect.
public enum LiveRunner {
    /// Runs a built-in strategy.
    public static func run(
        spec: StrategySpec, configuration: LiveRunnerConfiguration, logger: Logger,
        stop: AsyncStream<String>? = nil
    ) async throws -> LiveRunSummary {
        if let timeout = configuration.orderTimeout {
            var inner = configuration
            inner.orderTimeout = nil
            switch spec {
            case .movingAverageCrossover(let c):
                return try await run(
                    strategy: OrderTimeoutDefault(MovingAverageCrossover(config: c), timeout: timeout),
                    configuration: inner, logger: logger, stop: stop)
            case .rsiMeanReversion(let c):
                return try await run(
                    strategy: OrderTimeoutDefault(RSIMeanReversion(config: c), timeout: timeout),
                    configuration: inner, logger: logger, stop: stop)
            case .bollingerMeanReversion(let c):
                return try await run(
                    strategy: OrderTimeoutDefault(BollingerMeanReversion(config: c), timeout: timeout),
                    configuration: inner, logger: logger, stop: stop)
            case .momentumRotation(let c):
                return try await run(
                    strategy: OrderTimeoutDefault(MomentumRotation(config: c), timeout: timeout),
                    configuration: inner, logger: logger, stop: stop)
            case .performanceAllocator(let c):
                return try await run(
                    strategy: OrderTimeoutDefault(PerformanceAllocator(config: c), timeout: timeout),
                    configuration: inner, logger: logger, stop: stop)
            }
        }
        switch spec {
        case .movingAverageCrossover(let c):
            return try await run(strategy: MovingAverageCrossover(config: c), configuration: configuration, logger: logger, stop: stop)
        case .rsiMeanReversion(let c):
            return try await run(strategy: RSIMeanReversion(config: c), configuration: configuration, logger: logger, stop: stop)
        case .bollingerMeanReversion(let c):
            return try await run(strategy: BollingerMeanReversion(config: c), configuration: configuration, logger: logger, stop: stop)
        case .momentumRotation(let c):
            return try await run(strategy: MomentumRotation(config: c), configuration: configuration, logger: logger, stop: stop)
        case .performanceAllocator(let c):
            return try await run(strategy: PerformanceAllocator(config: c), configuration: configuration, logger: logger, stop: stop)
        }
    }

    /// Checks the account rule: paper (`DU…`) accounts run; others only when confirmed by name.
    public static func checkAccount(
        managed: [String], configured: String?, confirmedLive: String?
    ) throws(LiveRunnerError) -> String {
        let account: String
        if let configured, !configured.isEmpty {
            guard managed.contains(configured) else { throw .accountNotManaged(account: configured, managed: managed) }
            account = configured
        } else {
            guard let first = managed.first else { throw .startup("TWS reported no managed account") }
            account = first
        }
        if !account.hasPrefix("DU"), confirmedLive != account { throw .liveAccountNotConfirmed(account: account) }
        return account
    }

    /// Runs a strategy until the duration ends or `stop` yields. A lost connection is re-established with capped
    /// exponential backoff (`reconnectDelay` doubling up to `maxReconnectDelay`), then the broker is re-attached and
    /// resynchronized (missed executions, open orders) and the bars resubscribed.
    public static func run<S: Strategy>(
        strategy: S, configuration: LiveRunnerConfiguration, logger: Logger, stop: AsyncStream<String>? = nil
    ) async throws -> LiveRunSummary {
        guard configuration.usesSessionThread else {
            return try await run(
                strategy: strategy, configuration: configuration, transport: TWSNIOTransport(), logger: logger,
                stop: stop)
        }
        if configuration.busyPolls {
            return try await TWSBusyPollThread.run(cpu: configuration.busyPollCPU) { thread in
                switch (thread.cpu, thread.pinned) {
                case (let cpu?, true?): logger.notice("session thread busy-polls on CPU \(cpu) (at 100 %)")
                case (let cpu?, _):
                    logger.warning("session thread busy-polls (one CPU at 100 %), but could not be pinned to CPU \(cpu)")
                default: logger.notice("session thread busy-polls (one CPU at 100 %)")
                }
                let cpus = ProcessInfo.processInfo.activeProcessorCount
                if cpus < 3 {
                    // Measured on 2 vCPUs (docs/latency.md): the median improves, the tail depends on the other side.
                    let text = "latency.busyPoll keeps one of this machine's \(cpus) CPUs busy: everything else, "
                        + "a local gateway included, shares the rest"
                    logger.warning("\(text)")
                }
                if configuration.keepWarmInterval != nil, !S.isRehearsable {
                    let why = "the strategy does not declare itself rehearsable (Strategy.isRehearsable)"
                    logger.warning("latency.keepWarm: \(why), so the path is not kept warm")
                }
                return try await run(
                    strategy: strategy, configuration: configuration, transport: thread.transport, logger: logger,
                    stop: stop, busyThread: thread)
            }
        }
        return try await TWSSessionThread.run { thread in
            try await run(
                strategy: strategy, configuration: configuration, transport: thread.transport, logger: logger,
                stop: stop)
        }
    }

    private static func run<S: Strategy>(
        strategy: S, configuration: LiveRunnerConfiguration, transport: any TWSTransport, logger: Logger,
        stop: AsyncStream<String>?, busyThread: TWSBusyPollThread? = nil
    ) async throws -> LiveRunSummary {
        let environment = TWSConnectionEnvironment(transport: transport)
        let input = RunnerInbox()
        let stopFlag = StopFlag()
        return try await withThrowingTaskGroup(of: Void.self, returning: LiveRunSummary.self) { group in
            if let stop {
                // Listened to from the start: a stop during the start-up (a warm-up waiting for pacing) ends it early.
                group.addTask {
                    for await reason in stop {
                        // A later request is a fast stop: it ends the drain at once (the journal is still written).
                        input.yield(stopFlag.isSet ? .drained : .stop(reason))
                        stopFlag.set(reason)
                    }
                }
            }
            var first = TWSConnection(configuration: configuration.connection, environment: environment)
            group.addTask { [first] in try? await first.run() }
            var session: Session<S>
            let brokerEvents: AsyncStream<IBBrokerEvent>
            do {
                // A 326 before the session is ready (the id's last session, e.g. the run this one restarts, not yet
                // closed at TWS) is retried on a fresh socket for `clientIDInUseRetry`; nothing was sent yet.
                var retry = TWSClientIDRetry(limit: configuration.connection.clientIDInUseRetry)
                var ready: TWSSessionInfo?
                while ready == nil {
                    do {
                        ready = try await first.waitUntilReady()
                    } catch TWSConnectionError.clientIDInUse(let clientID) {
                        guard let pause = retry.nextPause() else { throw TWSConnectionError.clientIDInUse(clientID: clientID) }
                        logger.notice("client id \(clientID) is in use (326); connecting again in \(pause)")
                        try await Task.sleep(for: pause)
                        first = TWSConnection(configuration: configuration.connection, environment: environment)
                        group.addTask { [first] in try? await first.run() }
                    }
                }
                guard let info = ready else { throw TWSConnectionError.closedByPeer(during: "connect") }
                logger.info(
                    "connected",
                    metadata: [
                        "host": "\(configuration.connection.host):\(configuration.connection.port)",
                        "clientId": "\(configuration.connection.clientID)", "serverVersion": "\(info.serverVersion)",
                        "accounts": "\(info.accounts.joined(separator: ","))",
                    ])
                let account = try checkAccount(
                    managed: info.accounts, configured: configuration.account,
                    confirmedLive: configuration.confirmedLiveAccount)
                logger.info("trading account \(account)\(account.hasPrefix("DU") ? " (paper)" : " (LIVE, confirmed)")")
                session = Session(
                    strategy: strategy, configuration: configuration, account: account, logger: logger)
                session.busyThread = busyThread
                session.stopFlag = stopFlag
                brokerEvents = try await session.start(first)
            } catch {
                await first.disconnect()
                group.cancelAll()
                throw error
            }
            let watchdog = LoopWatchdog.start(
                watching: session.activity, settings: configuration.resilience, logger: logger)
            defer { watchdog?.stop() }
            group.addTask {
                for await event in brokerEvents { input.yield(.broker(event)) }
            }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(1))
                    input.yield(.tick)
                }
            }
            if let duration = configuration.duration {
                group.addTask {
                    try await Task.sleep(for: duration)
                    stopFlag.set("duration \(duration) elapsed")
                    input.yield(.stop("duration \(duration) elapsed"))
                }
            }
            var connection: TWSConnection? = first
            var generation = 0
            var reason = ""
            var resync = false
            while let current = connection {
                let outcome = try await session.runConnected(
                    current, generation: generation, resynchronize: resync, input: input,
                    group: &group)
                session.activity.park()  // the watchdog waits for the next stretch's first input (LoopWatchdog)
                switch outcome {
                case .stopped(let why):
                    reason = why
                case .resubscribe, .feedFailed:
                    reason = "resubscribe"  // handled inside runConnected
                case .lost(let why):
                    await current.disconnect()
                    connection = nil
                    reason = why
                    guard configuration.reconnect else { break }
                    var delay = configuration.reconnectDelay
                    while connection == nil, !stopFlag.isSet {
                        session.reconnectAttempt(after: why, delay: delay)  // quiet in IB's reset window
                        try await stopFlag.sleep(for: delay)
                        if stopFlag.isSet { break }
                        let candidate = TWSConnection(
                            configuration: configuration.connection, environment: environment)
                        group.addTask { try? await candidate.run() }
                        do {
                            _ = try await candidate.waitUntilReady()
                            connection = candidate
                        } catch {
                            session.reconnectFailed(error)
                            await candidate.disconnect()
                            delay = min(delay * 2, configuration.maxReconnectDelay)
                        }
                    }
                    if connection != nil {
                        generation += 1
                        resync = true
                        session.reconnects += 1
                        logger.notice("reconnected (attempt succeeded after \(why))")
                        configuration.observer?(.reconnected(generation: generation))
                        continue
                    }
                    reason = stopFlag.reason ?? why
                }
                break
            }
            await session.beginStop(connected: connection != nil, reason: reason)
            if connection != nil, let broker = session.broker {
                let drain = configuration.stopDrain
                group.addTask {
                    try await Task.sleep(for: drain)
                    input.yield(.drained)
                }
                await session.drain(input, broker: broker)
            }
            let summary = await session.finish(connection, reason: reason)
            if let connection { await connection.disconnect() }
            input.finish()
            group.cancelAll()
            return summary
        }
    }
}
