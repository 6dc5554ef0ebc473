import JournalModel
import TradingEngine
import TradingModel

// The operator's controls (dashboard, `ibtrader ctl`): each is journaled (what, who, why) before it acts, answered
// with a reply, and is an input like any other, so `ibtrader replay` re-runs it.
//
// - pause: no new entries (orders that open or add to a position); exits, cancels and working orders go on.
// - kill: no new orders at all; working orders (protective stops among them) stay at the broker.
// - flatten: kill, every working order cancelled, and once none is left, every position closed at market.
// - resume: lifts the operator's pause and kill, and a journal pause once the journal takes writes again: at once
//   when a write has succeeded since the failure, else when the resume's own journal entry does (answered then; if
//   it fails too, the pause stays and the answer says so).
extension LiveSessionCore {
    mutating func control(_ request: OperatorControl, at now: Timestamp, _ out: inout Actions) {
        switch phase {
        case .stopping, .finished:
            out.append(.reply(OperatorReply(id: request.id, done: false, message: "the bot is stopping")))
            return
        default: break
        }
        let who = request.by.isEmpty ? "the operator" : request.by
        let why = request.reason.isEmpty ? "" : " (\(request.reason))"
        let text = "\(request.action.rawValue) by \(who)\(why)"
        if settings.journaled { out.append(journalEvent(.control, text)) }
        let message: String
        switch request.action {
        case .reload:
            guard let risk = request.risk else {
                out.append(.reply(OperatorReply(id: request.id, done: false, message: "no risk limits came with the reload")))
                return
            }
            let changes = engine.replaceRisk(risk)
            message = changes.isEmpty
                ? "risk limits reloaded: nothing changed"
                : "risk limits reloaded: " + changes.map { "risk." + $0 }.joined(separator: "; ")
            if settings.journaled { out.append(journalEvent(.control, "\(text): \(message)")) }
        case .pause:
            operatorState.paused = true
            operatorState.since = now
            engine.pauseEntriesOnly(true)
            message = "entries paused; exits and working orders go on"
        case .kill:
            operatorState.killed = true
            operatorState.since = now
            setEntryPause(.operatorKill, true)
            message = "kill switch engaged: no new orders; working orders stay at the broker"
        case .flatten:
            operatorState.killed = true
            operatorState.since = now
            let cancels = engine.handle(.killSwitch(engaged: true))
            setEntryPause(.operatorKill, true)
            for command in cancels { carryOut(command, &out) }
            operatorState.flatten = FlattenState(requestedAt: now)
            message = "flattening: \(cancels.count) working orders cancelled; positions are closed at market once "
                + "no order is left working"
                + (journalHealth.failing ? " and the journal takes writes again (it fails writes now)" : "")
        case .resume:
            let journalPaused = entryPauses.contains(.journal)
            operatorState = OperatorState()
            engine.pauseEntriesOnly(false)
            setEntryPause(.operatorKill, false)
            if journalPaused, journalHealth.failing {
                // The control's journal entry above is the test: `journalWritable` or `journalFailed` answers.
                journalHealth.resumeRequest = request.id
                out.log(.notice, "operator: \(text): waiting for the journal to take a write")
                return
            }
            if journalPaused { setEntryPause(.journal, false) }
            message = "trading resumed" + (journalPaused ? " (the journal pause is lifted too: writes succeed again)" : "")
                + heldNote
        }
        out.log(.notice, "operator: \(text): \(message)")
        out.append(.reply(OperatorReply(id: request.id, done: true, message: message)))
        continueFlatten(at: now, &out)
    }

    /// The symbols whose positions still differ from the broker's: a resume does not let them sell what the broker
    /// does not hold (that would open the opposite position).
    private var heldNote: String {
        guard !positionCheck.held.isEmpty else { return "" }
        let symbols = positionCheck.held.keys.sorted { $0.index < $1.index }.map { universe[$0].symbol.rawValue }
        return "; \(symbols.joined(separator: ", ")) still differ from the broker's positions: no order sells more "
            + "than the broker holds until they agree (a restart of the bot takes the broker's positions as its own)"
    }

    /// A flatten's second half: once no order is left working, every position is closed at market.
    mutating func continueFlatten(at now: Timestamp, _ out: inout Actions) {
        // Closes wait for a confirmed book (the reconciliation gate): a close sized on a position the broker lost
        // would open the opposite one. They also wait while journal writes fail (a close that cannot be journaled
        // first is not sent), and go once a write succeeds, though the journal pause holds the strategy until the
        // operator resumes: the flatten is the operator's own decision.
        guard var flatten = operatorState.flatten, case .running = phase, connected, bookGate == nil,
            !journalHealth.failing
        else { return }
        if !flatten.closesSent {
            let working = engine.orders.openOrderCount
            guard working == 0 else {
                if !flatten.warned, now - flatten.requestedAt >= .seconds(30) {
                    flatten.warned = true
                    operatorState.flatten = flatten
                    out.log(.warning, "flatten waits for \(working) working orders to be cancelled before closing positions")
                }
                return
            }
            let closes = engine.closeAllPositions(reference: "FLAT")
            flatten.closesSent = true
            operatorState.flatten = flatten
            out.log(.notice, "flatten: closing \(closes.count) positions at market")
            for command in closes { carryOut(command, &out) }
            return
        }
        let open = engine.portfolio.positions.filter { !$0.isFlat }.count
        if open == 0, engine.orders.openOrderCount == 0 {
            operatorState.flatten = nil
            out.log(.notice, "flatten done: every position is closed; the kill switch stays engaged until resume")
        }
    }
}

/// The operator's state: pause, kill, a flatten under way.
struct OperatorState: Sendable, Equatable {
    var paused = false
    var killed = false
    var since: Timestamp?
    var flatten: FlattenState?
}

/// A flatten under way.
struct FlattenState: Sendable, Equatable {
    var requestedAt: Timestamp
    var closesSent = false
    var warned = false
}
