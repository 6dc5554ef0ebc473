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
    /// orderRef namespace.
    public var reference = OrderReference()
    /// Told of milestones (subscribed, reconnected), e.g. for a status display or a test.
    public var observer: (@Sendable (LiveRunnerMilestone) -> Void)?

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
    /// Why the run ended.
    public var stopReason: String
}

/// The engine driven by TWS: the same `EngineCore` as a backtest, with wall-clock data from real-time bars and
/// orders through `IBBroker`.
///
/// Start-up: connect → pick the account (a live account only when confirmed) → qualify the contracts → load the
/// broker's executions, open orders and positions into the journal → warm up the strategy on historical bars
/// (kill switch engaged, so nothing is sent) → subscribe 5-second bars → one ordered event loop: bars and broker
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
        let (inputs, input) = AsyncStream.makeStream(of: RunnerInput.self)
        let stopFlag = StopFlag()
        return try await withThrowingTaskGroup(of: Void.self, returning: LiveRunSummary.self) { group in
            let first = TWSConnection(configuration: configuration.connection)
            group.addTask { try? await first.run() }
            var session: Session<S>
            let brokerEvents: AsyncStream<IBBrokerEvent>
            do {
                let info = try await first.waitUntilReady()
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
                brokerEvents = try await session.start(first)
            } catch {
                await first.disconnect()
                group.cancelAll()
                throw error
            }
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
            if let stop {
                group.addTask {
                    for await reason in stop {
                        stopFlag.set(reason)
                        input.yield(.stop(reason))
                        break
                    }
                }
            }
            var connection: TWSConnection? = first
            var generation = 0
            var reason = ""
            var resync = false
            while let current = connection {
                let outcome = try await session.runConnected(
                    current, generation: generation, resynchronize: resync, inputs: inputs, input: input,
                    group: &group)
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
                        logger.warning("connection lost (\(why)); reconnecting in \(delay)")
                        try await stopFlag.sleep(for: delay)
                        if stopFlag.isSet { break }
                        let candidate = TWSConnection(configuration: configuration.connection)
                        group.addTask { try? await candidate.run() }
                        do {
                            _ = try await candidate.waitUntilReady()
                            connection = candidate
                        } catch {
                            logger.warning("reconnect failed: \(error)")
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
                await session.drain(inputs, broker: broker)
            }
            let summary = await session.finish(connection, reason: reason)
            if let connection { await connection.disconnect() }
            input.finish()
            group.cancelAll()
            return summary
        }
    }
}

/// A stop request seen outside the event loop (while reconnecting).
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    var isSet: Bool { lock.withLock { value != nil } }
    var reason: String? { lock.withLock { value } }
    func set(_ reason: String) { lock.withLock { if value == nil { value = reason } } }
    /// Sleeps `span` in small steps, returning early once set.
    func sleep(for span: Duration) async throws {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: span)
        while clock.now < end, !isSet {
            try await Task.sleep(for: min(.milliseconds(100), end - clock.now))
        }
    }
}

/// How a connected stretch of the run ended.
enum ConnectedOutcome {
    case stopped(String)
    case lost(String)
    case resubscribe
    case feedFailed(String)
}

/// The time the runner stamps: the latest bar time (data time, which is wall time against a real gateway and
/// replay time against the simulator).
final class RunnerTime: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Timestamp
    init(_ start: Timestamp) { value = start }
    func now() -> Timestamp { lock.withLock { value } }
    func advance(to time: Timestamp) { lock.withLock { if time > value { value = time } } }
    func set(_ time: Timestamp) { lock.withLock { value = time } }
}

/// The inputs of the event loop, in arrival order.
enum RunnerInput: Sendable {
    case broker(IBBrokerEvent)
    case market(IBMarketDataEvent)
    case tick
    case stop(String)
    /// The connection of that generation ended.
    case ended(Int, String)
    /// The drain period after stop is over.
    case drained
    /// A market data feed (connection generation, feed number) ended.
    case feedEnded(Int, Int, String)
    /// A connection state change (1100 lost, 1101/1102 restored, …) of that generation.
    case connectivity(Int, TWSConnectionState)
}

