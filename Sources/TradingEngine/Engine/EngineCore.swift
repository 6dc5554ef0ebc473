import TradingModel

/// The trading engine: a state machine shared unchanged by backtests and live trading.
///
/// It handles one `EngineEvent` at a time and returns the `EngineCommand`s its runner must carry out.
/// It owns the strategy, the portfolio, the order book and the risk checks; it never does I/O and never reads
/// a clock (time comes from events).
///
/// ```swift
/// var engine = EngineCore(universe: universe, strategy: MovingAverageCrossover(), config: EngineConfig())
/// for command in engine.handle(.bar(id, bar)) { broker.execute(command) }
/// for report in brokerReports { _ = engine.handle(.execution(report)) }
/// ```
///
/// Hot path: a bar with no orders and no timers costs a mark-to-market, the strategy call, and returns `[]`
/// (no allocation).
public struct EngineCore<S: Strategy>: Sendable {
    @usableFromInline var _state: EngineState
    @usableFromInline var _strategy: S
    /// Configuration (its risk limits can be replaced while running: `replaceRisk(_:)`).
    public internal(set) var config: EngineConfig
    @usableFromInline var _riskMonitor: RiskMonitor
    /// The strategy's action buffer; empty between events (see `dispatch(_:into:)`).
    @usableFromInline var _actions: [StrategyAction] = []
    var rules: [any RiskRule]
    @usableFromInline var monitorsEquity: Bool
    /// The volatility gauge (`risk.volatilitySymbol`, e.g. VIX): watched for the volatility pause, never traded.
    var volatilityInstrument: InstrumentID? {
        didSet { gaugeIndex = volatilityInstrument?.index ?? -1 }
    }
    /// The gauge's index, −1 for none (the bar hot path's test).
    @usableFromInline var gaugeIndex = -1
    /// Per instrument, `true` for a pair held in the universe only for its rate (`EngineConfig.rateOnlySymbols`).
    @usableFromInline var rateOnly: [Bool]
    /// Whether any instrument is rate-only (the bar path checks only then).
    @usableFromInline var hasRateOnly: Bool
    /// The closes the correlation limit measures (`nil` unless `risk.maxCorrelation` is set).
    @usableFromInline var _returns: ReturnHistory?
    /// The margin rule's rates (`nil` unless `risk.initialMarginPercent` is set).
    @usableFromInline var marginRates: MarginRates?
    /// Scheduled timers, sorted by time (then insertion).
    var timers: [(id: TimerID, at: Timestamp)] = []
    /// Earliest timer or order timeout; `Int64.max` when none.
    @usableFromInline var nextDeadline: Int64 = .max
    /// Modifications in flight.
    var pendingModifications: [OrderID: OrderModification] = [:]
    /// Per instrument, the day a futures contract month's position is closed from (`EngineCore+Expiry.swift`).
    @usableFromInline var expiryExitDays: [Int64]
    /// Whether any instrument is a futures contract month (the bar path checks expiry only then).
    @usableFromInline var hasContractMonths: Bool
    /// Rolls of continuous futures whose legs are working (`EngineCore+Roll.swift`).
    @usableFromInline var pendingRolls: [InstrumentID: PendingRoll] = [:]
    /// Every risk denial, in order.
    public internal(set) var denials: [RiskDenialRecord] = []
    /// Denials per rule.
    public internal(set) var denialCounts: [RiskRuleKind: Int] = [:]
    /// Every entry scaled down to fit a sizing limit (`RiskConfig.scaleOrdersToFit`), in order.
    public internal(set) var adjustments: [RiskAdjustmentRecord] = []
    /// Scaled-down entries per rule.
    public internal(set) var adjustmentCounts: [RiskRuleKind: Int] = [:]

