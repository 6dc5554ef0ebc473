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
    /// Configuration.
    public let config: EngineConfig
    @usableFromInline var _riskMonitor: RiskMonitor
    let rules: [any RiskRule]
    @usableFromInline let monitorsEquity: Bool
    let volatilityInstrument: InstrumentID?
    /// Scheduled timers, sorted by time (then insertion).
    var timers: [(id: TimerID, at: Timestamp)] = []
    /// Earliest timer or order timeout; `Int64.max` when none.
    @usableFromInline var nextDeadline: Int64 = .max
    /// Modifications in flight.
    var pendingModifications: [OrderID: OrderModification] = [:]
    /// Every risk denial, in order.
    public internal(set) var denials: [RiskDenialRecord] = []
    /// Denials per rule.
    public internal(set) var denialCounts: [RiskRuleKind: Int] = [:]

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
        self.volatilityInstrument = config.risk.volatilitySymbol.flatMap { universe.id(of: $0) }
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

    /// Handles one event.
    /// - Parameter event: the next event, in time order.
    /// - Returns: commands for the runner, in order (often `[]`).
    @inlinable
    public mutating func handle(_ event: EngineEvent) -> [EngineCommand] {
        switch event {
        case let .bar(id, bar):
            return handleBar(id, bar)
        case let .quote(id, quote):
            return handleQuote(id, quote)
        case let .execution(report):
            return handleReport(report)
        case let .clock(time):
            var commands: [EngineCommand] = []
            advance(to: time, into: &commands)
            return commands
        case let .killSwitch(engaged):
            return setKillSwitch(engaged)
        case let .barsClosed(time):
            let actions = Self.dispatch(.barsClosed(time), to: &_strategy, in: _state)
            if actions.isEmpty { return [] }
            var commands: [EngineCommand] = []
            perform(actions, into: &commands)
            return commands
        }
    }

    /// The bar hot path.
    @inlinable
    mutating func handleBar(_ id: InstrumentID, _ bar: Bar) -> [EngineCommand] {
        var commands: [EngineCommand] = []
        if bar.timestamp.nanoseconds >= nextDeadline || bar.timestamp.nanoseconds < _state.now.nanoseconds {
            advance(to: bar.timestamp, into: &commands)
        } else {
            _state.now = bar.timestamp
        }
        _state.lastBars[id.index] = bar
        _state.portfolio.mark(id, at: bar.close)
        _state.portfolio.settle(upTo: bar.timestamp)
        if monitorsEquity { _riskMonitor.observe(equity: _state.portfolio.equity, at: bar.timestamp) }
        let actions = Self.dispatch(.bar(id, bar), to: &_strategy, in: _state)
        if actions.isEmpty { return commands }
        perform(actions, into: &commands)
        return commands
    }

    /// Calls the strategy with the state borrowed (no defensive copy of the state).
    @inlinable
    static func dispatch(_ event: StrategyEvent, to strategy: inout S, in state: borrowing EngineState) -> [StrategyAction] {
        strategy.handle(event, in: state)
    }

    @usableFromInline
    mutating func handleQuote(_ id: InstrumentID, _ quote: Quote) -> [EngineCommand] {
        var commands: [EngineCommand] = []
        advance(to: quote.timestamp, into: &commands)
        _state.lastQuotes[id.index] = quote
        _state.portfolio.mark(id, at: quote.mid)
        if monitorsEquity { _riskMonitor.observe(equity: _state.portfolio.equity, at: quote.timestamp) }
        perform(Self.dispatch(.quote(id, quote), to: &_strategy, in: _state), into: &commands)
        return commands
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
            perform(Self.dispatch(.timer(first.id, first.at), to: &_strategy, in: _state), into: &commands)
        }
        recomputeDeadline()
    }

    /// Recomputes the earliest timer or timeout.
    mutating func recomputeDeadline() {
        var deadline = timers.first?.at.nanoseconds ?? .max
        if _state.orders.hasTimeouts, let t = _state.orders.nextTimeout { deadline = min(deadline, t.nanoseconds) }
        nextDeadline = deadline
    }

    @usableFromInline
    mutating func setKillSwitch(_ engaged: Bool) -> [EngineCommand] {
        _riskMonitor.setKillSwitch(engaged)
        var commands: [EngineCommand] = []
        if engaged {
            for order in _state.orders.openOrders where order.state != .pendingCancel {
                requestCancel(order.id, into: &commands)
            }
        }
        return commands
    }
}
