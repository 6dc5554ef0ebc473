import TradingModel

/// A trading strategy: a value that turns events into intents.
///
/// Strategies never touch the engine, the broker or the clock. They read a narrow, read-only
/// `StrategyContext` and return `StrategyAction`s; the engine checks them against risk, turns them into
/// orders and reports back with more events. Keep state fixed-size (indicators, counters, per-instrument
/// arrays sized at `init`) so a bar costs no allocation, and return `[]` when there is nothing to do
/// (an empty array literal does not allocate).
///
/// ```swift
/// struct BuyFirstBar: Strategy {
///     var done = false
///     mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
///         guard case let .bar(id, _) = event, !done else { return [] }
///         done = true
///         return [.submit(.market(id, .buy, Quantity(10)))]
///     }
/// }
/// ```
public protocol Strategy: Sendable {
    /// Reacts to one event.
    /// - Parameters:
    ///   - event: what happened (a bar, a fill, an order update, a timer).
    ///   - context: read-only view of time, positions, orders, prices and the account.
    /// - Returns: intents for the engine, in order.
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction]

    /// Reacts to one event by appending intents to a buffer the engine owns and reuses (optional fast path).
    ///
    /// The default calls `handle(_:in:)`. Implement it (and make `handle(_:in:)` call it) when a strategy runs at
    /// millions of events per second: returning an array costs a release per event even when it is empty.
    /// - Parameters:
    ///   - event: what happened.
    ///   - context: read-only view of time, positions, orders, prices and the account.
    ///   - actions: append intents here, in order; never remove what is already there.
    mutating func handle(
        _ event: StrategyEvent, in context: some StrategyContext, into actions: inout [StrategyAction])

    /// `false` when `handle` ignores `.barsClosed` (per-instrument strategies): the engine then skips that event,
    /// one call less per time step. Defaults to `true`.
    static var handlesBarsClosed: Bool { get }

    /// `true` when the strategy wants `.quote` events live (bid/ask ticks); defaults to `false` (bars only).
    var usesQuotes: Bool { get }  // default in Strategy+MarketDataNeeds.swift

    /// Takes the market-derived state of `warmed`, a fresh copy of this strategy that has just re-run over the
    /// history this one saw with a continuous future's older prices moved to its new contract month's
    /// (`EngineCore.rewarmStrategy`), and keeps what only this run knows (orders it is working). Defaults to becoming
    /// `warmed`; a wrapper passes it on to what it wraps.
    mutating func adoptHistory(of warmed: Self)
}

extension Strategy {
    /// Every strategy sees `.barsClosed` unless it says otherwise.
    @inlinable public static var handlesBarsClosed: Bool { true }

    /// Becomes the re-warmed copy: everything a built-in strategy keeps follows from the bars.
    public mutating func adoptHistory(of warmed: Self) { self = warmed }

    /// Appends the intents of `handle(_:in:)`.
    @inlinable
    public mutating func handle(
        _ event: StrategyEvent, in context: some StrategyContext, into actions: inout [StrategyAction]
    ) {
        let produced = handle(event, in: context)
        if !produced.isEmpty { actions += produced }
    }
}

/// What a strategy is told about.
public enum StrategyEvent: Hashable, Sendable {
    /// A bar closed (its timestamp is the data's time).
    case bar(InstrumentID, Bar)
    /// A quote arrived.
    case quote(InstrumentID, Quote)
    /// All bars stamped with this time have been delivered: the moment for cross-sectional decisions.
    case barsClosed(Timestamp)
    /// One of the strategy's orders traded.
    case filled(Fill, ClientOrderID)
    /// One of the strategy's orders changed state (accepted, canceled, rejected, denied, expired, …).
    case orderUpdated(ClientOrderID, OrderEvent)
    /// A timer the strategy scheduled came due.
    case timer(TimerID, Timestamp)
}

/// What a strategy asks the engine to do.
public enum StrategyAction: Hashable, Sendable {
    /// Submit an order (risk-checked first).
    case submit(OrderRequest)
    /// Submit an entry with a protective stop and/or take-profit.
    case submitBracket(BracketOrder)
    /// Cancel an order by its client id.
    case cancel(ClientOrderID)
    /// Cancel every open order of an instrument.
    case cancelAll(InstrumentID)
    /// Change an open order.
    case modify(ClientOrderID, OrderModification)
    /// Deliver `.timer(id, at)` when simulated or wall time reaches `at`.
    case schedule(TimerID, at: Timestamp)
}

/// The narrow, read-only view a strategy gets. `EngineState` implements it; tests may supply their own.
public protocol StrategyContext {
    /// The time of the event being handled.
    var now: Timestamp { get }
    /// The universe being traded.
    var universe: Universe { get }
    /// The net position in an instrument (flat if none).
    func position(for instrument: InstrumentID) -> Position
    /// `true` when the instrument has open orders (cheap).
    func hasOpenOrders(for instrument: InstrumentID) -> Bool
    /// Open orders of an instrument.
    func openOrders(for instrument: InstrumentID) -> [Order]
    /// The latest bar of an instrument.
    func lastBar(for instrument: InstrumentID) -> Bar?
    /// The latest quote of an instrument.
    func lastQuote(for instrument: InstrumentID) -> Quote?
    /// Account equity (cash + marked positions).
    var equity: Money { get }
    /// Account cash.
    var cash: Money { get }
    /// Account currency per unit of the currency the instrument is priced in: 1 when they are the same, the latest
    /// rate otherwise (0 before one is known). Sizing divides equity by it (`equity(in:)`).
    func valueRate(of instrument: InstrumentID) -> Double
}

extension StrategyContext {
    /// One currency for every instrument, unless a context says otherwise.
    public func valueRate(of instrument: InstrumentID) -> Double { 1 }

    /// Equity in the currency the instrument is priced in (what sizing compares its price with); zero before its
    /// rate is known.
    public func equity(in instrument: InstrumentID) -> Money {
        let rate = valueRate(of: instrument)
        if rate == 1 { return equity }
        return rate > 0 ? equity.converted(at: 1 / rate) : .zero
    }
}
