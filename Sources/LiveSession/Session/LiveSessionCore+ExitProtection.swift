import JournalModel
import TradingEngine
import TradingModel

/// What guards one position the bot leaves at the broker when it exits (the exit line, `LiveRunSummary.leftAtBroker`).
public struct ExitProtection: Sendable, Equatable, Codable {
    /// One stop working at the broker on the side that closes the position.
    public struct Stop: Sendable, Equatable, Codable {
        /// Side and pricing as TWS names them: `SELL STP 85.00`.
        public var terms: String
        /// How much of the position it closes.
        public var quantity: Quantity
        /// Its orderRef (the bot's `IBT:…` reference, or what another client gave it).
        public var reference: String
        /// `false` while the broker has not acknowledged it yet (placed during the stop, its answer still due).
        public var acknowledged: Bool
    }

    /// The symbol.
    public var symbol: Symbol
    /// The bot's position (signed).
    public var quantity: Quantity
    /// The broker's position when it differs from the bot's (`nil`: the same, or unknown).
    public var brokerQuantity: Quantity?
    /// The stops that close it, at the broker (or, without the broker's last word, as the bot last knew them).
    public var stops: [Stop]
    /// Why it is not (fully) protected, as far as the bot knows (`nil` when it is).
    public var why: String?

    /// The part of the position the stops close.
    public var covered: Quantity { Quantity(units: stops.reduce(Int64(0)) { $0 + $1.quantity.units }) }
    /// Whether the stops close all of it.
    public var isProtected: Bool { covered.units >= abs(quantity.units) }

    /// `AAPL 10 protected by SELL STP 85.00 for 10 (IBT:…:AAPL-P1700000060-SL)`, `MSFT 5 UNPROTECTED (its stop was
    /// refused: …)`, `GOOG 20 partly protected (SELL STP 90.00 for 10 …): 10 UNPROTECTED`.
    public var description: String {
        let broker = brokerQuantity.map { " (the broker holds \($0))" } ?? ""
        let list = stops.map {
            "\($0.terms) for \($0.quantity) (\($0.reference))" + ($0.acknowledged ? "" : ", not yet acknowledged")
        }.joined(separator: ", ")
        let reason = why.map { " (\($0))" } ?? ""
        if stops.isEmpty { return "\(symbol) \(quantity)\(broker) UNPROTECTED\(reason)" }
        if isProtected { return "\(symbol) \(quantity)\(broker) protected by \(list)" }
        let bare = Quantity(units: abs(quantity.units) - covered.units)
        return "\(symbol) \(quantity)\(broker) partly protected by \(list): \(bare) UNPROTECTED\(reason)"
    }
}

// At the exit, one line says what is left at the broker: each position the bot holds and the stops that guard it there
// (which, at what price, for how much), from the broker's own open orders of the stop's final snapshot, or, when the
// stop finishes without it, from what the bot last knew (and says so). A position left without a stop for all of it is
// an ALERT (kind `protection`) naming why as far as the bot knows (its stop refused, never placed, cancelled), unless
// the run never protects positions (a strategy that places no stops: said as a warning, its configured way).
extension LiveSessionCore {
    /// Says what is left at the broker; returns it for the summary.
    mutating func sayLeftAtBroker(_ broker: BrokerSnapshot?, _ out: inout Actions) -> [ExitProtection] {
        guard ticketRun == nil, cancelRun == nil, modifyRun == nil else { return [] }
        let left = leftAtBroker(broker)
        let source = broker == nil
            ? " (as the bot last knew: the broker's final positions and orders were not read)"
            : " (the broker's positions and open orders at the stop)"
        guard !left.isEmpty else {
            out.log(.notice, "exit: no position left at the broker\(source)")
            return left
        }
        out.log(.notice, "exit: left at the broker\(source): " + left.map(\.description).joined(separator: "; "))
        let bare = left.filter { !$0.isProtected }
        guard !bare.isEmpty else { return left }
        let what = bare.map { position in
            let uncovered = Quantity(units: abs(position.quantity.units) - position.covered.units)
            return "\(uncovered) \(position.symbol)" + (position.why.map { " (\($0))" } ?? "")
        }.joined(separator: ", ")
        guard runProtectsPositions else {
            out.log(.warning, "exit: \(what) left at the broker without a stop: this run's strategy places none")
            return left
        }
        let text = "ALERT: the bot exits leaving \(what) without its protective stop at the broker: nothing guards "
            + "\(bare.count == 1 ? "it" : "them") until the bot runs again. Place a stop in TWS, or close the position"
        out.log(.critical, text)
        if settings.journaled { out.append(journalEvent(.reconciliation, text)) }
        return left
    }

