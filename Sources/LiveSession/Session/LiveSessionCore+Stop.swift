import Logging
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// The stop (a signal, `--duration`, the operator, a failed feed): kill switch (no new entries), the open orders
// cancelled or left working (`orders.cancelOnExit`), missed executions re-read, a drain while the broker's answers
// still reach the engine, then the broker's executions and positions journaled a last time and the summary. A second
// stop ends the drain at once. A stop during the start-up ends its historical requests at once and stops once the
// other steps are done.
extension LiveSessionCore {
    mutating func stop(_ reason: String, at now: Timestamp, _ out: inout Actions) {
        sayRepeatedDenials(&out)
        if var stopping {
            // A second request is a fast stop: the drain ends at once.
            guard !stopping.fast else { return }
            stopping.fast = true
            let soon = now + Self.fastStopLimit
            if stopping.deadline.map({ soon < $0 }) ?? true {
                stopping.deadline = soon
                out.append(.wakeUp(at: soon))
            }
            self.stopping = stopping
            drainIfDue(at: now, &out)
            return
        }
        stopReason = reason
        stopping = Stopping(reason: reason, step: .resynchronizing, started: now, deadline: settings.stopLimit.map { now + $0 })
        if let deadline = stopping?.deadline { out.append(.wakeUp(at: deadline)) }
        switch phase {
        case .idle, .connecting:
            out.log(.notice, "stopping before connecting: \(reason)")
            phase = .stopping
            stopWithoutConnection(&out)
        case .starting:
            cutStartupShort(&out)
            continueStartup(at: now, &out)
        case .reconnecting:
            phase = .stopping
            out.log(.notice, "stopping: \(reason)")
            _ = engine.handle(.killSwitch(engaged: true))
            stopWithoutConnection(&out)
        case .running:
            phase = .stopping
            beginStop(at: now, &out)
        case .stopping, .finished:
            break
        }
    }

    /// A stop during the start-up: the warm-up's requests end now, the rest of the start-up goes on.
    private mutating func cutStartupShort(_ out: inout Actions) {
        for (tag, purpose) in pending.sorted(by: { $0.key < $1.key }) {
            switch purpose {
            case .warmup, .warmupTime: break
            default: continue
            }
            pending[tag] = nil
            out.append(.cancel(tag))
            startup.warmupPending -= 1
            startup.warmupCutShort = true
        }
    }

    /// Stop, first half: kill switch, cancels (or not), the feeds ended, missed executions re-read.
    mutating func beginStop(at now: Timestamp, _ out: inout Actions) {
        if !heldExits.isEmpty {
            let symbols = Set(heldExits.compactMap { $0.newOrders?.first.map { universe[$0.instrument].symbol.rawValue } })
            out.log(
                .warning,
                "stopping with \(heldExits.count) exit(s) held for halted \(symbols.sorted().joined(separator: ", ")): "
                    + "not sent; the positions stay open")
            heldExits = []
        }
        let reason = stopping?.reason ?? "stopping"
        out.log(.notice, "stopping: \(reason)")
        if recovery?.backfill != nil { cutBackfillShort(reason, &out) }
        recovery = nil
        deferredMarket = []
        retireFeeds(&out)
        // The protection of open positions (stops, take-profits) stays at the broker: it guards them while no bot runs.
        let kept = engine.orders.openOrders.filter { engine.isProtection($0) }
        let keep = Set(kept.map(\.id))
        let exit = engine.engageKillSwitch(keeping: { keep.contains($0.id) })
        if settings.cancelOnExit, !kept.isEmpty {
            out.log(
                .notice,
                "leaving \(kept.count) protective order(s) working at the broker for the open positions: "
                    + kept.map { "\($0.side.rawValue) \($0.type) \(universe[$0.instrument].symbol)" }.joined(separator: ", "))
        }
        guard connected else {
            stopWithoutConnection(&out)
            return
        }
        if settings.cancelOnExit {
            for command in exit { carryOut(command, &out) }
        } else {
            out.log(.notice, "leaving \(exit.count) open orders working at the broker (orders.cancelOnExit: false)")
        }
        let cutoff = highestSentOrderID
        stopping?.resync = Resync(cutoff: cutoff)
        _ = request(.executions, for: .stopExecutions, &out)
        _ = request(.openOrders, for: .stopOpenOrders, &out)
    }

