import Foundation
import Logging
import Storage
import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

/// The engine, the broker and the journal across connections.
struct Session<S: Strategy> {
    let configuration: LiveRunnerConfiguration
    let account: String
    let logger: Logger
    let universe: Universe
    let ids: [InstrumentID]
    let time = RunnerTime(Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9)))
    /// When the loop last took an input from the connection (the heartbeat, LiveRunnerSession+Heartbeat.swift).
    let activity = InboundActivity()
    /// The execIds known to be journaled: the execution sync writes only new ones (`JournaledExecutions`).
    let journaledExecutions = JournaledExecutions()
    var engine: EngineCore<S>
    /// The latest bar time per instrument (bars already seen are skipped, LiveRunnerSession+Bars.swift).
    var lastBarTime: [Timestamp]
    /// The latest closed slice.
    var lastClosed = Timestamp.zero
    /// Live bars handled.
    var bars = 0
    /// Engine commands carried out.
    var commands = 0
    /// Risk denials logged so far (`engine.denials` grows; new ones are logged once).
    var denialsLogged = 0
    var book: ContractBook
    var broker: IBBroker?
    var fills = 0
    var quotes = 0  // quote events handled (LiveRunnerSession+Quotes.swift)
    var warmupBars = 0
    var denialsAtStart = 0
    var reconnects = 0
    var resubscriptions = 0
    /// 1100/1101/1102 debouncing, the reset window, the connectivity pause.
    var connectivity: ConnectivityMonitor
    /// The data farms' outages (LiveRunnerSession+Farms.swift).
    var farms: FarmMonitor
    /// Why new entries are paused now (empty: not paused).
    var entryPauses: Set<EntryPause> = []
    var resynchronizations = 0
    var backfilledBars = 0
    /// This run in the journal (its number names the orderRef namespace); `nil` without a journal.
    var run: JournalRun?
    /// The risk baseline and order-efficiency counts last journaled (LiveRunner+RiskRestore.swift).
    var journaledRisk: RiskBaseline?
    var journaledEfficiency: JournalOrderEfficiency?
    /// Set when a stop is asked for: the warm-up and back-fill requests end early (LiveRunnerSession+Fetch.swift).
    var stopFlag: StopFlag?

    init(strategy: S, configuration: LiveRunnerConfiguration, account: String, logger: Logger) {
        self.configuration = configuration
        self.account = account
        self.logger = logger
        universe = Universe(symbols: configuration.symbols)
        ids = (0..<universe.count).map { InstrumentID(index: $0) }
        engine = EngineCore(universe: universe, strategy: strategy, config: configuration.engine)
        lastBarTime = Array(repeating: .zero, count: universe.count)
        book = ContractBook(universe: universe)
        connectivity = ConnectivityMonitor(
            gracePeriod: configuration.resilience.gracePeriod, schedule: configuration.resilience.resetSchedule)
        farms = FarmMonitor(
            gracePeriod: configuration.resilience.gracePeriod, schedule: configuration.resilience.resetSchedule)
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
        let reference = try await allocateNamespace(connection)  // LiveRunner+Reconcile.swift
        let time = self.time
        let journalAdapter = configuration.journal.map {
            OrderJournalIntents(journal: $0, universe: universe, clock: { time.now() })
        }
        let broker = IBBroker(
            connection: connection, contracts: book,
            configuration: IBBrokerConfiguration(
                orderOptions: WireOrderOptions(
                    account: account, outsideRegularTradingHours: configuration.outsideRegularTradingHours,
                    reference: reference),
                commissionWait: configuration.commissionWait, journal: journalAdapter,
                orderEfficiency: configuration.orderEfficiency, crashPoint: configuration.crashPoint),
            clock: { time.now() })
        self.broker = broker
        let events = await broker.start()
        // What the broker holds before anything is sent; the plan is carried out after the warm-up (which runs
        // with the kill switch engaged), so adopted orders are not cancelled by it (LiveRunner+Reconcile.swift).
        let (snapshot, unmapped) = try await broker.brokerSnapshot()
        for problem in unmapped { logger.warning("unmapped broker item (left alone): \(problem)") }
        try await warmUp(connection)
        await restart(snapshot, broker: broker)
        return events
    }

    /// One connection's stretch: pump the broker, subscribe bars, run the loop until stopped or lost.
    mutating func runConnected(
        _ connection: TWSConnection, generation: Int, resynchronize: Bool, input: RunnerInbox, group: inout ThrowingTaskGroup<Void, any Error>
    ) async throws -> ConnectedOutcome {
        guard let broker else { return .stopped("no broker") }
        if resynchronize { await broker.attach(connection) }
        group.addTask {
            do { try await broker.run() } catch {}
            input.yield(.ended(generation, "order events ended"))
        }
        // After a reconnect: resume entries, missed executions applied once and journaled, missed bars back-filled.
        if resynchronize { await socketRestored(connection, broker: broker) }
        // A stop asked for during the start-up (or the reconnect): stop before subscribing anything. The broker's
        // events are pumped for the drain; the loop's `.stop` input is left for it, which ignores it.
        if let reason = stopFlag?.reason { return .stopped(reason) }
        let states = await connection.stateChanges()
        group.addTask {
            for await state in states { input.yield(.connectivity(generation, state)) }
        }
        await followFarms(connection, generation: generation, input: input, group: &group)
        startHeartbeat(connection, generation: generation, input: input, group: &group)  // when on
        startExecutionSync(connection, broker: broker, input: input, group: &group)
        var feedNumber = 0
        while true {
            // After 1101 the old feed is retired: fetch what it missed before the new one starts.
            if feedNumber > 0 { await backfill(connection, broker: broker, after: "the 1101 outage") }
            // Each feed runs until its subscriptions end or its `retire` stream finishes (resubscription).
            let feed = IBMarketDataFeed(
                connection: connection, contracts: book,
                subscription: RealTimeBarSubscription(
                    instruments: ids, whatToShow: configuration.whatToShow,
                    useRegularTradingHours: !configuration.outsideRegularTradingHours))
            let events = await feed.start()
            let (retire, retirement) = AsyncStream.makeStream(of: Void.self)
            let number = feedNumber
            let delayedFallback = configuration.resilience.delayedFallback
            group.addTask {
                await withTaskGroup(of: Void.self) { inner in
                    inner.addTask {
                        for await event in events { input.yield(.market(event)) }
                    }
                    inner.addTask {
                        do { try await feed.run() } catch {
                            // A permission refusal says which and what to do (docs/live-trading.md, delayed data).
                            let reason = MarketDataRefusal.stopReason(error, delayedFallback: delayedFallback)
                            input.yield(.feedEnded(generation, number, reason))
                        }
                    }
                    inner.addTask { for await _ in retire {} }
                    await inner.next()
                    inner.cancelAll()
                }
            }
            let quoteRetirement = await startQuotes(connection, input: input, group: &group)  // when asked for
            logger.info("subscribed to 5-second bars; running")
            configuration.observer?(.subscribed(generation: generation, feed: number))
            let outcome = try await loop(
                input, connection: connection, broker: broker, generation: generation, feed: number)
            retirement.finish()
            quoteRetirement?.finish()
            if case .feedFailed(let reason) = outcome {
                // With the socket still up the subscription itself failed (e.g. 354/10089 no market data
                // permission): reconnecting would not help.
                if await connection.session != nil {
                    logger.critical("market data failed with the connection up: \(reason)")
                    return .stopped("market data failed: \(reason)")
                }
                logger.notice("market data ended with the connection: \(reason)")
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
        if let broker { await journalRestartState(broker, periodic: true) }  // LiveRunner+RiskRestore.swift
        logSummary()
        await broker?.finish()
        var enginePositions: [Symbol: Quantity] = [:]
        for id in ids where engine.portfolio.position(for: id).quantity != .zero {
            enginePositions[universe[id].symbol] = engine.portfolio.position(for: id).quantity
        }
        var summary = LiveRunSummary(
            account: account, commands: commands, fills: fills,
            denials: engine.denials.count - denialsAtStart, bars: bars, warmupBars: warmupBars,
            brokerPositions: brokerPositions, enginePositions: enginePositions, reconnects: reconnects,
            resubscriptions: resubscriptions,
            stopReason: reason, realizedPnL: engine.portfolio.realizedPnL)
        summary.farmOutages = farms.outages
        return summary
    }
}
