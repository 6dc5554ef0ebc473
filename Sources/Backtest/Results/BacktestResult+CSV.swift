import TradingModel

extension BacktestResult {
    /// Fills as `time,symbol,qty,price` (qty signed), the peers' format: numbers without trailing zeros, so the
    /// text is byte-identical to `shared/peers` fill lists for the same fills.
    public var fillsCSV: String {
        var text = "time,symbol,qty,price\n"
        for fill in fills {
            let quantity = fill.side == .buy ? fill.quantity.description : "-" + fill.quantity.description
            text += "\(fill.timestamp),\(universe[fill.instrument].symbol),\(quantity),\(fill.price)\n"
        }
        return text
    }

    /// Round trips as `symbol,entry_time,entry_price,exit_time,exit_price,qty,pnl` (the peers' format; open trips
    /// have empty exit fields and P&L). P&L is before commission.
    public var tradesCSV: String {
        var text = "symbol,entry_time,entry_price,exit_time,exit_price,qty,pnl\n"
        for trade in trades {
            let sign = trade.direction == .long ? "" : "-"
            text += "\(trade.symbol),\(trade.entryTime),\(trade.entryPrice),"
            if let exitTime = trade.exitTime, let exitPrice = trade.exitPrice {
                text += "\(exitTime),\(exitPrice),\(sign)\(trade.quantity),\(trade.pnl)\n"
            } else {
                text += ",,\(sign)\(trade.quantity),\n"
            }
        }
        return text
    }
}
