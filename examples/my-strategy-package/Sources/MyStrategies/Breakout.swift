import TraderConfig
import TradingEngine
import TradingModel

/// A Donchian breakout: buy when a close rises above the highest close of the last `entryLookback` bars, sell
/// when one falls below the lowest close of the last `exitLookback` bars. One position per symbol, long only.
///
/// Conforming to `ConfigurableStrategy` is all `ibtrader` needs: its name, its parameters' schema (checked,
/// documented, settable from a file, the environment or `--set`) and a way to make it.
public struct Breakout: ConfigurableStrategy {
    /// The strategy's settings, as `strategy.parameters` holds them.
    public struct Parameters: Hashable, Sendable {
        /// Bars whose highest close a new close must beat to enter.
        public var entryLookback = 20
        /// Bars whose lowest close a new close must fall under to exit.
        public var exitLookback = 10
        /// Entry size.
        public var sizing = PositionSizer.percentOfEquity(20)

        /// The defaults.
        public init() {}
    }

    public static let name = "breakout"
    public static let summary = "Buys a close above the highest close of the last entryLookback bars; sells below the lowest of exitLookback."
    public static var defaultParameters: Parameters { Parameters() }

    /// The keys of `strategy.parameters`: each with its kind, its range and one sentence of documentation.
    public static var parameterSchema: ConfigSection<Parameters> {
        ConfigSection(
            [
                .value("entryLookback", \.entryLookback, .integer(2...1000), summary: "Bars of the entry channel."),
                .value("exitLookback", \.exitLookback, .integer(2...1000), summary: "Bars of the exit channel."),
                .value("sizing", \.sizing, .sizing, summary: "Entry size: percentOfEquity: P or fixed: SHARES."),
            ],
            validate: { (parameters, record, path) throws(ConfigError) in
                guard parameters.exitLookback <= parameters.entryLookback else {
                    let key = path + ".exitLookback"
                    throw ConfigError("must be at most entryLookback (\(parameters.entryLookback))", key: key, at: record.origins[key])
                }
            })
    }

    let parameters: Parameters
    /// The last closes of each instrument, newest last (at most `entryLookback + 1`).
    var closes: [[Double]] = []

    public init(parameters: Parameters) { self.parameters = parameters }

    public mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case let .bar(id, bar) = event else { return [] }
        while closes.count <= id.index { closes.append([]) }
        let close = bar.close.doubleValue
        let history = closes[id.index]
        closes[id.index].append(close)
        if closes[id.index].count > parameters.entryLookback { closes[id.index].removeFirst() }
        guard history.count >= parameters.entryLookback, !context.hasOpenOrders(for: id) else { return [] }
        let position = context.position(for: id).quantity
        if position.units == 0, let high = history.max(), close > high {
            let quantity = parameters.sizing.quantity(
                price: bar.close, equity: context.equity, atr: nil, instrument: context.universe[id])
            return quantity.units > 0 ? [.submit(.market(id, .buy, quantity))] : []
        }
        if position.units > 0, let low = history.suffix(parameters.exitLookback).min(), close < low {
            return [.submit(.market(id, .sell, position))]
        }
        return []
    }
}
