import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

/// The reconciliation gate's state: closed from the moment the connection drops until the broker's book has been
/// read again and compared with the bot's.
struct BookGate: Sendable, Equatable {
    /// Why it closed ("the connection closed", "TWS lost its connection to IB").
    var reason: String
    var since: Timestamp
    /// The resynchronization after the reconnect applied the broker's executions, open and completed orders.
    var resynchronized = false
    /// A positions request of the gate is under way.
    var asked = false
    /// The differences of the first look, waiting for the second.
    var suspected: [PositionDifference]?
    /// When to look (again): a second look, or a resynchronization that failed.
    var lookAt: Timestamp?
    /// Commands refused while closed.
    var refused = 0
}

// Issue 44: nothing is traded on a book the bot has not confirmed. A gateway that restarted without its state
// answers the reconnect with no positions and no orders; an exit or a protective stop sized on the bot's book would
// then open the opposite position (SELL 885 MSFT against no MSFT). So from the drop until the executions, open and
// completed orders have been read again and the broker's positions compared with the bot's, every command is
// refused: entries, exits, modifies, cancels, protective re-sends. Refused, not held: a decision taken on an
// unconfirmed book is stale once the book is known, and the strategy decides again on the next bar (its protection
// is re-derived there, sized to the position then). Bars that arrive between the resynchronization and the
// comparison wait (as during a recovery) so that the strategy sees them on the confirmed book.
//
// A difference (seen twice, `confirmAfter` apart) is an ALERT; the symbols that differ never get an order that
// sells (or buys back) more than the broker holds for the bot, until the books agree, and with
// `health.positionMismatch: pause` entries stay paused (the operator's pause) until the operator resumes.
// The start-up needs no gate: its reconciliation builds the book from the broker's positions before any order.
extension LiveSessionCore {
    /// The connection dropped (or TWS lost IB): closes the gate, or restarts its progress if already closed.
    mutating func closeBookGate(_ reason: String, at now: Timestamp, _ out: inout Actions) {
        if bookGate == nil {
            out.log(.notice, "no order is sent until the broker's positions and orders are read again and agree with the bot's (\(reason))")
        }
        bookGate = BookGate(reason: bookGate?.reason ?? reason, since: bookGate?.since ?? now, refused: bookGate?.refused ?? 0)
    }

    /// The resynchronization after a drop is over: with the broker's orders in, its positions are asked for.
    mutating func bookGateResynchronized(succeeded: Bool, at now: Timestamp, _ out: inout Actions) {
        guard var gate = bookGate else { return }
        guard succeeded else {
            let retry = now + confirmAfter
            gate.lookAt = retry
            bookGate = gate
            out.log(.warning, "the broker's orders could not be read again; nothing is sent until they are (trying again in \(Self.text(confirmAfter)))")
            out.append(.wakeUp(at: retry))
            return
        }
        // Already compared once (a verification's resynchronization meanwhile): the planned look stands.
        guard !gate.resynchronized else { return }
        gate.resynchronized = true
        bookGate = gate
        askGatePositions(&out)
    }

    /// On the tick: a second look, or a resynchronization again after a failed one.
    mutating func bookGateTick(at now: Timestamp, _ out: inout Actions) {
        guard var gate = bookGate, connected, stopping == nil, !gate.asked, let at = gate.lookAt, now >= at else { return }
        if gate.resynchronized {
            askGatePositions(&out)
        } else if recovery == nil {
            gate.lookAt = nil
            bookGate = gate
            recover([.resynchronize], at: now, &out)
        }
    }

    private mutating func askGatePositions(_ out: inout Actions) {
        bookGate?.asked = true
        bookGate?.lookAt = nil
        _ = request(.positions, for: .gatePositions, &out)
    }

    mutating func gatePositionsFailed(_ failure: SessionFailure, at now: Timestamp, _ out: inout Actions) {
        // A request the drop ended: the reconnect starts the gate over.
        guard bookGate != nil, stopping == nil, connected else { return }
        let retry = now + confirmAfter
        bookGate?.asked = false
        bookGate?.lookAt = retry
        out.log(.warning, "the broker's positions could not be read (\(failure)); nothing is sent until they are")
        out.append(.wakeUp(at: retry))
    }

