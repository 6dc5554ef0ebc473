import TradingModel

extension EngineCore {
    /// Closes the position of an instrument whose market data has ended (a delisting, a file that stops early):
    /// its open orders are cancelled (the commands go to `commands`, for the broker or simulator to confirm) and
    /// the position is booked closed at `price`, its last price, by an order whose note says so. The strategy is
    /// told about the fill as about any other. Without it a position would sit at a stale mark, holding a
    /// place and capital, for the rest of the run.
    /// - Parameters:
    ///   - instrument: the instrument whose data ended.
    ///   - price: its last price.
    ///   - commands: receives the cancels of its open orders.
    /// - Returns: the closing fill, or `nil` when the position was flat.
    public mutating func closeOut(
        _ instrument: InstrumentID, at price: Price, into commands: inout [EngineCommand]
    ) -> Fill? {
        guard instrument.index >= 0, instrument.index < _state.universe.count else { return nil }
        for order in _state.orders.openOrders(for: instrument) where order.state != .pendingCancel {
            requestCancel(order.id, into: &commands)
        }
        let quantity = _state.portfolio.position(for: instrument).quantity
        guard quantity.units != 0 else { return nil }
        let side: Side = quantity.units > 0 ? .sell : .buy
        let request = OrderRequest.market(instrument, side, quantity.magnitude)
        let id = _state.orders.create(request, at: _state.now)
        _state.orders.apply(.submitted, to: id, at: _state.now)
        _state.orders.apply(.accepted, to: id, at: _state.now)
        let fill = Fill(
            orderID: id, instrument: instrument, side: side, quantity: quantity.magnitude, price: price,
            timestamp: _state.now)
        guard _state.orders.record(fill), let clientID = _state.orders.clientOrderID(of: id) else { return nil }
        _state.orders.annotate(id, note: "data ended: closed at the last price \(price)")
        _state.portfolio.mark(instrument, at: price)
        _state.portfolio.apply(fill)
        if monitorsEquity { _riskMonitor.observe(equity: _state.portfolio.equity, at: _state.now) }
        dispatch(.filled(fill, clientID), into: &commands)
        return fill
    }
}
