import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

/// The position check's state: when the next look is due and what the last looks saw.
struct PositionCheckState: Sendable {
    /// When the next check is due (`nil`: none planned).
    var nextAt: Timestamp?
    /// A request is under way.
    var inFlight = false
    /// The differences of the last check, waiting for a second look to confirm them.
    var suspected: [PositionDifference]?
    /// The differences raised as an ALERT (empty: none open).
    var alerted: [PositionDifference] = []
    /// The broker's positions that are not the bot's (another bot's, manual ones), by instrument: what the broker
    /// holds beyond the engine's book. Set at start; moves when the broker's position changes while still covering
    /// the bot's (another bot or a person traded).
    var external: [InstrumentID: Quantity] = [:]
    /// The symbols of the alerted differences, with what the broker holds for the bot: no order sells beyond it
    /// (`LiveSessionCore+BookGate.swift`) until the books agree again.
    var held: [InstrumentID: Quantity] = [:]
    /// What the broker held at its last look (the start's snapshot, then every position check and reconciliation), for
    /// the operator's table beside the bot's own quantities; `nil` before the first look.
    var broker: [InstrumentID: Quantity]?
    var brokerLookedAt: Timestamp?
    /// The bot's own quantities at that look: a fill since makes the look older than the bot's book.
    var bookAtLook: [InstrumentID: Quantity] = [:]
}

// The engine's positions against the broker's (`health.positionCheck`): after every reconnect's resynchronization and
// every interval while running. A difference seen twice, `confirmAfter` apart, is an ALERT, journaled, and by default
// pauses new orders until the positions agree again (working orders, protective stops among them, stay): an exit
// sized on a position the broker does not hold would open the opposite one (a gateway that lost its state, a
// position closed by hand in TWS). Its symbols get no order selling more than the broker holds in either mode.
// After a drop the reconciliation gate (`LiveSessionCore+BookGate.swift`) does the first looks instead.
extension LiveSessionCore {
    /// Plans a check now (after a reconnect): the tick sends it once the recovery is over.
    mutating func schedulePositionCheck(at now: Timestamp) {
        guard settings.positionCheck != nil else { return }
        positionCheck.nextAt = min(positionCheck.nextAt ?? now, now)
    }

    /// On the tick: the check when due, connected and not recovering.
    mutating func positionCheckTick(at now: Timestamp, _ out: inout Actions) {
        guard settings.positionCheck != nil, connected, recovery == nil, stopping == nil, bookGate == nil,
            !positionCheck.inFlight,
            let at = positionCheck.nextAt, now >= at
        else { return }
        positionCheck.inFlight = true
        positionCheck.nextAt = nil
        _ = request(.positions, for: .positionCheck, &out)
    }

    mutating func positionsAnswered(_ positions: [TWSPosition], at now: Timestamp, _ out: inout Actions) {
        positionCheck.inFlight = false
        // While the reconciliation gate is closed its own look decides (this answer may predate the resynchronization).
        guard let check = settings.positionCheck, case .running = phase, bookGate == nil else { return }
        counts.positionChecks += 1
        requestMarginCheck(&out)
        let found = comparePositions(positions, &out)
        let differences = found.map { $0.difference }
        guard !differences.isEmpty else {
            positionCheck.suspected = nil
            positionCheck.held = [:]
            if !positionCheck.alerted.isEmpty {
                positionCheck.alerted = []
                let text =
                    "positions agree with the broker's again"
                    + (entryPauses.contains(.positionMismatch) ? "; new orders resume" : "")
                out.log(.notice, text)
                journalPositionEvent(text, &out)
                setEntryPause(.positionMismatch, false)
                out.append(.milestone(.runner(.positionsAgree)))
            }
            plan(check.interval.map { now + $0 }, &out)
            return
        }
        guard positionCheck.suspected != nil else {
            // First sighting: an execution report may be on its way. Look again before raising anything.
            positionCheck.suspected = differences
            out.log(
                .info,
                "positions differ from the broker's (\(PositionDifference.describe(differences))); checking again in "
                    + Self.text(check.confirmAfter))
            plan(now + check.confirmAfter, &out)
            return
        }
        holdMismatched(found)
        if differences != positionCheck.alerted {
            positionCheck.alerted = differences
            let consequence =
                check.pausesEntries
                ? "No new orders until they agree (health.positionMismatch: pause); working orders stay. Compare "
                    + "with TWS's portfolio"
                : "Trading goes on (health.positionMismatch: alert). Compare with TWS's portfolio"
            let text = "ALERT: positions differ from the broker's: \(PositionDifference.describe(differences)). \(consequence)"
            out.log(.critical, text)
            journalPositionEvent(text, &out)
            if check.pausesEntries { setEntryPause(.positionMismatch, true) }
            out.append(.milestone(.runner(.positionMismatch(differences))))
        }
        // Keep looking, so the pause ends when the books agree again.
        plan(now + (check.interval ?? .minutes(1)), &out)
    }

    /// The broker's positions against the engine's book: the differences, by instrument. A broker position that
    /// moved but still covers the bot's book is another holder's trading: the external part follows it (logged).
    mutating func comparePositions(_ positions: [TWSPosition], _ out: inout Actions)
        -> [(id: InstrumentID, difference: PositionDifference)]
    {
        let broker = SnapshotMapping.snapshot(
            BrokerAnswers(openOrders: [], executions: [], positions: positions), context: desk.mappingContext
        ).0.positions
        recordBrokerLook(broker)
        // One that no longer covers it is a difference (unless every position is the bot's).
        var moved: [String] = []
        let differences = ids.compactMap { id -> (id: InstrumentID, difference: PositionDifference)? in
            let mine = engine.portfolio.position(for: id).quantity
            let theirs = broker[id] ?? .zero
            let external = positionCheck.external[id] ?? .zero
            guard mine + external != theirs else { return nil }
            if !settings.adoptsExternalPositions, OwnedPositions.covered(mine, by: theirs) == mine {
                moved.append("\(universe[id].symbol) \(external) → \(theirs - mine)")
                positionCheck.external[id] = theirs - mine
                return nil
            }
            return (id, PositionDifference(
                symbol: universe[id].symbol, engine: mine, broker: theirs, external: external.isZero ? nil : external))
        }
        if !moved.isEmpty {
            let text = "positions of other holders moved (not this bot's; never traded): \(moved.joined(separator: ", "))"
            out.log(.notice, text)
            journalPositionEvent(text, &out)
        }
        return differences
    }

    /// The broker's positions as last seen, with the bot's book at that moment (the operator's table).
    mutating func recordBrokerLook(_ broker: [InstrumentID: Quantity]) {
        positionCheck.broker = broker
        positionCheck.brokerLookedAt = dataTime
        positionCheck.bookAtLook = Dictionary(uniqueKeysWithValues: ids.map { ($0, engine.portfolio.position(for: $0).quantity) })
    }

    mutating func positionCheckFailed(_ failure: SessionFailure, at now: Timestamp, _ out: inout Actions) {
        positionCheck.inFlight = false
        guard let check = settings.positionCheck, stopping == nil else { return }
        out.log(.warning, "position check failed: \(failure)")
        plan(now + (check.interval ?? check.confirmAfter), &out)
    }

    private mutating func plan(_ at: Timestamp?, _ out: inout Actions) {
        positionCheck.nextAt = at
        if let at { out.append(.wakeUp(at: at)) }
    }

    private func journalPositionEvent(_ text: String, _ out: inout Actions) {
        guard settings.journaled else { return }
        out.append(journalEvent(.reconciliation, text))
    }
}
