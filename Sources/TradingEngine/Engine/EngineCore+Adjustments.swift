import TradingModel

/// Corrections a runner applies between events, shared by backtests and live trading: a commission that arrived
/// after its fill, and a pause of new entries that does not cancel working orders.
extension EngineCore {
    /// Books a commission reported after its fill was applied (the fill carried none, or a provisional one):
    /// cash, the portfolio's commission total and the position's are corrected, so equity and P&L equal the
    /// broker's. The runner books each execution's late commission once (the broker deduplicates by execId).
    /// - Parameters:
    ///   - commission: the amount still to charge (the reported commission minus what the fill carried).
    ///   - orderID: the order the execution belongs to.
    /// - Returns: `false` (nothing booked) when the engine does not know the order.
    @discardableResult
    public mutating func bookLateCommission(_ commission: Money, for orderID: OrderID) -> Bool {
        guard let order = _state.orders.order(orderID) else { return false }
        _state.portfolio.bookCommission(commission, for: order.instrument)
        if monitorsEquity { _riskMonitor.observe(equity: _state.portfolio.equity, at: _state.now) }
        return true
    }

    /// Books what rolling a futures position to the next contract month cost (both legs' commissions and slippage),
    /// as commission: a backtest of a continuous future carries the position across the roll on back-adjusted prices,
    /// so only the cost moves the books.
    public mutating func bookRollCost(_ cost: Money, for instrument: InstrumentID) {
        _state.portfolio.bookCommission(cost, for: instrument)
        if monitorsEquity { _riskMonitor.observe(equity: _state.portfolio.equity, at: _state.now) }
    }

    /// Carries a continuous future's held position into its next month's prices, `gap` away (`Portfolio.carry`).
    public mutating func carryPosition(_ instrument: InstrumentID, movedBy gap: Price) {
        _state.portfolio.carry(instrument, movedBy: gap)
    }

    /// Pauses (or resumes) new orders without cancelling the working ones: the risk check refuses every new order
    /// as the kill switch does, but — unlike `.killSwitch(engaged: true)` — open orders (protective stops, targets)
    /// stay working. Used while the connection to the broker is down and while back-filled bars are replayed.
    /// Cancels and the engine's own timeouts still go out. `reason` is what the refusals say ("kill switch engaged"
    /// when none is given).
    public mutating func pauseEntries(_ paused: Bool, reason: String? = nil) {
        _riskMonitor.setKillSwitch(paused, reason: reason)
    }

    /// Pauses (or resumes) orders that open or add to a position: the operator's pause. Exits, cancels and the
    /// working orders go on.
    public mutating func pauseEntriesOnly(_ paused: Bool) {
        _riskMonitor.setEntriesPaused(paused)
    }

    /// Whether new orders are refused (kill switch or paused entries).
    public var areEntriesPaused: Bool { _riskMonitor.status.killSwitchEngaged }
}

extension EngineCore {
    /// Keeps a note on an order, shown as its reason (`orders.csv`, the journal): the figures of a buying-power cut at
    /// the fill, say. Does nothing for an unknown id.
    public mutating func noteOnOrder(_ id: OrderID, _ note: String) {
        _state.orders.annotate(id, note: note)
    }
}
