import TradingModel

// A continuous future (`ES continuous`) held by the bot rolls to the next contract month on the roll day as one
// decision: the working orders on the month left are cancelled, a market order closes the position there and a
// second opens it in the month entered. Each leg names its contract month in its id (`ROLL-ESZ2013-<time>`,
// `ROLL-ESH2014-<time>`), so the order desk sends it to that month and a restart that finds a leg unsent sends it to
// the same one. The legs are ordinary orders: the engine realizes the old month's P&L at its price and opens the new
// month at its own, as IB's statements show it. Once both have filled, the exits that were working (a protective
// stop, a bracket's stop or target) go to the new month, their prices moved by what the two legs' prices differ, so
// the position keeps the protection it had, at the same distance. A backtest holds the position across the roll on
// back-adjusted prices and books what the two legs cost instead (`BacktestRunner.rollIfDue`).

/// A roll leg's id: `ROLL-`, the contract (`ESZ2013`), then the roll's time in seconds.
public enum FuturesRollID {
    static let marker = "ROLL"

    /// The id of the leg that trades `month` of `root`, for a roll decided at `time`.
    public static func clientOrderID(root: String, month: ContractMonth, at time: Timestamp) -> ClientOrderID {
        ClientOrderID("\(marker)-\(root)\(month.code)\(month.year)-\(time.nanoseconds / Timestamp.nanosecondsPerSecond)")
    }

    /// The contract month a roll leg trades and the roll's time in seconds (both legs of a roll share it), read from
    /// its id (also behind a run's orderRef prefix); `nil` for any other order.
    public static func leg(of id: String) -> (month: ContractMonth, seconds: Int64)? {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        // The run's orderRef prefix (`IBT:AB12.R3:`) ends with a colon.
        guard let k = parts.firstIndex(where: { $0 == marker || $0.hasSuffix(":\(marker)") }), k + 2 < parts.count,
            let seconds = Int64(parts[k + 2])
        else { return nil }
        let contract = parts[k + 1]
        guard contract.count >= 6, let year = Int(contract.suffix(4)) else { return nil }
        let code = contract.dropLast(4).last
        guard let code, let month = ContractMonth.codes.firstIndex(of: code), let month = ContractMonth(year: year, month: month + 1)
        else { return nil }
        return (month, seconds)
    }

    /// The contract month a roll leg trades (`leg(of:)`); `nil` for any other order.
    public static func legMonth(of id: String) -> ContractMonth? { leg(of: id)?.month }
}

/// A roll leg: an order the engine follows, or, for a roll a restart takes up, one that filled before it at a price.
public enum RollLeg: Sendable, Equatable {
    case order(OrderID)
    case filled(Price)
}

/// A roll whose legs are working: what to carry to the new month once both have filled.
@usableFromInline
struct PendingRoll: Sendable {
    var legOut: RollLeg
    var legIn: RollLeg
    /// The exits cancelled on the month left, to place again on the month entered.
    var exits: [OrderRequest]
    var time: Timestamp

    func has(_ orderID: OrderID) -> Bool { legOut == .order(orderID) || legIn == .order(orderID) }
}

/// What a roll sends: the cancels of the month left's working orders, then the two legs (out, in).
public struct FuturesRollOrders: Sendable, Equatable {
    public var cancels: [EngineCommand]
    public var legOut: Order
    public var legIn: Order
}

extension EngineCore {
    /// Rolls `quantity` of a continuous future (what is held in the month `old`: negative when short) to the month
    /// `new`: cancels the instrument's working orders and creates the two market legs, whatever the risk rules, a
    /// pause or the kill switch say (a roll keeps what the strategy holds; refusing one leg would leave it half done).
    /// The legs are stamped with `time`, the market's first moment in the new month (a 5-second bar of the roll day),
    /// not the last strategy bar's.
    /// - Returns: `nil` when the quantity is zero, the instrument is no future, or a roll is already working on it.
    public mutating func rollPosition(
        _ id: InstrumentID, quantity signed: Quantity, from old: ContractMonth, to new: ContractMonth, at time: Timestamp
    ) -> FuturesRollOrders? {
        let held = signed.units
        guard held != 0, pendingRolls[id] == nil, case let .future(future) = _state.universe[id].kind else { return nil }
        let closing: Side = held > 0 ? .sell : .buy
        let quantity = Quantity(units: Int64(held.magnitude))
        var cancels: [EngineCommand] = []
        var exits: [OrderRequest] = []
        for order in _state.orders.openOrders(for: id) where order.state != .pendingCancel {
            if order.side == closing, order.type != .market, order.remainingQuantity.units > 0 {
                var exit = order.request
                exit.quantity = min(order.remainingQuantity, quantity)
                exits.append(exit)
            }
            requestCancel(order.id, into: &cancels)
        }
        let now = max(time, _state.now)
        func leg(_ side: Side, _ month: ContractMonth) -> Order? {
            let request = OrderRequest(
                instrument: id, side: side, quantity: quantity, type: .market, timeInForce: .day,
                clientOrderID: FuturesRollID.clientOrderID(root: future.spec.root, month: month, at: now))
            let orderID = _state.orders.create(request, at: now)
            _state.orders.apply(.submitted, to: orderID, at: now)
            return _state.orders.order(orderID)
        }
        guard let legOut = leg(closing, old), let legIn = leg(closing == .sell ? .buy : .sell, new) else { return nil }
        pendingRolls[id] = PendingRoll(legOut: .order(legOut.id), legIn: .order(legIn.id), exits: exits, time: now)
        return FuturesRollOrders(cancels: cancels, legOut: legOut, legIn: legIn)
    }