    /// Creates an engine.
    /// - Parameters:
    ///   - universe: the instruments; ids index its array.
    ///   - strategy: the strategy value (moved in).
    ///   - config: cash, settlement and risk limits.
    public init(universe: Universe, strategy: S, config: EngineConfig = EngineConfig()) {
        self._state = EngineState(universe: universe, config: config)
        self._strategy = strategy
        self.config = config
        self._riskMonitor = RiskMonitor(config: config.risk)
        self.rules = config.risk.makeRules()
        self.monitorsEquity = config.risk.needsEquityMonitoring
        let gauge = config.risk.volatilitySymbol.flatMap { universe.id(of: $0) }
        self.volatilityInstrument = gauge
        self.gaugeIndex = gauge?.index ?? -1
        self.marginRates = MarginRates(config: config.risk, universe: universe)
        self.expiryExitDays = Self.expiryExitDays(universe, rollDays: config.futuresRollDays)
        self.hasContractMonths = expiryExitDays.contains { $0 != .max }
        let rateOnlyNames = Set(config.rateOnlySymbols)
        self.rateOnly = universe.instruments.map { rateOnlyNames.contains($0.symbol.rawValue) }
        self.hasRateOnly = rateOnly.contains(true)
        if config.risk.maxCorrelation != nil {
            _returns = ReturnHistory(
                instruments: universe.count,
                window: config.risk.correlationWindow ?? RiskConfig.defaultCorrelationWindow)
        }
    }

    /// Portfolio, orders and market data (read-only outside the engine).
    @inlinable public var state: EngineState { _state }
    /// The strategy.
    @inlinable public var strategy: S { _strategy }
    /// Risk flags and equity tracking.
    public var riskMonitor: RiskMonitor { _riskMonitor }
    /// The portfolio.
    @inlinable public var portfolio: Portfolio { _state.portfolio }
    /// The order book.
    public var orders: OrderManager { _state.orders }
    /// The time of the last event.
    @inlinable public var now: Timestamp { _state.now }
    /// Equity, cash and gross exposure right now, without copying the portfolio.
    @inlinable public var account: (equity: Money, cash: Money, grossExposure: Money) {
        (_state.portfolio.equity, _state.portfolio.cash, _state.portfolio.grossExposure)
    }

    /// Sets an instrument's minimum tick, on which every later order price is put (live: from the contract's
    /// details; a backtest takes the instrument's).
    public mutating func setTickSize(_ tick: Price, for id: InstrumentID) {
        _state.universe.setTickSize(tick, for: id)
    }

    /// Sets an instrument's price increments by price level, with which every later order price is rounded (live:
    /// the contract's market rule; a backtest keeps the instrument's single tick unless its universe has a table).
    public mutating func setTicks(_ table: TickTable, for id: InstrumentID) {
        _state.universe.setTicks(table, for: id)
    }

    /// Sets an instrument's sector for the sector limit (live: `universe.sectors`, else the contract details'
    /// industry; a backtest takes the data's).
    public mutating func setSector(_ sector: String, for id: InstrumentID) {
        _state.universe.setSector(sector, for: id)
    }

    /// The instrument's sector as the risk rules see it (empty: its own bucket).
    public func sector(of id: InstrumentID) -> String { _state.universe[id].sector }

    /// Handles one event.
    /// - Parameter event: the next event, in time order.
    /// - Returns: commands for the runner, in order (often `[]`).
    @inlinable
    public mutating func handle(_ event: EngineEvent) -> [EngineCommand] {
        var commands: [EngineCommand] = []
        handle(event, into: &commands)
        return commands
    }

    /// Handles one event, appending the commands to a buffer the runner owns (and may reuse: a bar without
    /// orders then costs no array at all).
    /// - Parameters:
    ///   - event: the next event, in time order.
    ///   - commands: receives the commands for the runner, in order; existing elements are kept.
    @inlinable
    public mutating func handle(_ event: EngineEvent, into commands: inout [EngineCommand]) {
        switch event {
        case let .bar(id, bar):
            handleBar(id, bar, into: &commands)
        case let .quote(id, quote):
            handleQuote(id, quote, into: &commands)
        case let .execution(report):
            handleReport(report, into: &commands)
        case let .clock(time):
            advance(to: time, into: &commands)
        case let .killSwitch(engaged):
            setKillSwitch(engaged, into: &commands)
        case let .barsClosed(time):
            if S.handlesBarsClosed { dispatch(.barsClosed(time), into: &commands) }
        }
    }