    /// The broker's positions after the resynchronization: agreement opens the gate; a difference is looked at
    /// again, then alerted and held.
    mutating func gatePositionsAnswered(_ positions: [TWSPosition], at now: Timestamp, _ out: inout Actions) {
        guard var gate = bookGate, case .running = phase else { return }
        gate.asked = false
        counts.positionChecks += 1
        let differences = comparePositions(positions, &out)
        if differences.isEmpty {
            let text =
                "the broker's positions and orders agree with the bot's after \(gate.reason)"
                + (gate.refused > 0 ? " (\(gate.refused) order command(s) were not sent meanwhile)" : "")
                + ": orders go out again"
            out.log(.notice, text)
            journalGateEvent(text, &out)
            openBookGate(at: now, &out)
            positionCheck.held = [:]
            // A difference alerted before the drop: the regular check says it is over and lifts its pause.
            if !positionCheck.alerted.isEmpty { schedulePositionCheck(at: now) }
            return
        }
        let found = differences.map { $0.difference }
        guard gate.suspected != nil else {
            // An execution of an order sent before the drop may still be on its way: look once more.
            gate.suspected = found
            gate.lookAt = now + confirmAfter
            bookGate = gate
            out.log(
                .info,
                "positions differ from the broker's after \(gate.reason) (\(PositionDifference.describe(found))); "
                    + "checking again in \(Self.text(confirmAfter)); nothing is sent meanwhile")
            out.append(.wakeUp(at: now + confirmAfter))
            return
        }
        let pauses = settings.positionCheck?.pausesEntries ?? true
        positionCheck.alerted = found
        holdMismatched(differences)
        if pauses {
            operatorState.paused = true
            operatorState.since = now
            engine.pauseEntriesOnly(true)
        }
        let symbols = found.map(\.symbol.rawValue).joined(separator: ", ")
        let text =
            "ALERT: after \(gate.reason) the broker's positions differ from the bot's: "
            + "\(PositionDifference.describe(found)). No order that sells more than the broker holds goes out for "
            + "\(symbols) until the books agree (it would open the opposite position); "
            + (pauses
                ? "new entries stay paused until the operator resumes (ibtrader ctl resume). "
                : "the rest trades on (health.positionMismatch: alert). ")
            + "Compare with TWS's portfolio; a restart of the bot takes the broker's positions as its own"
        out.log(.critical, text)
        journalGateEvent(text, &out)
        out.append(.milestone(.runner(.positionMismatch(found))))
        openBookGate(at: now, &out)
        positionCheck.nextAt = now + (settings.positionCheck?.interval ?? .minutes(1))
        out.append(.wakeUp(at: now + (settings.positionCheck?.interval ?? .minutes(1))))
    }

    private mutating func openBookGate(at now: Timestamp, _ out: inout Actions) {
        bookGate = nil
        positionCheck.suspected = nil
        if recovery == nil { releaseDeferredMarket(at: now, &out) }
    }

    /// Remembers, for each symbol that differs, what the broker holds for the bot: no order sells beyond it.
    mutating func holdMismatched(_ differences: [(id: InstrumentID, difference: PositionDifference)]) {
        positionCheck.held = Dictionary(
            differences.map { ($0.id, $0.difference.broker - ($0.difference.external ?? .zero)) },
            uniquingKeysWith: { $1 })
    }

    /// Refuses a command the gate or a held symbol forbids; `true` when it was dealt with here (nothing sent).
    mutating func interceptForBookGate(_ command: EngineCommand, _ out: inout Actions) -> Bool {
        // The stop's cancels go out: a cancel never opens a position, and the stop is the operator's decision.
        if stopping != nil, case .cancel = command { return false }
        let reason: String
        if let gate = bookGate {
            bookGate?.refused += 1
            reason = "not sent: the broker's book is not confirmed since \(gate.reason)"
        } else if !positionCheck.held.isEmpty, let symbol = oversells(command) {
            reason = "not sent: \(symbol)'s position differs from the broker's, which holds less than this order sells"
        } else {
            return false
        }
        switch command {
        case .submit, .submitBracket:
            followUps += OrderDesk.rejections(command.newOrders ?? [], reason, at: dataTime)
        case .modify(let id, _, _), .cancel(let id):
            followUps.append(.report(.modifyRejected(id, reason: reason, at: dataTime)))
        }
        out.log(.notice, "\(describe(command)) \(reason)")
        return true
    }

    /// The symbol of a held instrument whose position `command` would reduce beyond what the broker holds for the
    /// bot (an exit, a protective order, a resize); `nil` when it does not.
    private func oversells(_ command: EngineCommand) -> String? {
        let order: Order
        let quantity: Quantity
        switch command {
        case .submit(let submitted):
            order = submitted
            quantity = submitted.quantity
        case .submitBracket(let parent, _):
            order = parent
            quantity = parent.quantity
        case .modify(let id, let change, _):
            guard let working = engine.orders.order(id) else { return nil }
            order = working
            quantity = change.quantity.map { $0 - working.filledQuantity } ?? working.remainingQuantity
        case .cancel:
            return nil  // a cancel never opens a position
        }
        guard let held = positionCheck.held[order.instrument] else { return nil }
        let position = engine.portfolio.position(for: order.instrument).quantity.units
        let reduces = order.side == .sell ? position > 0 : position < 0
        // An order that opens or adds is an entry: the pause and the risk rules decide about it.
        guard reduces else { return nil }
        let cover = order.side == .sell ? max(held.units, 0) : max(-held.units, 0)
        return quantity.units > cover ? universe[order.instrument].symbol.rawValue : nil
    }

    private func describe(_ command: EngineCommand) -> String {
        switch command {
        case .submit(let order), .submitBracket(let order, _):
            "\(order.side.rawValue) \(order.quantity) \(universe[order.instrument].symbol) (\(order.clientOrderID))"
        case .modify(let id, _, _): "modify of order \(id)"
        case .cancel(let id): "cancel of order \(id)"
        }
    }

    private var confirmAfter: TimeSpan { settings.positionCheck?.confirmAfter ?? .seconds(15) }

    private func journalGateEvent(_ text: String, _ out: inout Actions) {
        guard settings.journaled else { return }
        out.append(journalEvent(.reconciliation, text))
    }
}
