import TradingEngine
import TradingModel

// When the tick next has work: what lets a session in virtual time (`ibtrader sandbox`, the suite's venue, the soak)
// skip the seconds in which nothing can happen (nights, weekends, the quiet between bars), as a backtest skips them,
// instead of handling 86,400 ticks a simulated day. Live, the wall clock ticks every second anyway.
//
// The answer is never later than the tick that would have work: while anything is in motion (starting, reconnecting,
// stopping, a recovery, the reconciliation gate, a flatten, an interruption, a broken farm, an order waiting in the
// book, a feed watch that is not counting) it is the next second, as live; otherwise the earliest of the timers the
// tick looks at. The driver also ticks a second after every other input, as the wall clock's tick would come, so
// what an input changes (a position losing its stop, the day turning) is looked at when it would be live.
extension LiveSessionCore {
    /// The time of the next tick with work, at least a second after `now`.
    public func nextTickDue(after now: Timestamp) -> Timestamp {
        let soon = now + .seconds(1)
        guard case .running = phase, connected, stopping == nil, recovery == nil, bookGate == nil,
            operatorState.flatten == nil, barFeed != nil
        else { return soon }
        if case .interrupted = connectivity.phase { return soon }
        // A broken farm: its ALERT after the grace period, and the feed watch begins again every tick while a market
        // data farm is down (its silence counts from the farm's return).
        if !farms.broken.isEmpty { return soon }
        if desk.isHoldingOrders { return soon }
        var due = nextSummary
        if let at = connectivity.desupport.nextAlert { due = min(due, at) }
        if let at = nextExecutionSync { due = min(due, at) }
        let heartbeatPolicy = settings.resilience.heartbeat
        if heartbeatPolicy.isEnabled, let heard = heartbeat.lastHeard {
            due = min(due, heartbeat.probe?.deadline ?? heard + TimeSpan(heartbeatPolicy.interval))
        }
        if let at = quoteRetryAt, quoteFeed == nil { due = min(due, at) }
        if settings.positionCheck != nil, !positionCheck.inFlight, let at = positionCheck.nextAt { due = min(due, at) }
        if let at = feedWatch.earliestLook(after: now, sessions: watchedHours) { due = min(due, at) }
        if let at = protectionDue(soon: soon) { due = min(due, at) }
        return max(due, soon)
    }

    /// When the protection watch next changes: at once for a position whose cover changed since it last looked (or
    /// that went flat), at the end of the grace for one uncovered and not yet alerted.
    private func protectionDue(soon: Timestamp) -> Timestamp? {
        let open = engine.orders.openOrders
        var due: Timestamp?
        var seen = 0
        for position in engine.portfolio.positions where !position.isFlat {
            seen += 1
            let watch = protection[position.instrument] ?? ProtectionWatch()
            if Self.isCoveredByStops(position, open: open) {
                if watch != ProtectionWatch(wasCovered: true) { return soon }
            } else if watch.wasCovered, !watch.alerted {
                guard let since = watch.uncoveredSince else { return soon }
                due = min(due ?? since + Self.protectionGrace, since + Self.protectionGrace)
            }
        }
        if protection.count > seen { return soon }  // a watch of a position now flat is let go on the tick
        return due
    }
}
