import TradingModel

/// The engine's data (everything but the strategy): what `StrategyContext` exposes.
///
/// Only `EngineCore` mutates it; outside the engine it is reachable only as a copy (`EngineCore.state`) or as
/// `some StrategyContext`.
public struct EngineState: Sendable, StrategyContext {
    /// Time of the event being handled.
    public var now: Timestamp
    /// The instruments.
    public internal(set) var universe: Universe
    /// Cash and positions.
    public var portfolio: Portfolio
    /// All orders.
    public var orders: OrderManager
    /// Latest bar per instrument.
    public var lastBars: [Bar?]
    /// Latest quote per instrument.
    public var lastQuotes: [Quote?]
    /// Makes the type address-only, so handing the state to a strategy passes a pointer instead of copying
    /// ~190 bytes on every event (a large *loadable* struct is copied into a temporary at each call).
    let addressOnly: any Sendable = ()

    init(universe: Universe, config: EngineConfig) {
        now = .zero
        self.universe = universe
        portfolio = Portfolio(
            cash: config.initialCash, universe: universe, settlementDays: config.settlementDays,
            accountCurrency: config.accountCurrency)
        orders = OrderManager(instrumentCount: universe.count)
        lastBars = Array(repeating: nil, count: universe.count)
        lastQuotes = Array(repeating: nil, count: universe.count)
    }

    /// The position in an instrument.
    @inlinable public func position(for instrument: InstrumentID) -> Position { portfolio.position(for: instrument) }
    /// `true` when the instrument has open orders.
    @inlinable public func hasOpenOrders(for instrument: InstrumentID) -> Bool {
        orders.hasOpenOrders(for: instrument)
    }
    /// Open orders of an instrument.
    public func openOrders(for instrument: InstrumentID) -> [Order] { orders.openOrders(for: instrument) }
    /// The latest bar of an instrument.
    @inlinable public func lastBar(for instrument: InstrumentID) -> Bar? { lastBars[instrument.index] }
    /// The latest quote of an instrument.
    public func lastQuote(for instrument: InstrumentID) -> Quote? { lastQuotes[instrument.index] }
    /// Cash plus marked positions.
    @inlinable public var equity: Money { portfolio.equity }
    /// Cash.
    public var cash: Money { portfolio.cash }
    /// Account currency per unit of the instrument's price currency (1 when they are the same).
    @inlinable public func valueRate(of instrument: InstrumentID) -> Double { portfolio.rate(for: instrument) }
}