    mutating func stopResyncAnswered(_ update: (inout Resync) -> Void, at now: Timestamp, _ out: inout Actions) {
        guard var stopping, case .resynchronizing = stopping.step else { return }
        update(&stopping.resync)
        let resync = stopping.resync
        guard resync.failed || (resync.executions != nil && resync.openOrders != nil) else {
            self.stopping = stopping
            return
        }
        if let executions = resync.executions, let openOrders = resync.openOrders {
            let (outputs, _) = desk.synchronize(executions, at: dataTime, receivedAt: inputTime)
            followUps += outputs
            followUps += desk.resynchronize(
                openOrders: openOrders, clientID: clientID, cutoff: resync.cutoff, at: dataTime)
        }
        // For `stopDrain` the broker's answers (fills in flight, cancellations) still reach the engine.
        let until = now + settings.stopDrain
        stopping.step = .draining(until: until)
        self.stopping = stopping
        out.append(.wakeUp(at: until))
        drainIfDue(at: now, &out)
    }

    /// How long a second stop request still waits for the broker.
    static var fastStopLimit: TimeSpan { .seconds(5) }

    /// On the tick: a stop still waiting for the broker at its deadline finishes without the answers (the journal has
    /// every order and fill so far; the next start reconciles with the broker).
    mutating func finishStopIfOverdue(at now: Timestamp, _ out: inout Actions) {
        guard let stopping, let deadline = stopping.deadline, now >= deadline else { return }
        switch phase {
        case .stopping, .starting: break
        default: return
        }
        let waitingFor = switch stopping.step {
        case .resynchronizing: "the re-read of executions and open orders"
        case .draining: "the drain"
        case .snapshot: "the final positions and executions"
        }
        out.log(
            .error,
            "the stop waited \(Self.text(now - stopping.started)) for the broker and still had no answer to "
                + "\(waitingFor); finishing without it (orders left at the broker stay there; the next start reconciles)")
        phase = .stopping
        finishRun(brokerPositions: [:], &out)
    }

    /// On the tick (and at a fast stop): once the drain is over, the final snapshot.
    mutating func drainIfDue(at now: Timestamp, _ out: inout Actions) {
        guard var stopping, case .draining(let until) = stopping.step, now >= until || stopping.fast else { return }
        stopping.step = .snapshot
        self.stopping = stopping
        guard connected else {
            stopWithoutConnection(&out)
            return
        }
        _ = request(.brokerState, for: .finalBrokerState, &out)
    }

    /// Stop, second half: the broker's executions and positions journaled, then the summary.
    mutating func finalSnapshot(_ answers: BrokerAnswers, _ out: inout Actions) {
        let (final, _) = SnapshotMapping.snapshot(answers, context: desk.mappingContext(receivedAt: inputTime))
        noteUnreadTimes(final.executions, &out)
        var brokerPositions: [Symbol: Quantity] = [:]
        for (id, quantity) in final.positions where id.index < universe.count {
            brokerPositions[universe[id].symbol] = quantity
        }
        if settings.journaled {
            out.append(.journal(.executions(final, at: dataTime)))
            out.append(
                .journal(
                    .positions(
                        brokerPositions.sorted { $0.key < $1.key }.map {
                            JournalPosition(account: account, symbol: $0.key, quantity: $0.value)
                        }, at: dataTime)))
        }
        finishRun(brokerPositions: brokerPositions, &out)
    }

    /// The stop without a connection: open orders stay at the broker, executions are not re-read.
    mutating func stopWithoutConnection(_ out: inout Actions) {
        guard case .stopping = phase else { return }
        out.log(.error, "stopping without a connection: open orders stay at the broker; executions not re-read")
        finishRun(brokerPositions: [:], &out)
    }

    /// The `stopped` event, the restart state, the summary.
    mutating func finishRun(brokerPositions: [Symbol: Quantity], _ out: inout Actions) {
        guard phase != .finished else { return }
        sayRepeatedDenials(&out)
        let reason = stopReason ?? "stopped"
        if settings.journaled {
            out.append(journalEvent(.lifecycle, "stopped: \(reason)"))
        }
        journalRestartState(periodic: true, &out)
        logSummary(at: inputTime, &out)
        phase = .finished
        out.append(.finish(summary(brokerPositions: brokerPositions, reason: reason)))
    }

    /// What the run did.
    func summary(brokerPositions: [Symbol: Quantity], reason: String) -> LiveRunSummary {
        var enginePositions: [Symbol: Quantity] = [:]
        for id in ids where engine.portfolio.position(for: id).quantity != .zero {
            enginePositions[universe[id].symbol] = engine.portfolio.position(for: id).quantity
        }
        var summary = LiveRunSummary(
            account: account, commands: counts.commands, fills: counts.fills,
            denials: engine.denials.count - counts.denialsAtStart, bars: counts.bars, warmupBars: counts.warmupBars,
            brokerPositions: brokerPositions, enginePositions: enginePositions, reconnects: counts.reconnects,
            resubscriptions: counts.resubscriptions, stopReason: reason, realizedPnL: engine.portfolio.realizedPnL)
        summary.farmOutages = farms.outages
        summary.tradingHalts = counts.halts
        summary.deadFeeds = counts.deadFeeds
        summary.currency = engine.portfolio.conversion.accountCurrency
        return summary
    }
}