    /// Each position of the bot (or, with the broker's snapshot, also one only the broker holds) and its stops.
    func leftAtBroker(_ broker: BrokerSnapshot?) -> [ExitProtection] {
        var left: [ExitProtection] = []
        for id in ids {
            let bot = engine.portfolio.position(for: id).quantity
            let atBroker = broker?.positions[id] ?? .zero
            guard bot != .zero || atBroker != .zero else { continue }
            let held = bot != .zero ? bot : atBroker
            let closing: Side = held.units > 0 ? .sell : .buy
            let stops: [ExitProtection.Stop]
            if let broker {
                stops = broker.openOrders.compactMap { order in
                    guard let request = order.request, request.instrument == id, request.side == closing,
                        request.isStopLike, !order.status.isTerminal, order.status != .pendingCancel
                    else { return nil }
                    return ExitProtection.Stop(
                        terms: "\(closing.rawValue) \(request.type)", quantity: order.totalQuantity,
                        reference: order.orderRef, acknowledged: order.status.isWorking)
                }
            } else {
                stops = engine.orders.openOrders(for: id).compactMap { order in
                    guard order.side == closing, order.request.isStopLike, order.state != .pendingCancel else {
                        return nil
                    }
                    let acknowledged = order.state != .pendingSubmit && order.state != .submitted
                    return ExitProtection.Stop(
                        terms: "\(closing.rawValue) \(order.type)", quantity: order.remainingQuantity,
                        reference: desk.book.order(order.id)?.orderRef ?? order.clientOrderID.rawValue,
                        acknowledged: acknowledged)
                }
            }
            var position = ExitProtection(
                symbol: universe[id].symbol, quantity: held,
                brokerQuantity: broker != nil && atBroker != bot ? atBroker : nil, stops: stops)
            if !position.isProtected { position.why = whyUnprotected(id) }
            left.append(position)
        }
        return left
    }

    /// What the bot knows of why a position has no (whole) stop: its latest protective order's end, or none placed.
    private func whyUnprotected(_ id: InstrumentID) -> String {
        let protective = engine.orders.orders.last {
            $0.instrument == id && ($0.request.isStopLike || ProtectiveOrders.isProtective($0.clientOrderID))
        }
        guard let order = protective else { return "no stop was placed for it" }
        let reason = order.reason.map { ": \($0)" } ?? ""
        switch order.state {
        case .denied, .rejected: return "its stop \(order.clientOrderID) was refused\(reason)"
        case .canceled: return "its stop \(order.clientOrderID) was cancelled\(reason)"
        case .expired: return "its stop \(order.clientOrderID) expired"
        case .filled: return "its stop \(order.clientOrderID) filled; the position changed since"
        default: return "its stop \(order.clientOrderID) covers \(order.remainingQuantity) (\(order.state.rawValue))"
        }
    }

    /// Whether this run protects its positions with stops at the broker: it placed (or found at its start) a protective
    /// order or a bracket's stop. A run that never did leaves positions as its strategy means to.
    var runProtectsPositions: Bool {
        engine.orders.orders.contains {
            ProtectiveOrders.isProtective($0.clientOrderID) || ($0.parentID != nil && $0.request.isStopLike)
        }
    }
}
