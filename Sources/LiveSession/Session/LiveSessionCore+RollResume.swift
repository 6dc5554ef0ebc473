import JournalModel
import TradingEngine
import TradingModel

// A roll's exits (the protective stop or target working on the month left) are cancelled when the roll is decided and
// live in the engine's memory until both legs fill. A crash in between would leave the position in the new month
// guarded by nothing: the restart takes the roll up from the journal. The last roll's two legs are found by their ids
// (`ROLL-ESZ2023-<seconds>`, one decision's share the seconds), the exits as the roll chose them (the instrument's
// orders working when it was decided, on the closing side, not at market); an exit the broker still works on the
// month left is cancelled as the roll meant to. Once both legs have filled, before the crash or after, the exits go to
// the new month under the ids the run before would have given them (`EngineCore.resumeRoll`). A leg that ended
// unfilled ends the roll as it does in a running bot: the position is watched for its lost stop (an ALERT after the
// grace), and the next roll decision, if any, is the bot's as usual.
extension LiveSessionCore {
    /// Takes up each continuous future's last roll whose exits were not placed. After the restart's adoptions and
    /// resends (the legs are orders the engine follows again), before the first bar.
    mutating func resumeRolls(_ journal: JournalRestartData, _ out: inout Actions) {
        for id in rolledIDs { resumeRoll(id, journal, &out) }
    }

    private mutating func resumeRoll(_ id: InstrumentID, _ journal: JournalRestartData, _ out: inout Actions) {
        let symbol = universe[id].symbol
        let rows = journal.orders.filter { $0.intent.symbol == symbol }
        let legs = rows.compactMap { row in FuturesRollID.leg(of: row.intent.orderRef.rawValue).map { (row: row, leg: $0) } }
        guard let seconds = legs.map(\.leg.seconds).max() else { return }
        let last = legs.filter { $0.leg.seconds == seconds }.sorted { $0.leg.month < $1.leg.month }
        guard last.count == 2 else { return }
        let (legOut, legIn) = (last[0].row, last[1].row)
        let decided = Timestamp(nanoseconds: seconds * Timestamp.nanosecondsPerSecond)
        // Placed already: the carried exits (or a strategy's protection since) are protective orders after the roll.
        guard !rows.contains(where: { ProtectiveOrders.isProtective($0.intent.orderRef) && $0.intent.createdAt >= decided })
        else { return }
        let closing = legOut.intent.side
        let exits = rows.filter { row in
            FuturesRollID.leg(of: row.intent.orderRef.rawValue) == nil && row.intent.createdAt < decided
                && row.intent.side == closing && row.intent.type != .market && row.filledQuantity < row.intent.quantity
                && (!row.state.isTerminal || (row.state == .canceled && row.updatedAt >= decided))
        }
        guard !exits.isEmpty else { return }
        let open = engine.orders.openOrders(for: id)
        func engineOrder(_ row: JournalOrder) -> OrderID? {
            open.first { $0.clientOrderID == row.intent.orderRef }?.id
        }
        func leg(_ row: JournalOrder) -> RollLeg? {
            if let order = engineOrder(row) { return .order(order) }
            guard row.state == .filled else { return nil }
            let fills = journal.fills.filter { $0.orderRef == row.intent.orderRef }.map { ($0.price, $0.quantity) }
            let filled = fills.reduce(Quantity.zero) { $0 + $1.1 }
            guard !filled.isZero else { return nil }
            return .filled(Self.averagePrice(fills, filled: filled))
        }
        let requests = exits.map { row in
            var request = OrderRequest(
                instrument: id, side: row.intent.side, quantity: row.intent.quantity - row.filledQuantity,
                type: row.intent.type, timeInForce: row.intent.timeInForce)
            request.ocaGroup = row.intent.ocaGroup
            request.execution = row.intent.execution
            return request
        }
        // What the roll cancelled and the broker still works (a crash before its cancel went out) goes now.
        for row in exits {
            if let order = engineOrder(row) { carryOut(.cancel(order), &out) }
        }
        let names = exits.map(\.intent.orderRef.rawValue).joined(separator: ", ")
        guard let out1 = leg(legOut), let in1 = leg(legIn) else {
            protection[id] = ProtectionWatch(wasCovered: true)
            let text = "the roll of \(symbol) decided before the restart ended without both legs filled: its exits "
                + "(\(names)) are not placed again"
            out.log(.warning, text)
            if settings.journaled { out.append(journalEvent(.roll, text)) }
            return
        }
        let commands = engine.resumeRoll(id, legOut: out1, legIn: in1, exits: requests, decidedAt: decided)
        let text = commands.isEmpty
            ? "the roll of \(symbol) decided before the restart is taken up: its exits (\(names)) go to the new month once both legs fill"
            : "the roll of \(symbol) decided before the restart had both legs filled: its exits (\(names)) go to the new month now"
        out.log(.notice, text)
        if settings.journaled { out.append(journalEvent(.roll, text)) }
        for command in commands { carryOut(command, &out) }
    }
}
