import Logging
import TWSProtocol
import TradingEngine
import TradingModel

// Outages: 1100 / 1101 / 1102 through `ConnectivityMonitor`, farms through `FarmMonitor`, a lost socket and the
// reconnect with capped backoff, and the recovery after each (resynchronization, back-fill, resubscription).
extension LiveSessionCore {
    /// TWS's connection to IB changed.
    mutating func connectivityChanged(_ state: TWSConnectionState, at now: Timestamp, _ out: inout Actions) {
        switch state {
        case .lost:
            rememberConnection("1100: TWS lost its connection to IB", at: now)
            if case .running = phase { closeBookGate("TWS lost its connection to IB (1100)", at: now, &out) }
            carryOut(connectivity.lost(at: now), dataLost: false, at: now, &out)
        case .restored(let dataLost):
            rememberConnection(
                dataLost ? "1101: IB connectivity restored, market data lost" : "1102: IB connectivity restored, data kept",
                at: now)
            carryOut(connectivity.restored(dataLost: dataLost, at: now), dataLost: dataLost, at: now, &out)
        default:
            break
        }
    }

    /// The monitor's actions. A resynchronization, and after 1101 a resubscription, run as one recovery with the
    /// back-fill of the bars the outage cost.
    private mutating func carryOut(
        _ actions: [ConnectivityAction], dataLost: Bool, at now: Timestamp, _ out: inout Actions
    ) {
        var steps: [Recovery.Step] = []
        for action in actions {
            switch action {
            case .resynchronize: steps.append(.resynchronize)
            case .resubscribe: break
            default: carryOutLocally(action, &out)
            }
        }
        guard !steps.isEmpty, case .running = phase else { return }
        if dataLost {
            // 1101: the feeds are gone; what they missed is fetched before new ones start.
            retireFeeds(&out)
            steps += [.backfill(after: "the 1101 outage"), .subscribe(newFeed: true)]
        } else {
            // 1102: subscriptions kept, but bars of the outage never came.
            steps.append(.backfill(after: "the 1100 outage"))
        }
        recover(steps, at: now, &out)
    }

    mutating func carryOutLocally(_ action: ConnectivityAction, _ out: inout Actions) {
        switch action {
        case .log(let level, let text): out.log(level, text)
        case .pauseEntries:
            setEntryPause(.connectivity, true)
            out.append(.milestone(.connectivity(.paused)))
        case .resumeEntries:
            setEntryPause(.connectivity, false)
            out.append(.milestone(.connectivity(.resumed)))
        case .resynchronize, .resubscribe: break
        }
    }

    /// A data farm's state.
    mutating func farmReported(_ report: TWSFarmReport, at now: Timestamp, _ out: inout Actions) {
        let before = farms.farms[report.farm]?.state
        for action in farms.report(report, at: now) { carryOutLocally(action, &out) }
        if before != report.state { out.append(.milestone(.connectivity(.farmChanged(report.farm, report.state)))) }
    }

    /// IB's warning that the gateway's build will be desupported (2172): an ALERT, repeated daily on the tick.
    mutating func desupportWarned(_ warning: TWSDesupportWarning, at now: Timestamp, _ out: inout Actions) {
        for action in connectivity.desupport.heard(warning, generation: generation, at: now) {
            carryOutLocally(action, &out)
        }
    }

    // MARK: - The socket

    /// The connection to TWS closed (or was given up): stop, or reconnect with backoff.
    mutating func lost(_ reason: String, at now: Timestamp, _ out: inout Actions) {
        if case .starting = phase {
            // The start-up needs every answer it asked for: the run cannot start.
            connected = false
            fail(.startup("the connection to TWS closed during the start-up: \(reason)"), &out)
            return
        }
        connected = false
        rememberConnection("socket closed: \(reason)", at: now)
        heartbeat.probe = nil
        barFeed = nil
        quoteFeed = nil
        quoteRetryAt = nil
        for (tag, purpose) in pending.sorted(by: { $0.key < $1.key }) where purpose.diesWithConnection {
            pending[tag] = nil
            failed(purpose, .unanswered("the connection closed"), at: now, &out)
        }
        for action in connectivity.socketLost(reason: reason, at: now) { carryOutLocally(action, &out) }
        switch phase {
        case .stopping:
            stopWithoutConnection(&out)
        case .running:
            recovery = nil
            closeBookGate("the connection to TWS closed", at: now, &out)
            guard settings.reconnect else {
                stop(reason, at: now, &out)
                return
            }
            phase = .reconnecting
            reconnect.reason = reason
            reconnect.delay = settings.reconnectDelay
            scheduleReconnect(at: now, &out)
        default:
            break
        }
    }

