import Foundation
import Logging
import Storage
import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

// The event loop of a session: warm-up, the ordered input loop, broker reports, engine commands, records.
extension Session {
    /// Feeds historical bars with the kill switch engaged: indicators warm up, nothing is sent.
    mutating func warmUp(_ connection: TWSConnection) async throws {
        guard !configuration.warmupDuration.isEmpty else { return }
        var all: [(Timestamp, InstrumentID, Bar)] = []
        var fetches: [HistoricalFetch] = []
        for id in ids {
            var query = TWSHistoricalBarsQuery(
                contract: try book.contract(for: id), duration: configuration.warmupDuration,
                barSize: configuration.warmupBarSize)
            query.whatToShow = configuration.whatToShow
            let symbol = universe[id].symbol.rawValue
            fetches.append(HistoricalFetch(id: id, query: query, what: "warm-up bars of \(symbol)"))
        }
        guard let fetched = await fetchUnlessStopped(fetches, connection) else {
            logger.notice("warm-up cut short: \(stopFlag?.reason ?? "stopping")")
            return
        }
        for (id, wire) in fetched {
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
        let observer = configuration.engineEventObserver
        while k < all.count {
            _ = engine.handle(.bar(all[k].1, all[k].2))
            observer?(.bar(all[k].1, all[k].2), engine.orders.openOrderCount)
            k += 1
            if k == all.count || all[k].0 != all[k - 1].0 {
                _ = engine.handle(.barsClosed(all[k - 1].0))
                observer?(.barsClosed(all[k - 1].0), engine.orders.openOrderCount)
            }
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
    mutating func loop(
        _ inbox: RunnerInbox, connection: TWSConnection, broker: IBBroker, generation: Int, feed: Int
    ) async throws -> ConnectedOutcome {
        let clock = ContinuousClock()
        var nextSummary = clock.now.advanced(by: configuration.summaryInterval)
        var inputs = inbox.stream.makeAsyncIterator()
        while let item = await inputs.next() {
            activity.mark(inbound: item.isInbound)  // heartbeat and watchdog evidence (LiveRunnerSession+Heartbeat.swift)
            switch item {
            case .broker(let event):
                await handleBroker(event, broker: broker)
            case .quotes(let event):
                await handleQuoteEvent(event, broker: broker)  // LiveRunnerSession+Quotes.swift
            case .market(let event):
                switch event {
                case .engine:
                    guard let engineEvent = event.engineEvent, accept(engineEvent) else { break }
                    await handle(engineEvent, broker: broker)
                case .malformedBar(let id, let error):
                    logger.warning("malformed bar of \(universe[id].symbol) dropped: \(error)")
                case .notice(let id, let notice):
                    logger.notice("market data \(universe[id].symbol): \(notice.code) \(notice.message)")
                }
            case .executionsSynced(let snapshot):
                // The safety net: executions the events missed (none, normally) reach the journal, by execId.
                let added = record(snapshot, at: time.now())
                if added > 0 { logger.info("journaled \(added) executions from the broker's list") }
            case .tick:
                if let journal = configuration.journal, journal.checkpoints == .manual {
                    do { try journal.checkpoint() } catch { logger.warning("journal checkpoint: \(error)") }
                }
                connectivityTick()
                farmTick()
                await broker.releaseOverdueCommissions()
                await journalRestartState(broker, periodic: clock.now >= nextSummary)  // LiveRunner+RiskRestore.swift
                if clock.now >= nextSummary {
                    logSummary()
                    let efficiency = await broker.orderEfficiencySummary
                    logger.info("\(efficiency)")
                    nextSummary = clock.now.advanced(by: configuration.summaryInterval)
                }
            case .stop(let reason):
                return .stopped(reason)
            case .drained:
                continue
            case .feedEnded(let ended, let number, let reason):
                guard ended == generation, number == feed else { continue }  // a retired feed
                return .feedFailed(reason)
            case .farm(let on, let report):
                if on == generation { farmReported(report) }
            case .connectivity(let ended, let state):
                guard ended == generation else { continue }
                // 1101: resynchronized here, resubscribed (and back-filled) by `runConnected`.
                if await connectivityChanged(state, connection: connection, broker: broker) { return .resubscribe }
                if case .restored(dataLost: false) = state {
                    // 1102: subscriptions kept, but bars of the outage never came.
                    await backfill(connection, broker: broker, after: "the 1100 outage")
                }
            case .ended(let ended, let reason):
                guard ended == generation else { continue }  // a previous connection's late notice
                socketLost(reason)
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
            // The fill reached the engine without it: book it now, so cash and P&L equal the broker's.
            let booked = engine.bookLateCommission(late.commission, for: late.orderID)
            logger.info("late commission \(late.commission) for \(late.executionID)\(booked ? " booked" : " (order unknown to the engine)")")
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
    mutating func drain(_ inbox: RunnerInbox, broker: IBBroker) async {
        var inputs = inbox.stream.makeAsyncIterator()
        while let item = await inputs.next() {
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
        // During a back-fill the strategy acts on history: denials are expected, not a warning.
        finish(event, quiet: entryPauses.contains(.backfill))
    }

    mutating func carryOut(_ command: EngineCommand, broker: IBBroker) async {
        commands += 1
        var failure: IBBrokerError?
        do { try await broker.execute(command) } catch { failure = error }
        log(command, failure: failure)
    }

    /// Status changes into the journal (`IBBroker` journals each execution and commission as it arrives, by execId).
    func journalReport(_ report: ExecutionReport, broker: IBBroker) async {
        guard let journal = configuration.journal,
            let tracked = await broker.trackedOrders[report.orderID]
        else { return }
        var update = JournalStatusUpdate(orderRef: ClientOrderID(tracked.orderRef), state: tracked.state, time: time.now())
        update.brokerOrderID = Int64(tracked.brokerOrderID)
        do { try journal.recordStatus(update) } catch { logger.error("journal: \(error)") }
    }

    /// The broker's executions (deduplicated by execId) and commissions into the journal, in one transaction and only
    /// those the journal lacks (`JournaledExecutions`); returns how many fills were new.
    func record(_ snapshot: BrokerSnapshot, at now: Timestamp) -> Int {
        guard let journal = configuration.journal else { return 0 }
        var executions: [OrderJournal.Execution] = []
        executions.reserveCapacity(snapshot.executions.count)
        for execution in snapshot.executions {
            let symbol = execution.instrument.index < universe.count ? universe[execution.instrument].symbol : "?"
            var fill = JournalFill(
                execID: execution.executionID, symbol: symbol, side: execution.side, quantity: execution.quantity,
                price: execution.price, time: execution.time)
            fill.orderRef = execution.orderRef.isEmpty ? nil : ClientOrderID(execution.orderRef)
            fill.brokerOrderID = Int64(execution.brokerOrderID)
            fill.permID = execution.permID
            fill.account = execution.account
            // insertFill joins commissions recorded earlier; a known one is joined right after its fill.
            let commission = snapshot.commissions[execution.executionID].map {
                JournalCommission(execID: execution.executionID, commission: $0, time: now)
            }
            executions.append(OrderJournal.Execution(fill: fill, commission: commission))
        }
        do {
            return try journaledExecutions.record(executions, into: journal, at: now)
        } catch {
            logger.error("journal: \(error)")
            return 0
        }
    }

    func logSummary() {
        let account = engine.account
        var held: [String] = []
        for k in 0..<universe.count {
            let position = engine.portfolio.position(for: InstrumentID(index: k))
            if position.quantity != .zero { held.append("\(universe[InstrumentID(index: k)].symbol) \(position.quantity)") }
        }
        let brokenFarms = farms.summary(at: configuration.resilience.clock())
        let text =
            "portfolio: equity \(account.equity), cash \(account.cash), exposure \(account.grossExposure), "
            + "positions [\(held.joined(separator: ", "))], bars \(bars), fills \(fills), commands \(commands)"
            + (brokenFarms.isEmpty ? "" : "; \(brokenFarms)")
        logger.info("\(text)")
    }
}
