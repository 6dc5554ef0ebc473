import TradingModel

// A position in a futures contract month is not held into its expiry: from the contract's roll day
// (`FutureSpec.rollDay(of:days:)`, `EngineConfig.futuresRollDays` before its last trading day, the day new entries
// stop: `contractExpiry`) the engine closes it with a market order after the strategy has seen the bar, its other
// working orders on the contract cancelled first, whatever the risk rules say (an exit a limit or a halt could deny
// would leave the position to expire: physically delivered contracts are liquidated by IB itself before delivery,
// index futures settle in cash). Backtest and bot run the same code, so they leave on the same bar. The order's
// client id says why: `EXPIRY-<symbol>-<bar time>`. A rolled instrument (`ES continuous`) rolls instead.
extension EngineCore {
    /// Each instrument's day (days since 1970) from which a held position is closed; `Int64.max` for none.
    static func expiryExitDays(_ universe: Universe, rollDays: Int) -> [Int64] {
        universe.instruments.map { instrument in
            guard case let .future(future) = instrument.kind, let month = future.month else { return .max }
            return future.spec.rollDay(of: month, days: rollDays)
        }
    }

    /// Closes a contract month's position on or after its roll day, unless a market order already closes it.
    @usableFromInline
    mutating func leaveExpiringContract(_ id: InstrumentID, at time: Timestamp, into commands: inout [EngineCommand]) {
        guard FutureSpec.tradingDay(of: time) >= expiryExitDays[id.index] else { return }
        let held = _state.portfolio.position(for: id).quantity.units
        guard held != 0 else { return }
        let side: Side = held > 0 ? .sell : .buy
        let open = _state.orders.openOrders(for: id)
        if open.contains(where: { $0.side == side && $0.type == .market }) { return }
        for order in open { requestCancel(order.id, into: &commands) }
        let symbol = _state.universe[id].symbol
        let request = OrderRequest(
            instrument: id, side: side, quantity: Quantity(units: Int64(held.magnitude)), type: .market,
            timeInForce: .day, clientOrderID: ClientOrderID("EXPIRY-\(symbol)-\(time.nanoseconds / Timestamp.nanosecondsPerSecond)"))
        let orderID = _state.orders.create(request, at: _state.now)
        _state.orders.apply(.submitted, to: orderID, at: _state.now)
        if let order = _state.orders.order(orderID) { commands.append(.submit(order)) }
    }
}