    private mutating func scheduleReconnect(at now: Timestamp, _ out: inout Actions) {
        connectivityTick(at: now, &out)
        let level: Logger.Level = connectivity.isExpected(at: now) ? .info : .warning
        out.log(level, "connection lost (\(reconnect.reason)); reconnecting in \(Self.text(reconnect.delay))")
        let at = now + reconnect.delay
        reconnect.at = at
        out.append(.wakeUp(at: at))
    }

    /// On the tick: the next reconnect attempt when its time has come.
    mutating func reconnectIfDue(at now: Timestamp, _ out: inout Actions) {
        switch phase {
        case .reconnecting, .connecting: break
        default: return
        }
        guard !reconnect.attempting, let at = reconnect.at, now >= at else { return }
        reconnect.at = nil
        reconnect.attempting = true
        out.append(.connect)
    }

    /// A connection attempt failed: the first connection ends the run; a reconnect tries again, later.
    mutating func connectFailed(_ reason: String, at now: Timestamp, _ out: inout Actions) {
        reconnect.attempting = false
        switch phase {
        case .connecting:
            fail(.startup(reason), &out)
        case .reconnecting:
            let level: Logger.Level = connectivity.isExpected(at: now) ? .info : .warning
            out.log(level, "reconnect failed: \(reason)")
            reconnect.delay = min(
                TimeSpan(nanoseconds: reconnect.delay.nanoseconds * 2), settings.maxReconnectDelay)
            scheduleReconnect(at: now, &out)
        case .stopping:
            stopWithoutConnection(&out)
        default:
            break
        }
    }

    /// Nothing answered the first connection: within `settings.gatewayWait` of the first attempt, try again with
    /// the reconnect backoff (TWS / IB Gateway may still be starting); after it, or without it, the run ends. Later
    /// connections treat it as any failed attempt.
    mutating func gatewayUnreachable(_ reason: String, at now: Timestamp, _ out: inout Actions) {
        guard case .connecting = phase else { return connectFailed(reason, at: now, &out) }
        reconnect.attempting = false
        guard let wait = settings.gatewayWait, let first = firstAttemptAt else {
            return fail(.startup(reason), &out)
        }
        let deadline = first + wait
        guard now < deadline else {
            return fail(
                .startup("waited \(Self.text(now - first)) for TWS / IB Gateway (connection.waitForGateway): \(reason)"),
                &out)
        }
        // The last attempt is made at the bound itself.
        let delay = min(reconnect.delay, deadline - now)
        out.log(
            .notice,
            "TWS / IB Gateway is not answering yet; trying again in \(Self.text(delay)), for up to "
                + "\(Self.text(deadline - now)) more (connection.waitForGateway): \(reason)")
        reconnect.at = now + delay
        out.append(.wakeUp(at: now + delay))
        reconnect.delay = min(TimeSpan(nanoseconds: reconnect.delay.nanoseconds * 2), settings.maxReconnectDelay)
    }

    /// Reconnected: entries resume, missed executions and open orders are resynchronized, missed bars back-filled,
    /// then the bars subscribed again.
    mutating func reconnected(at now: Timestamp, _ out: inout Actions) {
        counts.reconnects += 1
        phase = .running
        out.log(.notice, "reconnected (attempt succeeded after \(reconnect.reason))")
        out.append(.milestone(.runner(.reconnected(generation: counts.reconnects))))
        for action in connectivity.restored(dataLost: true, at: now, socket: true)
        where action != .resubscribe && action != .resynchronize {
            carryOutLocally(action, &out)
        }
        feedNumber = 0
        recover([.resynchronize, .backfill(after: "the reconnect"), .subscribe(newFeed: false)], at: now, &out)
    }

    // MARK: - Recovery

    /// Starts (or extends) a recovery: its steps run one after the other; market events wait meanwhile.
    mutating func recover(_ steps: [Recovery.Step], at now: Timestamp, _ out: inout Actions) {
        if recovery == nil {
            recovery = Recovery(steps: steps)
        } else {
            recovery?.steps += steps
        }
        advanceRecovery(at: now, &out)
    }

