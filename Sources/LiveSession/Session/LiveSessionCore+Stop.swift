import Logging
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// The stop (a signal, `--duration`, the operator, a failed feed): kill switch (no new entries), the open orders
// cancelled or left working (`orders.cancelOnExit`) — the protection of held positions always stays — or, with
// `orders.flattenOnExit`, everything cancelled and every position closed at market; missed executions re-read, a drain
// while the broker's answers still reach the engine (a fill in flight is protected: the strategy's protective order
// goes out under the kill switch, `EngineCore.protectsHeldPosition`, and the drain waits for its acknowledgement),
// then the broker's executions and positions journaled a last time, one line saying what guards each position left at
// the broker (an ALERT for one left bare: `LiveSessionCore+ExitProtection.swift`), and the summary. A second stop ends
// the drain at once. A stop during the start-up ends its historical requests at once and stops once the other steps
// are done.
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
            // No cancel can be sent: every order stays at the broker as it is, and the engine says so.
            _ = engine.engageKillSwitch(keeping: { _ in true })
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
        guard connected else {
            // No cancel can be sent: every order stays at the broker as it is, and the engine says so.
            _ = engine.engageKillSwitch(keeping: { _ in true })
            stopWithoutConnection(&out)
            return
        }
        if flattensAtStop(&out) {
            // Everything is cancelled, protection included (a stop working beside a close could fill too and open the
            // opposite position); the closes go once nothing works and the executions are re-read (`continueStop`).
            let cancels = engine.handle(.killSwitch(engaged: true))
            stopping?.flatten = operatorState.flatten ?? FlattenState(requestedAt: now)
            operatorState.flatten = nil
            out.log(
                .notice,
                "flattening at the stop (\(settings.flattensOnExit ? "orders.flattenOnExit" : "the operator's flatten")): "
                    + "\(cancels.count) working orders cancelled; every position is closed at market once none is left")
            for command in cancels { carryOut(command, &out) }
        } else {
            // The protection of held positions (stops, take-profits) stays at the broker: it guards them while no bot
            // runs. So do a bracket's children while its entry works: the entry's cancel takes them down at the broker,
            // and if the entry fills first they protect what it bought.
            let kept = engine.orders.openOrders.filter(keepsAtStop)
            let keep = Set(kept.map(\.id))
            let exit = engine.engageKillSwitch(keeping: { keep.contains($0.id) })
            if settings.cancelOnExit {
                sayKept(kept, &out)
                for command in exit { carryOut(command, &out) }
            } else {
                out.log(.notice, "leaving \(exit.count) open orders working at the broker (orders.cancelOnExit: false)")
            }
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
        // For `stopDrain` the broker's answers (fills in flight, cancellations) still reach the engine; and while an
        // order's answer is due (a cancel, a protective order placed for a fill, a close), up to `stopSettleLimit`.
        let until = now + settings.stopDrain
        stopping.step = .draining(until: until)
        var settleBy = now + Self.stopSettleLimit
        if let deadline = stopping.deadline { settleBy = min(settleBy, deadline - Self.fastStopLimit) }
        stopping.settleBy = max(settleBy, until)
        self.stopping = stopping
        out.append(.wakeUp(at: until))
        continueStop(at: now, &out)
    }

    /// How long a second stop request still waits for the broker.
    static var fastStopLimit: TimeSpan { .seconds(5) }

    /// The longest the drain waits for the broker's answers to the orders in flight (within the stop's bound, with
    /// time left for the final snapshot): a cancel confirmed or refused, a protective order acknowledged, a close filled.
    static var stopSettleLimit: TimeSpan { .seconds(15) }

    /// Whether the stop flattens: `orders.flattenOnExit`, or the operator's flatten still under way. Not while
    /// journal writes fail: the closes could not be journaled, so they would not go out, and the protection cancelled
    /// for them would be gone; the protection stays instead, and the log says so. Once writes work again the stop
    /// flattens, though the journal pause still holds the strategy (the closes can be journaled).
    private func flattensAtStop(_ out: inout Actions) -> Bool {
        guard settings.flattensOnExit || operatorState.flatten != nil else { return false }
        guard !journalHealth.failing else {
            out.log(
                .warning,
                "not flattening at the stop: the journal is failing, so the closes could not be journaled; the "
                    + "protection of the positions stays at the broker instead")
            return false
        }
        return true
    }

    /// Whether an open order stays at the broker when the bot stops with `orders.cancelOnExit`: the protection of a
    /// position held now (a protective leg, a filled entry's bracket child) on the side that closes it, and a bracket
    /// child whose entry still works. One whose cancel is already in flight (a rotation made way for its exit) is not
    /// kept: it is going.
    func keepsAtStop(_ order: Order) -> Bool {
        guard order.state != .pendingCancel else { return false }
        if let parent = order.parentID.flatMap({ engine.orders.order($0) }), parent.isOpen { return true }
        guard engine.isProtection(order) else { return false }
        let held = engine.portfolio.position(for: order.instrument).quantity.units
        return held != 0 && (held > 0) == (order.side == .sell)
    }

    /// What the stop keeps working, and protection already being cancelled when it came (said apart: it is not kept).
    private func sayKept(_ kept: [Order], _ out: inout Actions) {
        func name(_ order: Order) -> String {
            "\(order.side.rawValue) \(order.type) for \(order.remainingQuantity) \(universe[order.instrument].symbol) "
                + "(\(order.clientOrderID))"
        }
        if !kept.isEmpty {
            out.log(
                .notice,
                "leaving \(kept.count) protective order(s) working at the broker for the open positions: "
                    + kept.map(name).joined(separator: ", "))
        }
        let going = engine.orders.openOrders.filter { $0.state == .pendingCancel && engine.isProtection($0) }
        if !going.isEmpty {
            out.log(
                .notice,
                "already being cancelled when the stop came (the strategy made way for a trade): "
                    + going.map(name).joined(separator: ", ")
                    + "; if the trade does not happen, the strategy protects the position again before the bot exits")
        }
    }

    /// After each input of the stop: a flatten's closes once nothing works, and the end of the drain when it is due.
    mutating func continueStop(at now: Timestamp, _ out: inout Actions) {
        guard case .stopping = phase, var stopping else { return }
        if var flatten = stopping.flatten, !flatten.closesSent, case .draining = stopping.step, connected,
            bookGate == nil, engine.orders.openOrderCount == 0
        {
            let closes = engine.closeAllPositions(reference: "EXIT")
            flatten.closesSent = true
            stopping.flatten = flatten
            self.stopping = stopping
            out.log(.notice, "stop: closing \(closes.count) positions at market")
            for command in closes { carryOut(command, &out) }
        }
        drainIfDue(at: now, &out)
    }

    /// What the drain still waits for (`nil`: nothing): orders whose broker answer is due — placed and not yet
    /// acknowledged, being cancelled or modified — and a flatten's closes.
    func stopUnsettled() -> String? {
        var waiting: [String] = []
        let inFlight = engine.orders.openOrders.filter {
            switch $0.state {
            case .pendingSubmit, .submitted, .pendingCancel, .pendingReplace: true
            default: false
            }
        }
        if !inFlight.isEmpty {
            waiting.append(
                "\(inFlight.count) order(s) in flight ("
                    + inFlight.map { "\($0.clientOrderID) \($0.state.rawValue)" }.joined(separator: ", ") + ")")
        }
        if let flatten = stopping?.flatten, !flatten.closesSent || engine.orders.openOrderCount > 0 {
            waiting.append(flatten.closesSent ? "the closes to fill" : "the working orders to end before the closes")
        }
        return waiting.isEmpty ? nil : waiting.joined(separator: " and ")
    }

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

    /// On the tick, after each input of the stop, and at a fast stop: once the drain is over (its time, and the answers
    /// it waits for or `stopSettleLimit`), the final snapshot.
    mutating func drainIfDue(at now: Timestamp, _ out: inout Actions) {
        guard var stopping, case .draining(let until) = stopping.step, now >= until || stopping.fast else { return }
        if !stopping.fast, let settleBy = stopping.settleBy, now < settleBy, let waiting = stopUnsettled() {
            if !stopping.saidWaiting {
                stopping.saidWaiting = true
                out.log(.notice, "the stop waits for \(waiting) (at most \(Self.text(settleBy - now)))")
                out.append(.wakeUp(at: settleBy))
            }
            self.stopping = stopping
            return
        }
        if let settleBy = stopping.settleBy, now >= settleBy, let waiting = stopUnsettled() {
            out.log(.warning, "the stop waited \(Self.text(now - until)) after its drain and still waits for \(waiting); going on")
        }
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
        finishRun(brokerPositions: brokerPositions, broker: final, &out)
    }

    /// The stop without a connection: open orders stay at the broker, executions are not re-read.
    mutating func stopWithoutConnection(_ out: inout Actions) {
        guard case .stopping = phase else { return }
        out.log(.error, "stopping without a connection: open orders stay at the broker; executions not re-read")
        finishRun(brokerPositions: [:], &out)
    }

    /// The `stopped` event, the restart state, what is left at the broker, the summary.
    /// - Parameter broker: the broker's final snapshot (its open orders say what guards each position), `nil` when the
    ///   stop finishes without one (the engine's view is said then, as such).
    mutating func finishRun(brokerPositions: [Symbol: Quantity], broker: BrokerSnapshot? = nil, _ out: inout Actions) {
        guard phase != .finished else { return }
        sayRepeatedDenials(&out)
        let reason = stopReason ?? "stopped"
        if settings.journaled {
            out.append(journalEvent(.lifecycle, "stopped: \(reason)"))
        }
        journalRestartState(periodic: true, &out)
        logSummary(at: inputTime, &out)
        let left = sayLeftAtBroker(broker, &out)
        phase = .finished
        var summary = summary(brokerPositions: brokerPositions, reason: reason)
        summary.leftAtBroker = left
        out.append(.finish(summary))
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
        summary.buyingPowerCuts = engine.orders.orders.count(where: \.wasCutForBuyingPower)
        summary.currency = engine.portfolio.conversion.accountCurrency
        return summary
    }
}
