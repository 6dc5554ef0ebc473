// An example of a user-written strategy for IBTrader. Not compiled into the package: copy it into your own
// target that depends on `TradingEngine` and `Backtest`.
//
// The shape of every strategy:
// - a value type holding fixed-size state (indicators, counters, per-instrument arrays),
// - `handle(_:in:)` turns one event into intents (`StrategyAction`s) using only the read-only context,
// - it never calls the broker, never sleeps and never reads the clock: it schedules timers instead.

import Backtest
import TradingEngine
import TradingModel

/// Buys the first bar of every day for each instrument that closed above its previous close, and exits with a
/// protective bracket (stop 2 % below, target 4 % above). At 20:55 UTC it flattens whatever is still open.
struct GapAndGo: Strategy {
    /// Previous close per instrument (grown on first sight of an instrument).
    var previousClose: [Price] = []
    /// The day number of the last bar seen.
    var lastDay: Int64 = .min

    /// A pure value (no I/O, no shared references): `ibtrader run` with `latency.keepWarm` may run copies of it on
    /// the last bar between bars to keep the bar → order path in the CPU's caches.
    static var isRehearsable: Bool { true }

    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        switch event {
        case let .bar(id, bar):
            while previousClose.count <= id.index { previousClose.append(.zero) }
            defer { previousClose[id.index] = bar.close }
            let isNewDay = bar.timestamp.dayNumber != lastDay
            lastDay = bar.timestamp.dayNumber
            var actions: [StrategyAction] = []
            if isNewDay {
                // Flatten at 20:55 UTC today.
                let flattenAt = Timestamp(nanoseconds: bar.timestamp.dayNumber * Timestamp.nanosecondsPerDay)
                    + .hours(20) + .minutes(55)
                actions.append(.schedule("flatten", at: flattenAt))
            }
            guard isNewDay, bar.close > previousClose[id.index], previousClose[id.index].units > 0,
                context.position(for: id).isFlat, !context.hasOpenOrders(for: id)
            else { return actions }
            let entry = OrderRequest.market(id, .buy, Quantity(100))
            let stop = Price(approximately: bar.close.doubleValue * 0.98)
            let target = Price(approximately: bar.close.doubleValue * 1.04)
            actions.append(.submitBracket(BracketOrder(entry: entry, stopLoss: stop, takeProfit: target)))
            return actions
        case .timer("flatten", _):
            var actions: [StrategyAction] = []
            for instrument in context.universe.instruments {
                let position = context.position(for: instrument.id)
                guard !position.isFlat else { continue }
                actions.append(.cancelAll(instrument.id))
                actions.append(.submit(.market(instrument.id, position.isLong ? .sell : .buy, position.quantity.magnitude)))
            }
            return actions
        default:
            return []
        }
    }
}

/// Running it: load data, pick costs and risk limits, run, read the result.
func runExample() throws {
    let data = try MarketData.load(files: [("SPY", "data/pyalgotrade/SPY_1min.csv")])
    var config = BacktestConfig()
    config.simulation.commission = .ibkrFixedDefault
    config.simulation.slippage = .fixedBasisPoints(1)
    config.engine.risk.maxDailyLossPercent = 2
    let result = BacktestRunner.run(strategy: GapAndGo(), data: data, config: config)
    print(result.summary)
    for trade in result.trades.prefix(5) {
        print(trade.direction, trade.entryTime, trade.entryPrice, trade.exitTime.map(\.description) ?? "open",
              trade.netPnL.centsDescription)
    }
}