/// The engine, the broker and the journal across connections.
struct Session<S: Strategy> {
    let configuration: LiveRunnerConfiguration
    let account: String
    let logger: Logger
    let universe: Universe
    let ids: [InstrumentID]
    let time = RunnerTime(Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9)))
    var engine: EngineCore<S>
    var book: ContractBook
    var broker: IBBroker?
    var commands = 0
    var fills = 0
    var bars = 0
    var warmupBars = 0
    var denialsLogged = 0
    var denialsAtStart = 0
    var reconnects = 0
    var resubscriptions = 0
    var lastBarTime: [Timestamp]
    var lastClosed = Timestamp.zero

    init(strategy: S, configuration: LiveRunnerConfiguration, account: String, logger: Logger) {
        self.configuration = configuration
        self.account = account
        self.logger = logger
        universe = Universe(symbols: configuration.symbols)
        ids = (0..<universe.count).map { InstrumentID(index: $0) }
        engine = EngineCore(universe: universe, strategy: strategy, config: configuration.engine)
        book = ContractBook(universe: universe)
        lastBarTime = Array(repeating: .zero, count: universe.count)
    }

    /// First connection: qualify, create the broker, journal the broker's state, warm up.
    mutating func start(_ connection: TWSConnection) async throws -> AsyncStream<IBBrokerEvent> {
        for id in ids {
            let contract = try book.contract(for: id)
            let details: [TWSContractDetails]
            do { details = try await connection.contractDetails(contract) } catch {
                throw LiveRunnerError.startup("contract details of \(universe[id].symbol): \(error)")
            }
            guard let first = details.first else { throw LiveRunnerError.contractNotFound(universe[id].symbol) }
            book.qualify(id, as: first.contract)
        }
        logger.info("qualified \(ids.count) contracts: \(configuration.symbols.map(\.rawValue).joined(separator: ","))")
        if let type = configuration.marketDataType {
            try await connection.setMarketDataType(type)
        }
        let time = self.time
        let journalAdapter = configuration.journal.map {
            OrderJournalIntents(journal: $0, universe: universe, clock: { time.now() })
        }
        let broker = IBBroker(
            connection: connection, contracts: book,
            configuration: IBBrokerConfiguration(
                orderOptions: WireOrderOptions(
                    account: account, outsideRegularTradingHours: configuration.outsideRegularTradingHours,
                    reference: configuration.reference),
                commissionWait: configuration.commissionWait, journal: journalAdapter),
            clock: { time.now() })
        self.broker = broker
        let events = await broker.start()
        // Reconcile: what the broker holds before anything is sent.
        let (snapshot, unmapped) = try await broker.brokerSnapshot()
        for problem in unmapped { logger.warning("unmapped broker item: \(problem)") }
        reconcileJournal(snapshot)
        let recorded = record(snapshot, at: time.now())
        let state =
            "broker state: \(snapshot.openOrders.count) open orders, \(snapshot.executions.count) executions "
            + "(\(recorded) new in the journal), \(snapshot.positions.count) positions"
        logger.info("\(state)")
        for (id, quantity) in snapshot.positions where quantity != .zero && id.index < universe.count {
            logger.warning(
                "the broker holds \(quantity) \(universe[id].symbol) the engine does not know (not adopted yet)")
        }
        for order in snapshot.openOrders where configuration.reference.isOurs(order.orderRef) {
            logger.warning("open order \(order.orderRef) (id \(order.brokerOrderID)) from an earlier run is left as is")
        }
        try await warmUp(connection)
        return events
    }

    /// One connection's stretch: pump the broker, subscribe bars, run the loop until stopped or lost.
    mutating func runConnected(
        _ connection: TWSConnection, generation: Int, resynchronize: Bool, inputs: AsyncStream<RunnerInput>,
        input: AsyncStream<RunnerInput>.Continuation, group: inout ThrowingTaskGroup<Void, any Error>
    ) async throws -> ConnectedOutcome {
        guard let broker else { return .stopped("no broker") }
        if resynchronize { await broker.attach(connection) }
        group.addTask {
            do { try await broker.run() } catch {}
            input.yield(.ended(generation, "order events ended"))
        }
        if resynchronize {
            do {
                let missed = try await broker.resynchronize()
                let added = record(try await broker.brokerSnapshot().0, at: time.now())
                logger.notice("resynchronized after reconnect: \(missed) missed executions applied, \(added) journaled")
            } catch {
                logger.error("resynchronization failed: \(error)")
            }
        }
        let states = await connection.stateChanges()
        group.addTask {
            for await state in states { input.yield(.connectivity(generation, state)) }
        }
        var feedNumber = 0
        while true {
            // Each feed runs until its subscriptions end or its `retire` stream finishes (resubscription).
            let feed = IBMarketDataFeed(
                connection: connection, contracts: book,
                subscription: RealTimeBarSubscription(
                    instruments: ids, whatToShow: configuration.whatToShow,
                    useRegularTradingHours: !configuration.outsideRegularTradingHours))
            let marketEvents = await feed.start()
            let (retire, retirement) = AsyncStream.makeStream(of: Void.self)
            let number = feedNumber
            group.addTask {
                await withTaskGroup(of: Void.self) { inner in
                    inner.addTask {
                        do { try await feed.run() } catch {
                            input.yield(.feedEnded(generation, number, "market data ended: \(error)"))
                        }
                    }
                    inner.addTask { for await _ in retire {} }
                    await inner.next()
                    inner.cancelAll()
                }
            }
            group.addTask {
                for await event in marketEvents { input.yield(.market(event)) }
            }
            logger.info("subscribed to 5-second bars; running")
            configuration.observer?(.subscribed(generation: generation, feed: number))
            let outcome = try await loop(inputs, broker: broker, generation: generation, feed: number)
            retirement.finish()
            if case .feedFailed(let reason) = outcome {
                // With the socket still up the subscription itself failed (e.g. 354/10089 no market data
                // permission): reconnecting would not help.
                if await connection.session != nil {
                    logger.critical("market data failed with the connection up: \(reason)")
                    return .stopped("market data failed: \(reason)")
                }
                logger.error("market data lost: \(reason)")
                return .lost(reason)
            }
            guard case .resubscribe = outcome else { return outcome }
            feedNumber += 1
            resubscriptions += 1
        }
    }

    /// Stop, first half: kill switch (no new entries), cancel (or keep) open orders, re-read missed executions.
    mutating func beginStop(connected: Bool, reason: String) async {
        logger.notice("stopping: \(reason)")
        let exit = engine.handle(.killSwitch(engaged: true))
        guard let broker, connected else { return }
        if configuration.cancelOnExit {
            for command in exit { await carryOut(command, broker: broker) }
        } else {
            logger.notice("leaving \(exit.count) open orders working at the broker (orders.cancelOnExit: false)")
        }
        do { _ = try await broker.resynchronize() } catch { logger.warning("final resynchronization failed: \(error)") }
    }

    /// Stop, second half: journal the broker's executions and positions; the summary.
    mutating func finish(_ connection: TWSConnection?, reason: String) async -> LiveRunSummary {
        var brokerPositions: [Symbol: Quantity] = [:]
        if let broker, connection != nil {
            do {
                let final = try await broker.brokerSnapshot().0
                let added = record(final, at: time.now())
                for (id, quantity) in final.positions where id.index < universe.count {
                    brokerPositions[universe[id].symbol] = quantity
                }
                if let journal = configuration.journal {
                    try journal.recordPositions(
                        brokerPositions.map { JournalPosition(account: account, symbol: $0.key, quantity: $0.value) },
                        at: time.now())
                }
                logger.info("recorded \(added) more executions at stop")
            } catch {
                logger.error("final broker snapshot failed: \(error)")
            }
        } else {
            logger.error("stopping without a connection: open orders stay at the broker; executions not re-read")
        }
        if let journal = configuration.journal {
            do { try journal.recordEvent(.lifecycle, "stopped: \(reason)", at: time.now()) } catch {
                logger.error("journal: \(error)")
            }
        }
        logSummary()
        await broker?.finish()
        var enginePositions: [Symbol: Quantity] = [:]
        for id in ids where engine.portfolio.position(for: id).quantity != .zero {
            enginePositions[universe[id].symbol] = engine.portfolio.position(for: id).quantity
        }
        return LiveRunSummary(
            account: account, commands: commands, fills: fills,
            denials: engine.denials.count - denialsAtStart, bars: bars, warmupBars: warmupBars,
            brokerPositions: brokerPositions, enginePositions: enginePositions, reconnects: reconnects,
            resubscriptions: resubscriptions,
            stopReason: reason)
    }

    /// Feeds historical bars with the kill switch engaged: indicators warm up, nothing is sent.
    mutating func warmUp(_ connection: TWSConnection) async throws {
        guard !configuration.warmupDuration.isEmpty else { return }
        var all: [(Timestamp, InstrumentID, Bar)] = []
        for id in ids {
            var query = TWSHistoricalBarsQuery(
                contract: try book.contract(for: id), duration: configuration.warmupDuration,
                barSize: configuration.warmupBarSize)
            query.whatToShow = configuration.whatToShow
            let wire: [TWSBar]
            do { wire = try await connection.historicalBars(query) } catch {
                logger.warning("warm-up bars of \(universe[id].symbol): \(error)")
                continue
            }
            // The last bar contains "now" and is partial.
            for item in wire.dropLast() {
                do { let bar = try BarMapping.bar(item); all.append((bar.timestamp, id, bar)) } catch {
                    logger.warning("warm-up bar of \(universe[id].symbol) dropped: \(error)")
                }
            }
        }
        all.sort { $0.0 == $1.0 ? $0.1.index < $1.1.index : $0.0 < $1.0 }
        _ = engine.handle(.killSwitch(engaged: true))
        var k = 0
        while k < all.count {
            _ = engine.handle(.bar(all[k].1, all[k].2))
            k += 1
            if k == all.count || all[k].0 != all[k - 1].0 { _ = engine.handle(.barsClosed(all[k - 1].0)) }
        }
        _ = engine.handle(.killSwitch(engaged: false))
        warmupBars = all.count
        denialsAtStart = engine.denials.count
        denialsLogged = engine.denials.count
        for entry in all { lastBarTime[entry.1.index] = entry.0 }
        if let last = all.last?.0 {
            lastClosed = last
            time.set(last)  // data time from here on (the replay clock against the simulator)
        }
        logger.info("warmed up on \(all.count) historical bars (\(configuration.warmupBarSize), \(configuration.warmupDuration))")
    }

    /// The event loop: returns why it stopped.
    mutating func loop(_ inputs: AsyncStream<RunnerInput>, broker: IBBroker, generation: Int, feed: Int) async throws
        -> ConnectedOutcome
    {
        let clock = ContinuousClock()
        var nextSummary = clock.now.advanced(by: configuration.summaryInterval)
        for await item in inputs {
            switch item {
            case .broker(let event):
                await handleBroker(event, broker: broker)
            case .market(let event):
                switch event {
                case .engine:
                    guard let engineEvent = event.engineEvent else { break }
                    switch engineEvent {
                    case .bar(let id, let bar):
                        // Bars already seen (warm-up overlap, resubscription after a reconnect) are skipped.
                        if bar.timestamp <= lastBarTime[id.index] { continue }
                        lastBarTime[id.index] = bar.timestamp
                        bars += 1
                        time.advance(to: bar.timestamp)
                    case .barsClosed(let closed):
                        if closed <= lastClosed { continue }
                        lastClosed = closed
                    default: break
                    }
                    await handle(engineEvent, broker: broker)
                case .malformedBar(let id, let error):
                    logger.warning("malformed bar of \(universe[id].symbol) dropped: \(error)")
                case .notice(let id, let notice):
                    logger.notice("market data \(universe[id].symbol): \(notice.code) \(notice.message)")
                }
            case .tick:
                await broker.releaseOverdueCommissions()
                if clock.now >= nextSummary {
                    // Periodic reconciliation of fills: executions the events missed reach the journal (by execId).
                    do {
                        let added = record(try await broker.brokerSnapshot().0, at: time.now())
                        if added > 0 { logger.info("journaled \(added) executions from the broker's list") }
                    } catch { logger.warning("execution sync failed: \(error)") }
                    logSummary()
                    nextSummary = clock.now.advanced(by: configuration.summaryInterval)
                }
            case .stop(let reason):
                return .stopped(reason)
            case .drained:
                continue
            case .feedEnded(let ended, let number, let reason):
                guard ended == generation, number == feed else { continue }  // a retired feed
                return .feedFailed(reason)
            case .connectivity(let ended, let state):
                guard ended == generation else { continue }
                switch state {
                case .lost:
                    logger.warning("TWS lost its connection to IB (1100); waiting for it to come back")
                case .restored(dataLost: true):
                    logger.warning("TWS reconnected to IB with market data lost (1101): resubscribing")
                    return .resubscribe
                case .restored(dataLost: false):
                    logger.notice("TWS reconnected to IB, data maintained (1102)")
                default:
                    continue
                }
            case .ended(let ended, let reason):
                guard ended == generation else { continue }  // a previous connection's late notice
                logger.error("connection lost: \(reason)")
                return .lost(reason)
            }
        }
        return .stopped("inputs ended")
    }

    /// A broker event: reports into the journal and the engine, the rest logged.
    mutating func handleBroker(_ event: IBBrokerEvent, broker: IBBroker) async {
        switch event {
        case .report(let report):
            await journalReport(report, broker: broker)
            if case .filled(let fill) = report {
                fills += 1
                logger.info(
                    "fill: \(fill.side) \(fill.quantity) \(universe[fill.instrument].symbol) @ \(fill.price), commission \(fill.commission) (order \(fill.orderID))")
            } else {
                logger.info("order \(report.orderID): \(report)")
            }
            await handle(.execution(report), broker: broker)
        case .lateCommission(let late):
            logger.info("late commission \(late.commission) for \(late.executionID)")
            if let journal = configuration.journal {
                _ = try? journal.recordCommission(
                    JournalCommission(execID: late.executionID, commission: late.commission, time: time.now()))
            }
        case .unknownExecution(let execution):
            logger.warning("execution of an order this run did not place: \(execution.executionID) \(execution.orderRef)")
        case .anomaly(let text):
            logger.warning("broker anomaly: \(text)")
        }
    }

    /// After stop: applies the broker's answers (fills of orders in flight, cancellations, executions missed) until
    /// `.drained`, so the engine's positions end equal to the broker's.
    mutating func drain(_ inputs: AsyncStream<RunnerInput>, broker: IBBroker) async {
        for await item in inputs {
            switch item {
            case .broker(let event): await handleBroker(event, broker: broker)
            case .drained: return
            default: continue
            }
        }
    }

    /// One engine event, then its commands, then any new risk denials logged.
    mutating func handle(_ event: EngineEvent, broker: IBBroker) async {
        let out = engine.handle(event)
        for command in out { await carryOut(command, broker: broker) }
        let denials = engine.denials
        while denialsLogged < denials.count {
            let record = denials[denialsLogged]
            logger.warning("risk denial: order \(record.orderID) \(universe[record.instrument].symbol): \(record.denial)")
            if let journal = configuration.journal {
                try? journal.recordEvent(.riskDenial, "\(record.orderID): \(record.denial)", at: record.time)
            }
            denialsLogged += 1
        }
    }

    mutating func carryOut(_ command: EngineCommand, broker: IBBroker) async {
        commands += 1
        switch command {
        case .submit(let order):
            logger.info("submit \(order.side) \(order.quantity) \(universe[order.instrument].symbol) \(order.type) (\(order.clientOrderID))")
        case .submitBracket(let parent, let children):
            logger.info("submit bracket \(parent.side) \(parent.quantity) \(universe[parent.instrument].symbol) with \(children.count) children")
        case .cancel(let id):
            logger.info("cancel order \(id)")
        case .modify(let id, let change, _):
            logger.info("modify order \(id): \(change)")
        }
        do { try await broker.execute(command) } catch { logger.error("command failed: \(error)") }
    }

    /// Status changes into the journal (fills come from the broker's executions, keyed by execId).
    func journalReport(_ report: ExecutionReport, broker: IBBroker) async {
        guard let journal = configuration.journal,
            let tracked = await broker.trackedOrders[report.orderID]
        else { return }
        var update = JournalStatusUpdate(orderRef: ClientOrderID(tracked.orderRef), state: tracked.state, time: time.now())
        update.brokerOrderID = Int64(tracked.brokerOrderID)
        do { try journal.recordStatus(update) } catch { logger.error("journal: \(error)") }
    }

    /// The broker's executions (deduplicated by execId) and commissions into the journal; returns how many were new.
    func record(_ snapshot: BrokerSnapshot, at now: Timestamp) -> Int {
        guard let journal = configuration.journal else { return 0 }
        var added = 0
        for execution in snapshot.executions {
            let symbol = execution.instrument.index < universe.count ? universe[execution.instrument].symbol : "?"
            var fill = JournalFill(
                execID: execution.executionID, symbol: symbol, side: execution.side, quantity: execution.quantity,
                price: execution.price, time: execution.time)
            fill.orderRef = execution.orderRef.isEmpty ? nil : ClientOrderID(execution.orderRef)
            fill.brokerOrderID = Int64(execution.brokerOrderID)
            fill.permID = execution.permID
            fill.account = execution.account
            fill.commission = snapshot.commissions[execution.executionID]
            do {
                // recordFill joins commissions recorded earlier; a known one is recorded (joined) after it.
                if case .recorded = try journal.recordFill(fill) { added += 1 }
                if let commission = fill.commission {
                    _ = try journal.recordCommission(
                        JournalCommission(execID: execution.executionID, commission: commission, time: now))
                }
            } catch { logger.error("journal: \(error)") }
        }
        return added
    }

    func logSummary() {
        let account = engine.account
        var held: [String] = []
        for k in 0..<universe.count {
            let position = engine.portfolio.position(for: InstrumentID(index: k))
            if position.quantity != .zero { held.append("\(universe[InstrumentID(index: k)].symbol) \(position.quantity)") }
        }
        let text =
            "portfolio: equity \(account.equity), cash \(account.cash), exposure \(account.grossExposure), "
            + "positions [\(held.joined(separator: ", "))], bars \(bars), fills \(fills), commands \(commands)"
        logger.info("\(text)")
    }
}
