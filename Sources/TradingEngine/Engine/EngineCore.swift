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
    /// Portfolio, orders, market data.
    public internal(set) var state: EngineState
    /// The strategy.
    public internal(set) var strategy: S
    /// Configuration.
    public let config: EngineConfig
    /// Risk flags and equity tracking.
    public internal(set) var riskMonitor: RiskMonitor
    let rules: [any RiskRule]
    let monitorsEquity: Bool
    let volatilityInstrument: InstrumentID?
    /// Scheduled timers, sorted by time (then insertion).
    var timers: [(id: TimerID, at: Timestamp)] = []
    /// Earliest timer or order timeout; `Int64.max` when none.
    var nextDeadline: Int64 = .max
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
        self.state = EngineState(universe: universe, config: config)
        self.strategy = strategy
        self.config = config
        self.riskMonitor = RiskMonitor(config: config.risk)
        self.rules = config.risk.makeRules()
        self.monitorsEquity = config.risk.needsEquityMonitoring
        self.volatilityInstrument = config.risk.volatilitySymbol.flatMap { universe.id(of: $0) }
    }

    /// The portfolio.
    public var portfolio: Portfolio { state.portfolio }
    /// The order book.
    public var orders: OrderManager { state.orders }

    /// Handles one event.
    /// - Parameter event: the next event, in time order.
    /// - Returns: commands for the runner, in order (often `[]`).
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
            let actions = strategy.handle(.barsClosed(time), in: state)
            if actions.isEmpty { return [] }
            var commands: [EngineCommand] = []
            perform(actions, into: &commands)
            return commands
        }
    }

    /// The bar hot path.
    mutating func handleBar(_ id: InstrumentID, _ bar: Bar) -> [EngineCommand] {
        var commands: [EngineCommand] = []
        if bar.timestamp.nanoseconds >= nextDeadline || bar.timestamp.nanoseconds < state.now.nanoseconds {
            advance(to: bar.timestamp, into: &commands)
        } else {
            state.now = bar.timestamp
        }
        state.lastBars[id.index] = bar
        state.portfolio.mark(id, at: bar.close)
        state.portfolio.settle(upTo: bar.timestamp)
        if monitorsEquity { riskMonitor.observe(equity: state.portfolio.equity, at: bar.timestamp) }
        let actions = strategy.handle(.bar(id, bar), in: state)
        if actions.isEmpty { return commands }
        perform(actions, into: &commands)
        return commands
    }

    mutating func handleQuote(_ id: InstrumentID, _ quote: Quote) -> [EngineCommand] {
        var commands: [EngineCommand] = []
        advance(to: quote.timestamp, into: &commands)
        state.lastQuotes[id.index] = quote
        state.portfolio.mark(id, at: quote.mid)
        if monitorsEquity { riskMonitor.observe(equity: state.portfolio.equity, at: quote.timestamp) }
        perform(strategy.handle(.quote(id, quote), in: state), into: &commands)
        return commands
    }

    /// Moves time forward, firing due timers and order timeouts.
    mutating func advance(to time: Timestamp, into commands: inout [EngineCommand]) {
        if time > state.now { state.now = time }
        guard state.now.nanoseconds >= nextDeadline else { return }
        for id in state.orders.takeTimedOut(at: state.now) {
            requestCancel(id, into: &commands)
        }
        while let first = timers.first, first.at <= state.now {
            timers.removeFirst()
            perform(strategy.handle(.timer(first.id, first.at), in: state), into: &commands)
        }
        recomputeDeadline()
    }

    /// Recomputes the earliest timer or timeout.
    mutating func recomputeDeadline() {
        var deadline = timers.first?.at.nanoseconds ?? .max
        if state.orders.hasTimeouts {
            for order in state.orders.openOrders {
                if let t = order.expiresAt { deadline = min(deadline, t.nanoseconds) }
            }
        }
        nextDeadline = deadline
    }

    mutating func setKillSwitch(_ engaged: Bool) -> [EngineCommand] {
        riskMonitor.setKillSwitch(engaged)
        var commands: [EngineCommand] = []
        if engaged {
            for order in state.orders.openOrders where order.state != .pendingCancel {
                requestCancel(order.id, into: &commands)
            }
        }
        return commands
    }
}
