import Logging
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// The tick (every second, and at the wake-ups the core asks for): grace periods, farms, commissions overdue, the
// journal's checkpoint and restart state, the summary, the execution sync, the heartbeat, reconnects, the drain.
extension LiveSessionCore {
    mutating func tick(at now: Timestamp, _ out: inout Actions) {
        if settings.journaled, phase != .connecting { out.append(.journal(.checkpoint)) }
        connectivityTick(at: now, &out)
        farmTick(at: now, &out)
        reconnectIfDue(at: now, &out)
        drainIfDue(at: now, &out)
        finishStopIfOverdue(at: now, &out)
        guard case .running = phase else { return }
        followUps += desk.releaseOverdue(at: dataTime)
        let summaryDue = now >= nextSummary
        journalRestartState(periodic: summaryDue, &out)
        if summaryDue {
            if now >= nextSummaryLog {
                logSummary(at: now, &out)
                out.log(.info, desk.efficiency.summary)
                nextSummaryLog = now + settings.summaryLogEvery
            }
            nextSummary = now + settings.summaryInterval
        }
        if connected, let at = nextExecutionSync, now >= at {
            // The safety net for fills: the broker's list, journaled by execId (none, normally, is new). It looks back
            // to the last answered sync (with a margin for the two clocks), not over the whole day: a day of fills
            // re-read every 30 seconds was most of the journal's size. A reconnect re-reads them all.
            nextExecutionSync = now + settings.summaryInterval
            let since = executionSyncFrom.map { SessionRequest.executionsSince($0 - Self.executionSyncOverlap) }
            _ = request(since ?? .executions, for: .executionSync(askedAt: now), &out)
        }
        heartbeatTick(at: now, &out)
        protectionTick(at: now, &out)
        retryQuotes(at: now, &out)
        feedWatchTick(at: now, &out)
        bookGateTick(at: now, &out)
        positionCheckTick(at: now, &out)
    }

    /// How far before the last answered sync the periodic execution sync looks: the broker stamps executions on its
    /// clock, the bot asks on its own.
    static var executionSyncOverlap: TimeSpan { .minutes(5) }

    /// Escalates a long interruption (alert, pause).
    mutating func connectivityTick(at now: Timestamp, _ out: inout Actions) {
        for action in connectivity.tick(at: now) { carryOutLocally(action, &out) }
        for action in connectivity.desupport.tick(at: now) { carryOutLocally(action, &out) }
    }

    private mutating func farmTick(at now: Timestamp, _ out: inout Actions) {
        for action in farms.tick(at: now) { carryOutLocally(action, &out) }
        for farm in farms.alertedByLastTick { out.append(.milestone(.connectivity(.farmAlert(farm)))) }
    }

    // MARK: - Heartbeat

    /// After `connection.heartbeat` of silence, reqCurrentTime; no answer within its timeout is an ALERT (expected
    /// inside IB's reset window) and the connection is given up, so the reconnect path takes over.
    private mutating func heartbeatTick(at now: Timestamp, _ out: inout Actions) {
        let policy = settings.resilience.heartbeat
        guard policy.isEnabled, connected, let heard = heartbeat.lastHeard else { return }
        if let probe = heartbeat.probe {
            if now >= probe.deadline { heartbeatUnanswered(at: now, &out) }
            return
        }
        let silence = now - heard
        guard silence >= TimeSpan(policy.interval) else { return }
        let tag = request(.serverTime, for: .heartbeat, &out)
        let deadline = now + TimeSpan(policy.timeout)
        heartbeat.probe = (tag, deadline, silence)
        out.append(.wakeUp(at: deadline))
    }

    mutating func heartbeatAnswered(at now: Timestamp, _ out: inout Actions) {
        if let probe = heartbeat.probe {
            out.log(.debug, "heartbeat answered after \(Self.text(probe.silence)) of silence")
        }
        heartbeat.probe = nil
        heard(at: now)
        out.append(.milestone(.connectivity(.heartbeatAnswered)))
    }

    mutating func heartbeatUnanswered(at now: Timestamp, _ out: inout Actions) {
        guard let probe = heartbeat.probe, connected else { return }
        heartbeat.probe = nil
        pending[probe.tag] = nil
        let policy = settings.resilience.heartbeat
        let silence = Duration.nanoseconds(probe.silence.nanoseconds)
        let expected = settings.resilience.resetSchedule?.contains(now) ?? false
        let (level, text) = policy.unanswered(silence: silence, expected: expected)
        out.log(level, text)
        out.append(.milestone(.connectivity(.heartbeatUnanswered(expected: expected))))
        let reason = policy.reason(silence: silence)
        out.append(.disconnect(reason))
        lost(reason, at: now, &out)
    }

    // MARK: - Summary

    func logSummary(at now: Timestamp, _ out: inout Actions) {
        let account = engine.account
        var held: [String] = []
        for id in ids {
            let position = engine.portfolio.position(for: id)
            if position.quantity != .zero { held.append("\(universe[id].symbol) \(position.quantity)") }
        }
        let brokenFarms = farms.summary(at: now)
        let portfolio = engine.portfolio
        let balances = portfolio.balances.map { "\($0.cash) \($0.currency)" }
        let text =
            "portfolio: equity \(account.equity), cash \(account.cash)"
            + (balances.isEmpty ? "" : " \(portfolio.conversion.accountCurrency) (including \(balances.joined(separator: ", ")))")
            + ", exposure \(account.grossExposure), "
            + "positions [\(held.joined(separator: ", "))], bars \(counts.bars), fills \(counts.fills), "
            + "commands \(counts.commands)" + (brokenFarms.isEmpty ? "" : "; \(brokenFarms)")
        out.log(.info, text)
    }
}
