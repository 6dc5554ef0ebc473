import Foundation
import Analytics
import Backtest
import TradingModel

/// The CSV files of `ibtrader backtest --out DIR` (formats in docs/backtesting.md).
struct BacktestOutput {
    let result: BacktestResult
    /// Daily data prints dates (`2024-03-01`), intraday data UTC datetimes (`2024-03-01T14:30:00Z`).
    let isDaily: Bool

    func time(_ timestamp: Timestamp) -> String {
        let civil = CivilTime(unixSeconds: timestamp.nanoseconds / Timestamp.nanosecondsPerSecond)
        return isDaily ? civil.dateString : civil.dateTimeString
    }

    private func symbol(_ instrument: InstrumentID) -> String {
        let index = instrument.index
        return index < result.universe.instruments.count ? result.universe.instruments[index].symbol.rawValue : "?"
    }

    /// `symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission` (open trades: empty exit).
    var tradesCSV: String {
        var text = "symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission\n"
        for trade in result.trades {
            text += "\(trade.symbol.rawValue),\(trade.direction == .long ? "LONG" : "SHORT"),\(trade.quantity),"
            text += "\(time(trade.entryTime)),\(trade.entryPrice),"
            text += "\(trade.exitTime.map(time) ?? ""),\(trade.exitPrice.map { "\($0)" } ?? ""),"
            text += "\(trade.pnl.centsDescription),\(trade.commission.centsDescription)\n"
        }
        return text
    }

    /// One row per order with its final state.
    var ordersCSV: String {
        var text = "order_id,time,symbol,side,type,quantity,limit_price,stop_price,status,filled_quantity,avg_fill_price,commission,reason\n"
        for order in result.orders {
            var limit = "", stop = ""
            switch order.type {
            case .market: break
            case .limit(let price): limit = "\(price)"
            case .stop(let price): stop = "\(price)"
            case .stopLimit(let stopPrice, let limitPrice): stop = "\(stopPrice)"; limit = "\(limitPrice)"
            case .trailingAmount(let amount): stop = "trail \(amount)"
            case .trailingPercent(let percent): stop = "trail \(percent)%"
            case .trailingLimit(let trail, let offset): stop = "trail \(trail)"; limit = "offset \(offset)"
            }
            let fields = [
                "\(order.id.rawValue)", time(order.createdAt), symbol(order.instrument), order.side == .buy ? "BUY" : "SELL",
                order.type.ibName, "\(order.quantity)", limit, stop, "\(order.state)", "\(order.filledQuantity)",
                order.averageFillPrice.map { "\($0)" } ?? "", order.commission.centsDescription, order.reason ?? "",
            ]
            text += fields.map(Self.escape).joined(separator: ",") + "\n"
        }
        return text
    }

    /// Writes `time,equity,cash,gross_exposure,drawdown` in 1 MB pieces (a 1M-bar curve is ~66 MB of text).
    func writeEquityCSV(to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CLIError("cannot write '\(path)'")
        }
        defer { try? handle.close() }
        var text = "time,equity,cash,gross_exposure,drawdown\n"
        text.reserveCapacity(1 << 20)
        do {
            for point in result.equityCurve {
                text += "\(time(point.time)),\(point.equity.centsDescription),\(point.cash.centsDescription),"
                text += "\(point.grossExposure.centsDescription),\(point.drawdown)\n"
                if text.utf8.count >= 1 << 20 {
                    try handle.write(contentsOf: Data(text.utf8))
                    text.removeAll(keepingCapacity: true)
                }
            }
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw CLIError("cannot write '\(path)': \(error)")
        }
    }

    /// Quotes a CSV field when it holds a comma or a quote.
    static func escape(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
