import Analytics
import TradingEngine
import TradingModel

/// One symbol's sub-strategy result under the performance allocator.
public struct SymbolResult: Hashable, Sendable {
    /// The symbol.
    public var symbol: Symbol
    /// Closed round trips.
    public var closedTrades: Int
    /// P&L realized against the average cost (round trips closed, and sell-downs of the position still open), after
    /// every commission of the symbol.
    public var realizedPnL: Money
    /// Unrealized P&L of the position open at the end.
    public var unrealizedPnL: Money
    /// The weight after the last reallocation.
    public var finalWeight: Double
    /// Realized plus unrealized.
    public var totalPnL: Money { realizedPnL + unrealizedPnL }
}

/// The performance allocator's outputs: `allocations.csv`, the weights chart and each symbol's P&L.
extension BacktestResult {
    /// `allocations.csv`: `time,symbol,shadow_return,dollar_volume,liquidity,score,target_weight,weight`, one row
    /// per reallocation and symbol; numbers in full precision (shortest text that reads back the same double),
    /// empty before a symbol has a full window.
    /// - Parameter format: how times are printed.
    public func allocationsCSV(format: (Timestamp) -> String) -> String {
        var text = "time,symbol,shadow_return,dollar_volume,liquidity,score,target_weight,weight\n"
        func number(_ value: Double?) -> String { value.map { "\($0)" } ?? "" }
        for record in allocations {
            text += "\(format(record.time)),\(universe[record.instrument].symbol.rawValue),"
            text += "\(number(record.shadowReturn)),\(number(record.dollarVolume)),\(number(record.liquidity)),"
            text += "\(number(record.score)),\(record.targetWeight),\(record.weight)\n"
        }
        return text
    }

    /// Each symbol's sub-strategy P&L (those that traded or hold a weight), in universe order. The positions' own
    /// books are used, not the round trips: a trip still open has realized P&L from its sell-downs and has paid
    /// commissions, so the symbols' totals add up to the strategy's P&L.
    public var symbolResults: [SymbolResult] {
        var results = universe.instruments.map {
            SymbolResult(symbol: $0.symbol, closedTrades: 0, realizedPnL: .zero, unrealizedPnL: .zero, finalWeight: 0)
        }
        for trade in trades where !trade.isOpen { results[trade.instrument.index].closedTrades += 1 }
        for (index, position) in positions.enumerated() {
            results[index].realizedPnL = position.realizedPnL - position.commission
            if !position.isFlat { results[index].unrealizedPnL = position.unrealizedPnL(at: marks[index]) }
        }
        if let last = allocations.last?.time {
            for record in allocations.reversed() where record.time == last {
                results[record.instrument.index].finalWeight = record.weight
            }
        }
        return results.filter {
            $0.closedTrades > 0 || $0.realizedPnL.units != 0 || $0.unrealizedPnL.units != 0 || $0.finalWeight > 0
        }
    }

    /// The report sections of an allocator run: the stacked weights chart and each symbol's P&L; none otherwise.
    public var allocatorSections: [HTMLReportSection] {
        guard !allocations.isEmpty else { return [] }
        var times: [Int64] = []
        var weights = [[Double]](repeating: [], count: universe.count)
        for record in allocations {
            let seconds = record.time.nanoseconds / Timestamp.nanosecondsPerSecond
            if times.last != seconds { times.append(seconds) }
            weights[record.instrument.index].append(record.weight)
        }
        let series = universe.instruments.indices.map { (universe.instruments[$0].symbol.rawValue, weights[$0]) }
        let chart = WeightsChart.svg(times: times, series: series)
        let rows = symbolResults.map { result in
            [
                result.symbol.rawValue, "\(result.closedTrades)", result.realizedPnL.centsDescription,
                result.unrealizedPnL.centsDescription, result.totalPnL.centsDescription,
                "\((result.finalWeight * 1000).rounded() / 10) %",
            ]
        }
        return [
            HTMLReportSection(
                heading: "Allocation", caption: "Weights after each reallocation (allocations.csv has every figure).",
                bodies: [.chart(svg: chart)]),
            HTMLReportSection(
                heading: "Sub-strategy P&L by symbol", caption: "Each symbol's own strategy: realized after commission "
                    + "(sell-downs of a position still open included), and unrealized at the end; the totals add up to "
                    + "the run's P&L.",
                bodies: [
                    .table(columns: ["Symbol", "Closed trades", "Realized", "Unrealized", "Total", "Final weight"], rows: rows)
                ]),
        ]
    }
}