    /// After a fill or the end of a roll leg: once both legs have filled, the carried exits go to the new month at
    /// prices moved by the legs' difference; a leg that ended without filling ends the roll (the session alerts).
    @usableFromInline
    mutating func rollLegChanged(_ orderID: OrderID, into commands: inout [EngineCommand]) {
        guard let (id, roll) = pendingRolls.first(where: { $0.value.has(orderID) }) else { return }
        finishRoll(id, roll, into: &commands)
    }

    /// A roll a restart found cut short (a crash after its legs were journaled): its legs as the restart found them
    /// (followed again, or filled while the bot was down) and the exits the roll cancelled on the month left. Once
    /// both legs have filled (at once, when they already had) the exits go to the new month as `rollLegChanged` sends
    /// them, under the ids the run before would have given them.
    /// - Returns: the exits' submits when both legs had filled; none while one works or when one ended unfilled.
    public mutating func resumeRoll(
        _ id: InstrumentID, legOut: RollLeg, legIn: RollLeg, exits: [OrderRequest], decidedAt time: Timestamp
    ) -> [EngineCommand] {
        let roll = PendingRoll(legOut: legOut, legIn: legIn, exits: exits, time: time)
        pendingRolls[id] = roll
        var commands: [EngineCommand] = []
        finishRoll(id, roll, into: &commands)
        return commands
    }

    /// Where a leg stands: working, filled at a price, or ended without filling.
    private enum LegState {
        case working, filled(Price), ended
    }

    private func state(of leg: RollLeg) -> LegState {
        switch leg {
        case .filled(let price): return .filled(price)
        case .order(let orderID):
            guard let order = _state.orders.order(orderID) else { return .ended }
            if order.state == .filled, let price = order.averageFillPrice { return .filled(price) }
            return order.isOpen ? .working : .ended
        }
    }

    private mutating func finishRoll(_ id: InstrumentID, _ roll: PendingRoll, into commands: inout [EngineCommand]) {
        switch (state(of: roll.legOut), state(of: roll.legIn)) {
        case (.ended, _), (_, .ended):
            pendingRolls[id] = nil
            return
        case (.filled(let outPrice), .filled(let inPrice)):
            carryExits(id, roll, gap: inPrice.units - outPrice.units, into: &commands)
        default:
            return
        }
    }

    /// Both legs filled: the exits go to the new month, moved by the legs' gap.
    private mutating func carryExits(_ id: InstrumentID, _ roll: PendingRoll, gap: Int64, into commands: inout [EngineCommand]) {
        pendingRolls[id] = nil
        let held = Quantity(units: Int64(_state.portfolio.position(for: id).quantity.units.magnitude))
        let seconds = roll.time.nanoseconds / Timestamp.nanosecondsPerSecond
        var legs: [String: Int64] = [:]
        for exit in roll.exits {
            var request = exit
            request.quantity = min(exit.quantity, held)
            guard request.quantity.units > 0, let type = exit.type.shifted(by: gap) else { continue }
            request.type = type
            request = request.onTick(ticks(id), reference: mark(id))
            // A protective order's id (`ProtectiveOrders.isProtective`): the strategy and the stop see it as one.
            let leg = exit.isStopLike ? "SL" : "TP"
            let stamp = seconds + legs[leg, default: 0]
            legs[leg, default: 0] += 1
            request.clientOrderID = ClientOrderID("\(_state.universe[id].symbol.rawValue)-P\(stamp)-\(leg)")
            request.ocaGroup = exit.ocaGroup.map { "\($0)-R\(seconds)" }
            let orderID = _state.orders.create(request, at: _state.now)
            _state.orders.apply(.submitted, to: orderID, at: _state.now)
            if let order = _state.orders.order(orderID) { commands.append(.submit(order)) }
        }
    }
}

extension OrderType {
    /// The same order with its prices moved by `units` (a trailing distance is kept); `nil` when a price would not
    /// stay above zero.
    func shifted(by units: Int64) -> OrderType? {
        func move(_ price: Price) -> Price? {
            let moved = price.units + units
            return moved > 0 ? Price(units: moved) : nil
        }
        switch self {
        case .market, .trailingAmount, .trailingPercent, .trailingLimit: return self
        case .limit(let price): return move(price).map { .limit($0) }
        case .stop(let price): return move(price).map { .stop($0) }
        case let .stopLimit(stop, limit):
            guard let stop = move(stop), let limit = move(limit) else { return nil }
            return .stopLimit(stop: stop, limit: limit)
        case .midprice(let cap):
            guard let cap else { return self }
            return move(cap).map { .midprice(cap: $0) }
        }
    }
}
