import TradingModel

/// The operator's "flatten all": market orders that close every position, outside the risk rules. The kill switch
/// stays engaged (a flatten is the end of trading until someone releases it), so nothing else goes out; the
/// closing orders are not the strategy's and are not checked against its limits, because an exit that a limit
/// could deny would leave the book open exactly when the operator wants it closed.
extension EngineCore {
    /// Closes every non-flat position with a market order (DAY), whatever the risk rules say.
    /// Call it once the working orders are cancelled: a protective stop still working could fill beside it.
    /// - Parameter reference: the orders' reference prefix (their client order ids are `<reference>-<symbol>`).
    /// - Returns: the submits, one per position, in instrument order.
    public mutating func closeAllPositions(reference: String = "FLAT") -> [EngineCommand] {
        var commands: [EngineCommand] = []
        for position in _state.portfolio.positions where !position.isFlat {
            let held = position.quantity.units
            let symbol = _state.universe[position.instrument].symbol
            let request = OrderRequest(
                instrument: position.instrument, side: held > 0 ? .sell : .buy,
                quantity: Quantity(units: held.magnitude.toInt64), type: .market, timeInForce: .day,
                clientOrderID: ClientOrderID("\(reference)-\(symbol)"))
            let id = _state.orders.create(request, at: _state.now)
            _state.orders.apply(.submitted, to: id, at: _state.now)
            if let order = _state.orders.order(id) { commands.append(.submit(order)) }
        }
        return commands
    }
}
