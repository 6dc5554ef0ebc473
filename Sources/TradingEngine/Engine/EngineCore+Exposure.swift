import TradingModel

extension EngineCore {
    /// Gross exposure once `request` and the other open market orders have traded, all at current marks.
    ///
    /// Market orders submitted earlier in the same batch (a rebalance's sells, then its buys) have not filled yet
    /// when the next order is checked; counting them keeps a gross-exposure cap from being checked one order at a
    /// time against a portfolio that is about to change. An open order that *reduces* a position is credited only
    /// if it was submitted now: one that has already waited a bar without filling (e.g. a sell of a symbol whose
    /// data ended) is not counted on. Resting limit and stop orders (and bracket children) may never trade and are
    /// not counted.
    /// - Parameters:
    ///   - request: the order being checked.
    ///   - id: its order id (already open in `pendingSubmit`), skipped among the open orders.
    ///   - price: the request's reference price.
    func projectedGrossExposure(for request: OrderRequest, id: OrderID?, price: Price) -> Money {
        let portfolio = _state.portfolio
        var pending: [Int: Int64] = [request.instrument.index: request.side.sign * request.quantity.units]
        for openID in _state.orders.openIDs where openID != id {
            guard let order = _state.orders.order(openID), order.type == .market, order.parentID == nil else {
                continue
            }
            let signed = order.side.sign * order.remainingQuantity.units
            let held = portfolio.positions[order.instrument.index].quantity.units
            let reduces = held != 0 && (signed > 0) != (held > 0)
            if reduces && order.createdAt < _state.now { continue }
            pending[order.instrument.index, default: 0] += signed
        }
        var gross = portfolio.grossExposure
        for (index, delta) in pending where delta != 0 {
            let mark = index == request.instrument.index ? price : portfolio.marks[index]
            let held = portfolio.positions[index].quantity.units
            // `grossExposure` holds |q × mark| at the portfolio's mark; replace that term by the projected one.
            let booked = FixedPoint.multiply(portfolio.marks[index].units, held).magnitude
            let after = FixedPoint.multiply(mark.units, held + delta).magnitude
            gross.units += Int64(truncatingIfNeeded: after) - Int64(truncatingIfNeeded: booked)
        }
        return gross
    }
}