    /// Runs the recovery's next steps until one waits for answers.
    mutating func advanceRecovery(at now: Timestamp, _ out: inout Actions) {
        while var current = recovery, current.current == nil {
            guard !current.steps.isEmpty else {
                recovery = nil
                releaseDeferredMarket(at: now, &out)
                return
            }
            let step = current.steps.removeFirst()
            recovery = current
            switch step {
            case .resynchronize:
                guard connected else { continue }
                let cutoff = highestSentOrderID
                recovery?.current = step
                recovery?.resync = Resync(cutoff: cutoff)
                _ = request(.executions, for: .resyncExecutions, &out)
                _ = request(.openOrders, for: .resyncOpenOrders, &out)
                _ = request(.completedOrders, for: .resyncCompletedOrders, &out)
            case .backfill(let outage, let since):
                guard settings.resilience.backfill, lastClosed > .zero, connected, stopping == nil else { continue }
                recovery?.current = step
                recovery?.backfill = Backfill(outage: outage, covered: min(since ?? lastClosed, lastClosed))
                backfillRound(&out)
            case .subscribe(let newFeed):
                guard connected, case .running = phase, stopping == nil else { continue }
                subscribe(newFeed: newFeed, at: now, &out)
            }
        }
    }

    /// The highest TWS order id sent so far.
    var highestSentOrderID: Int { desk.book.orders.values.map(\.brokerOrderID).max() ?? 0 }

    /// A resynchronization's answer; once both are in, they are applied.
    mutating func resyncAnswered(_ update: (inout Resync) -> Void, at now: Timestamp, _ out: inout Actions) {
        guard var resync = recovery?.resync else { return }
        update(&resync)
        recovery?.resync = resync
        guard resync.failed || (resync.executions != nil && resync.openOrders != nil && resync.completedOrders != nil)
        else { return }
        applyResync(resync, &out)
        // What the resynchronization applied is in the engine now: compare with the broker's positions (the gate's
        // look after a drop, else the regular check's).
        if bookGate != nil {
            bookGateResynchronized(succeeded: resync.executions != nil && resync.openOrders != nil, at: now, &out)
        } else {
            schedulePositionCheck(at: now)
        }
        recovery?.current = nil
        advanceRecovery(at: now, &out)
    }

    /// Executions and open orders again (fills missed while TWS was cut off), applied once by execId, journaled.
    mutating func applyResync(_ resync: Resync, _ out: inout Actions) {
        guard let executions = resync.executions, let openOrders = resync.openOrders else {
            out.log(.error, "resynchronization failed")
            return
        }
        let (outputs, missed) = desk.synchronize(executions, at: dataTime, receivedAt: inputTime)
        followUps += outputs
        followUps += desk.resynchronize(
            openOrders: openOrders, completedOrders: resync.completedOrders ?? [], clientID: clientID,
            cutoff: resync.cutoff, at: dataTime)
        journalExecutions(executions, &out)
        counts.resynchronizations += 1
        out.log(missed > 0 ? .notice : .info, "resynchronized: \(missed) missed executions applied")
        out.append(.milestone(.connectivity(.resynchronized(missedExecutions: missed))))
    }

    /// The broker's execution list into the journal (each execution once, by execId); one whose time does not read
    /// goes in with the time it was received, said once (`noteUnreadTimes`).
    mutating func journalExecutions(_ reports: [TWSExecutionReport], _ out: inout Actions) {
        let snapshot = SnapshotMapping.snapshot(
            BrokerAnswers(openOrders: [], executions: reports, positions: []),
            context: desk.mappingContext(receivedAt: inputTime)
        ).0
        noteUnreadTimes(snapshot.executions, &out)
        guard settings.journaled else { return }
        out.append(.journal(.executions(snapshot, at: dataTime)))
    }

    static func text(_ span: TimeSpan) -> String {
        let milliseconds = span.nanoseconds / 1_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }
}

extension Purpose {
    /// Requests a lost connection answers no more.
    var diesWithConnection: Bool {
        switch self {
        case .beginRun, .journalBeforeReconciliation, .journalAfterReconciliation: false
        default: true
        }
    }
}