    /// The bar hot path.
    @inlinable
    mutating func handleBar(_ id: InstrumentID, _ bar: Bar, into commands: inout [EngineCommand]) {
        if bar.timestamp.nanoseconds >= nextDeadline || bar.timestamp.nanoseconds < _state.now.nanoseconds {
            advance(to: bar.timestamp, into: &commands)
        } else {
            _state.now = bar.timestamp
        }
        _state.lastBars[id.index] = bar
        // The volatility gauge only feeds the volatility pause: the strategy never sees it, nothing marks it.
        if id.index == gaugeIndex { return }
        // A pair in the run only for its rate moves the conversion; the strategy never sees it.
        if hasRateOnly, rateOnly[id.index] { return _state.portfolio.mark(id, at: bar.close) }
        if _returns != nil { _returns?.record(id, time: bar.timestamp, close: bar.close) }
        _state.portfolio.mark(id, at: bar.close)
        _state.portfolio.settle(upTo: bar.timestamp)
        if monitorsEquity { _riskMonitor.observe(equity: _state.portfolio.equity, at: bar.timestamp) }
        if marginRates != nil { checkMaintenanceMargin() }
        dispatch(.bar(id, bar), into: &commands)
        if hasContractMonths { leaveExpiringContract(id, at: bar.timestamp, into: &commands) }
    }

    /// Calls the strategy with the state borrowed (no defensive copy of the state) and carries out its actions.
    ///
    /// The strategy appends to `_actions`, which is empty between calls, so an event without actions costs no
    /// array (and no release). A non-empty batch is moved out while `perform` runs (it may call the strategy
    /// again) and its storage handed back afterwards, so later batches reuse it.
    @inlinable @inline(__always)
    mutating func dispatch(_ event: StrategyEvent, into commands: inout [EngineCommand]) {
        _strategy.handle(event, in: _state, into: &_actions)
        if _actions.isEmpty { return }
        var actions: [StrategyAction] = []
        swap(&actions, &_actions)
        perform(actions, into: &commands)
        actions.removeAll(keepingCapacity: true)
        if _actions.isEmpty, _actions.capacity < actions.capacity { swap(&actions, &_actions) }
    }

    /// Calls the strategy with the state borrowed (no defensive copy of the state).
    @inlinable
    static func dispatch(_ event: StrategyEvent, to strategy: inout S, in state: borrowing EngineState) -> [StrategyAction] {
        strategy.handle(event, in: state)
    }

    @usableFromInline
    mutating func handleQuote(_ id: InstrumentID, _ quote: Quote, into commands: inout [EngineCommand]) {
        advance(to: quote.timestamp, into: &commands)
        _state.lastQuotes[id.index] = quote
        if id.index == gaugeIndex { return }
        if hasRateOnly, rateOnly[id.index] { return _state.portfolio.mark(id, at: quote.mid) }
        _state.portfolio.mark(id, at: quote.mid)
        if monitorsEquity { _riskMonitor.observe(equity: _state.portfolio.equity, at: quote.timestamp) }
        dispatch(.quote(id, quote), into: &commands)
    }

    /// Moves time forward, firing due timers and order timeouts.
    @usableFromInline
    mutating func advance(to time: Timestamp, into commands: inout [EngineCommand]) {
        if time > _state.now { _state.now = time }
        guard _state.now.nanoseconds >= nextDeadline else { return }
        for id in _state.orders.takeTimedOut(at: _state.now) {
            requestCancel(id, into: &commands)
        }
        while let first = timers.first, first.at <= _state.now {
            timers.removeFirst()
            dispatch(.timer(first.id, first.at), into: &commands)
        }
        recomputeDeadline()
    }

