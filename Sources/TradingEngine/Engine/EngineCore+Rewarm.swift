import TradingModel

// When a continuous future rolls, the bars a strategy has seen are the month left's, and the bars to come are the
// month entered's, some points apart. A back-adjusted backtest never sees that jump: every bar before a roll is
// moved by the roll's gap. The bot and the drift report's backtest do the same at the moment of the roll: the bars
// seen so far are moved (`HistoryRebase`), a fresh copy of the strategy re-runs over them in a scratch engine with
// the kill switch engaged (as a warm-up does), and the strategy takes that copy's market-derived state
// (`Strategy.adoptHistory(of:)`). The live orders, positions and fills are not touched.

/// A continuous future's history moved to its new contract month's prices: every bar of `instrument` before
/// `before` (the roll) moves by `gap` (the new month's close minus the old one's at the last bar both have).
public struct HistoryRebase: Hashable, Sendable, Codable {
    public var instrument: InstrumentID
    /// In price units (`Price.units`).
    public var gap: Price
    /// What a held position and its working orders move by at the roll, when it is not `gap`: the bot's two legs'
    /// difference (the drift report's backtest carries the position as the bot's legs moved it).
    public var carry: Price?
    /// What a held position and its working orders move by at the roll in a backtest over each month's prices as
    /// traded, when `carry` is not given: the two legs' difference at the roll bar (the new month's open minus the old
    /// one's, `ContinuousFuture.Roll.carry`), the prices the bot's two market orders trade at; `nil`: `gap`. The
    /// legs' slippage is charged apart (`RollCharge.cost`), as for any roll.
    public var rollBarCarry: Price?
    /// Bars of the instrument stamped before this time are moved.
    public var before: Timestamp
    /// The last bar the strategy had seen when the history was moved: a backtest moves it before the first time
    /// step after this one, as the bot did between the two.
    public var after: Timestamp

    public init(instrument: InstrumentID, gap: Price, before: Timestamp, after: Timestamp) {
        self.instrument = instrument
        self.gap = gap
        self.before = before
        self.after = after
    }

    /// The bar moved, when it is one this rebase moves.
    public func apply(to id: InstrumentID, _ bar: Bar) -> Bar {
        guard id == instrument, bar.timestamp < before, gap.units != 0 else { return bar }
        var moved = bar
        moved.open.units += gap.units
        moved.high.units += gap.units
        moved.low.units += gap.units
        moved.close.units += gap.units
        return moved
    }
}

extension EngineCore {
    /// Moves a continuous future's working orders by `gap` at a roll (a backtest over each month's prices as traded,
    /// as the bot places its exits on the new month at the same distance): each priced order is modified.
    public mutating func moveWorkingOrders(of id: InstrumentID, by gap: Price, into commands: inout [EngineCommand]) {
        for order in _state.orders.openOrders(for: id) where order.state != .pendingCancel {
            guard let type = order.type.shifted(by: gap.units), type != order.type,
                _state.orders.apply(.replaceRequested, to: order.id, at: _state.now)
            else { continue }
            let change = OrderModification(type: type, reason: "moved to the next contract month's prices at the roll")
            pendingModifications[order.id] = change
            commands.append(.modify(order.id, change, filledQuantity: order.filledQuantity))
        }
    }

    /// Re-warms the strategy on `history` (every bar it has seen, in order, already moved): `fresh` (the strategy as
    /// it was before any bar) runs over it in a scratch engine of the same universe and configuration with the kill
    /// switch engaged, a time step closing after each timestamp's bars, and the strategy adopts its state.
    public mutating func rewarmStrategy(from fresh: S, on history: [(InstrumentID, Bar)]) {
        var scratch = EngineCore(universe: _state.universe, strategy: fresh, config: config)
        _ = scratch.handle(.killSwitch(engaged: true))
        var k = 0
        while k < history.count {
            _ = scratch.handle(.bar(history[k].0, history[k].1))
            k += 1
            if k == history.count || history[k].1.timestamp != history[k - 1].1.timestamp {
                _ = scratch.handle(.barsClosed(history[k - 1].1.timestamp))
            }
        }
        _strategy.adoptHistory(of: scratch._strategy)
    }
}
