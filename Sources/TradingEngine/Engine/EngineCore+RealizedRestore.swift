import TradingModel

extension Portfolio {
    /// The realized P&L (before commissions) the books imply: cash + the positions' cost at their average prices −
    /// the starting cash + the commissions paid (a future's cost is not in cash, so not in the basis; a cost in another
    /// currency at its latest rate). Average-cost
    /// accounting makes this equal to the sum of what every fill realized (up to the rounding of average prices,
    /// 1e-8 per unit when a position is added to); it is how a restart recovers the total from the restored cash,
    /// commissions and positions.
    public var impliedRealizedPnL: Money {
        var basis = Money.zero
        // A future's cost never left cash: its realized P&L is in cash already.
        for position in positions where !position.isFlat && position.paysNotional {
            basis += Money(units: FixedPoint.multiply(position.averagePrice.units, position.quantity.units))
                .times(position.multiplier).converted(at: rate(for: position.instrument))
        }
        return cash + basis - initialCash + commissions
    }
}

extension EngineCore {
    /// Sets the realized-P&L total after a restart to what the restored books imply
    /// (`Portfolio.impliedRealizedPnL`), after `restore(positions:at:)` and `restore(cash:commissions:at:)`.
    ///
    /// The positions are restored at the broker's average cost, which (at IB) includes the opening commission, so
    /// with positions open the split between realized and unrealized can differ from the run before by those
    /// commissions; the total P&L (realized − commissions + unrealized = equity − starting cash) is kept exactly,
    /// and flat, the realized total is exactly the run before's. Per-position realized P&L is not restored. The
    /// strategy is not called.
    /// - Returns: the restored total.
    @discardableResult
    public mutating func restoreRealizedPnL() -> Money {
        let total = _state.portfolio.impliedRealizedPnL
        _state.portfolio.realizedPnL = total
        return total
    }
}