    /// Recomputes the earliest timer or timeout.
    mutating func recomputeDeadline() {
        var deadline = timers.first?.at.nanoseconds ?? .max
        if _state.orders.hasTimeouts, let t = _state.orders.nextTimeout { deadline = min(deadline, t.nanoseconds) }
        nextDeadline = deadline
    }

    /// Engages the kill switch as `.killSwitch(engaged: true)` does, but leaves the orders `keep` says working (a
    /// stopping bot's protective orders: they guard positions that stay open after it).
    /// - Returns: the cancels to send.
    public mutating func engageKillSwitch(keeping keep: (Order) -> Bool) -> [EngineCommand] {
        _riskMonitor.setKillSwitch(true)
        var commands: [EngineCommand] = []
        for order in _state.orders.openOrders where order.state != .pendingCancel && !keep(order) {
            requestCancel(order.id, into: &commands)
        }
        return commands
    }

    /// `true` for an order that protects a held position: a `ProtectiveOrders` leg, or a bracket child whose
    /// entry has traded (its stop or take-profit).
    public func isProtection(_ order: Order) -> Bool {
        if ProtectiveOrders.isProtective(order.clientOrderID) { return true }
        guard let parent = order.parentID.flatMap({ _state.orders.order($0) }) else { return false }
        return parent.filledQuantity.units > 0
    }

    /// `true` when `request` only protects a position held now, so that it may go out while every new order is
    /// refused (the kill switch, the stop, a journal failure, the operator's kill): refusing it would leave the
    /// position bare at the broker, the one thing a halt must never do (issue 80).
    ///
    /// Such an order is a stop of some kind (stop, stop-limit, trailing: `OrderRequest.isStopLike`) or a
    /// `ProtectiveOrders` leg (its take-profit too), on the side that reduces the position, for at most what the
    /// instrument's other open orders of its kind on that side leave of the position: their remaining quantities
    /// count whole, those whose cancel is in flight included (a cancel may lose the race with a fill). So two stops
    /// never cover more than the position (both could trigger and leave the opposite one), a flat position has no
    /// protection to place, and a position on the other side none on this one.
    /// - Parameters:
    ///   - request: the order's terms.
    ///   - id: the order itself when it exists already (it is not counted among the others).
    public func protectsHeldPosition(_ request: OrderRequest, excluding id: OrderID? = nil) -> Bool {
        let index = request.instrument.index
        guard index >= 0, index < _state.universe.count, request.quantity.units > 0,
            request.isStopLike || ProtectiveOrders.isProtective(request.clientOrderID ?? "")
        else { return false }
        return request.quantity.units <= protectionRoom(
            request.instrument, side: request.side, stopLike: request.isStopLike, excluding: id)
    }

    /// How much of the position in `instrument` orders on `side` of one kind (stop-like or not) may still cover: the
    /// position closed by `side` (zero when `side` would add to it, or it is flat) less the remaining quantities of
    /// the other open orders of that kind on that side.
    func protectionRoom(_ instrument: InstrumentID, side: Side, stopLike: Bool, excluding id: OrderID?) -> Int64 {
        let held = _state.portfolio.positions[instrument.index].quantity.units
        let closable = side == .sell ? max(held, 0) : max(-held, 0)
        guard closable > 0 else { return 0 }
        let covered = _state.orders.openOrders(for: instrument)
            .filter { $0.id != id && $0.side == side && $0.request.isStopLike == stopLike }
            .reduce(Int64(0)) { $0 + $1.remainingQuantity.units }
        return closable - covered
    }

    @usableFromInline
    mutating func setKillSwitch(_ engaged: Bool, into commands: inout [EngineCommand]) {
        _riskMonitor.setKillSwitch(engaged)
        if engaged {
            for order in _state.orders.openOrders where order.state != .pendingCancel {
                requestCancel(order.id, into: &commands)
            }
        }
    }
}
