import TradingModel

/// An order resting in the simulator.
@usableFromInline
struct WorkingOrder: Sendable {
    var id: OrderID
    var instrument: InstrumentID
    var side: Side
    var sign: Int64
    var remaining: Quantity
    /// What has filled (since submission; a modification keeps it).
    var filled: Quantity = .zero
    /// The account whose buying power pays its fills (`MatchingEngine.funds`; 0 in a backtest).
    var account: Int = 0
    var mode: WaitMode
    var timeInForce: TimeInForce
    var ocaGroup: String?
    var parentID: OrderID?
    var submittedAt: Timestamp
    /// The first time at which market data may fill it (submission + latency, at least 1 ns later).
    var activeAt: Timestamp
    /// `false` for bracket children until their parent has filled completely.
    var isArmed: Bool
    /// Marked for removal at the end of the current pass.
    var isDone: Bool
    /// A GTD order's expiry: data at or after it cancels the order unfilled.
    var goodTill: Timestamp?
    /// Worked by IB's Adaptive algo: filled as a market order with `SimulationConfig.adaptiveSlippage`.
    var isAdaptive = false
    /// With `SimulationConfig.sessions`: the sessions it may trade in (`nil`: any time) and its own execution terms
    /// (a modification of its type works them out again).
    var sessions: TradingSessions.SessionSet?
    var execution: OrderExecution?
    /// With `SimulationConfig.sessions`, a DAY order's end (`TradingSessions.dayOrderExpiry`) instead of the UTC day.
    var dayExpiry: Timestamp?
    /// What its fills have paid so far: the schedule's minimum and maximum apply once per order, across its partial
    /// fills (`OrderCommission`).
    var commission = OrderCommission()
}
