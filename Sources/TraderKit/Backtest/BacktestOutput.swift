import Foundation
import Analytics
import Backtest
import TradingModel

/// The CSV files of `ibtrader backtest --out DIR` (formats in docs/backtesting.md).
public struct BacktestOutput {
    public let result: BacktestResult
    /// Daily data prints dates (`2024-03-01`), intraday data UTC datetimes (`2024-03-01T14:30:00Z`).
    public let isDaily: Bool

    public func time(_ timestamp: Timestamp) -> String {
        let civil = CivilTime(unixSeconds: timestamp.nanoseconds / Timestamp.nanosecondsPerSecond)
        return isDaily ? civil.dateString : civil.dateTimeString
    }

    private func symbol(_ instrument: InstrumentID) -> String {
        let index = instrument.index
        return index < result.universe.instruments.count ? result.universe.instruments[index].symbol.rawValue : "?"
    }

    /// Writes `symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission` row by row (open
    /// trades: empty exit).
    public func writeTradesCSV(to path: String) throws(TraderError) {
        var file = try CSVFileWriter(path: path)
        file.text += "symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission\n"
        for trade in result.trades {
            file.text += "\(trade.symbol.rawValue),\(trade.direction == .long ? "LONG" : "SHORT"),\(trade.quantity),"
            file.text += "\(time(trade.entryTime)),\(trade.entryPrice),"
            file.text += "\(trade.exitTime.map(time) ?? ""),\(trade.exitPrice.map { "\($0)" } ?? ""),"
            file.text += "\(trade.pnl.centsDescription),\(trade.commission.centsDescription)\n"
            try file.flushIfFull()
        }
        try file.close()
    }

    /// Writes one row per order with its final state.
    public func writeOrdersCSV(to path: String) throws(TraderError) {
        var file = try CSVFileWriter(path: path)
        file.text += "order_id,time,symbol,side,type,quantity,limit_price,stop_price,status,filled_quantity,avg_fill_price,commission,reason\n"
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
            case .midprice(let cap): limit = cap.map { "cap \($0)" } ?? ""
            }
            let fields = [
                "\(order.id.rawValue)", time(order.createdAt), symbol(order.instrument), order.side == .buy ? "BUY" : "SELL",
                order.type.ibName, "\(order.quantity)", limit, stop, "\(order.state)", "\(order.filledQuantity)",
                order.averageFillPrice.map { "\($0)" } ?? "", order.commission.centsDescription, order.reason ?? "",
            ]
            file.text += fields.map(Self.escape).joined(separator: ",") + "\n"
            try file.flushIfFull()
        }
        try file.close()
    }

    /// Writes `time,equity,cash,gross_exposure,drawdown` row by row (a 1M-bar curve is ~66 MB of text).
    public func writeEquityCSV(to path: String) throws(TraderError) {
        var file = try CSVFileWriter(path: path)
        file.text += "time,equity,cash,gross_exposure,drawdown\n"
        for point in result.equityCurve {
            file.text += "\(time(point.time)),\(point.equity.centsDescription),\(point.cash.centsDescription),"
            file.text += "\(point.grossExposure.centsDescription),\(point.drawdown)\n"
            try file.flushIfFull()
        }
        try file.close()
    }

    /// Quotes a CSV field when it holds a comma or a quote.
    public static func escape(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A file written in 1 MiB pieces, so no output file is ever held whole as one `String`. Rows are appended to
/// `text` in place (no per-row temporary) and `flushIfFull()` writes a piece once it passes 1 MiB.
public struct CSVFileWriter {
    private let handle: FileHandle
    private let path: String
    /// The pending text.
    public var text = ""

    /// Creates (or truncates) the file, and its folder if needed.
    public init(path: String) throws(TraderError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw TraderError("cannot write '\(path)'")
        }
        self.handle = handle
        self.path = path
        text.reserveCapacity(1 << 20 + 4096)
    }

    /// Writes the pending text once it passes 1 MiB.
    public mutating func flushIfFull() throws(TraderError) {
        if text.utf8.count >= 1 << 20 { try flush() }
    }

    /// Writes what is pending and closes the file.
    public mutating func close() throws(TraderError) {
        try flush()
        do { try handle.close() } catch { throw TraderError("cannot write '\(path)': the disk is full or the file is not writable") }
    }

    private mutating func flush() throws(TraderError) {
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            try? handle.close()
            throw TraderError("cannot write '\(path)': the disk is full or the file is not writable")
        }
        text.removeAll(keepingCapacity: true)
    }
}
