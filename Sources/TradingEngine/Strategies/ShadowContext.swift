import TradingModel

/// What a base strategy sees when the allocator runs it in the shadow: the real market data and time, but the
/// shadow's own position (every order it sends is taken as filled at once, at the close) and no open orders.
struct ShadowContext<Real: StrategyContext>: StrategyContext {
    let real: Real
    /// Shadow quantity per instrument index.
    let quantities: [Quantity]

    var now: Timestamp { real.now }
    var universe: Universe { real.universe }
    var equity: Money { real.equity }
    var cash: Money { real.equity }

    func position(for instrument: InstrumentID) -> Position {
        var position = Position(instrument: instrument, kind: real.universe[instrument].kind)
        position.quantity = quantities[instrument.index]
        position.averagePrice = real.lastBar(for: instrument)?.close ?? .zero
        return position
    }

    func hasOpenOrders(for instrument: InstrumentID) -> Bool { false }
    func openOrders(for instrument: InstrumentID) -> [Order] { [] }
    func lastBar(for instrument: InstrumentID) -> Bar? { real.lastBar(for: instrument) }
    func lastQuote(for instrument: InstrumentID) -> Quote? { real.lastQuote(for: instrument) }
    func valueRate(of instrument: InstrumentID) -> Double { real.valueRate(of: instrument) }
}
