import Foundation
import Analytics
import Backtest
import TradingModel

/// The CSV files of `ibtrader backtest --out DIR` (formats in docs/backtesting.md).
public struct BacktestOutput: Sendable {
    public let result: BacktestResult
    /// Daily data prints dates (`2024-03-01`), intraday data UTC datetimes (`2024-03-01T14:30:00Z`).
    public let isDaily: Bool

    /// The files of `result`, with dates (`isDaily`) or UTC datetimes.
    public init(result: BacktestResult, isDaily: Bool) {
        self.result = result
        self.isDaily = isDaily
    }

    public func time(_ timestamp: Timestamp) -> String {
        let civil = CivilTime(unixSeconds: timestamp.nanoseconds / Timestamp.nanosecondsPerSecond)
        return isDaily ? civil.dateString : civil.dateTimeString
    }

    private func symbol(_ instrument: InstrumentID) -> String {
        let index = instrument.index
        return index < result.universe.instruments.count ? result.universe.instruments[index].symbol.rawValue : "?"
    }

    /// The currency of an instrument's prices, for the currency columns.
    private func priceCurrency(_ instrument: InstrumentID) -> String {
        let index = instrument.index
        guard index < result.universe.instruments.count else { return result.accountCurrency }
        return CurrencyConversion.currency(of: result.universe.instruments[index].kind)
    }

    /// Whether the rows say their currencies: only when an instrument is priced in another currency than the
    /// account's (a one-currency run's files keep their columns).
    private var withCurrencies: Bool { !result.conversion.isSingleCurrency }

    /// `,price_currency,pnl_currency` of a row: the instrument's (its prices) and the account's (P&L, commission).
    private func appendCurrencies(_ instrument: InstrumentID, to text: inout TextBytes) {
        text.append(ascii: ",")
        text.append(priceCurrency(instrument))
        text.append(ascii: ",")
        text.append(result.accountCurrency)
    }

    /// Writes `symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission` row by row (open
    /// trades: empty exit), and `price_currency,pnl_currency` when an instrument is priced in another currency than
    /// the account's: prices are the instrument's, P&L and commission the account's. P&L is to the cent; commission
    /// exact (at least two decimals), so the rows add up to the run's total (`BacktestResult.commissionTotal`, less
    /// futures rolls), rounded once.
    public func writeTradesCSV(to path: String) throws(TraderError) {
        var file = try CSVFileWriter(path: path)
        let currencies = withCurrencies
        file.text.append(
            "symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission"
                + (currencies ? ",price_currency,pnl_currency\n" : "\n"))
        for trade in result.trades {
            file.text.append(trade.symbol.rawValue)
            file.text.append(trade.direction == .long ? ",LONG," : ",SHORT,")
            file.text.append(units: trade.quantity.units)
            file.text.append(ascii: ",")
            appendTime(trade.entryTime, to: &file.text)
            file.text.append(ascii: ",")
            file.text.append(units: trade.entryPrice.units)
            file.text.append(ascii: ",")
            if let exitTime = trade.exitTime { appendTime(exitTime, to: &file.text) }
            file.text.append(ascii: ",")
            if let exitPrice = trade.exitPrice { file.text.append(units: exitPrice.units) }
            file.text.append(ascii: ",")
            file.text.append(cents: trade.pnl)
            file.text.append(ascii: ",")
            // Exact (a commission is often not whole cents: 0.005 a share), so the rows add up to the run's total.
            file.text.append(units: trade.commission.units, minimumDecimals: 2)
            if currencies { appendCurrencies(trade.instrument, to: &file.text) }
            file.text.append(ascii: "\n")
            try file.flushIfFull()
        }
        try file.close()
    }

    /// Writes one row per order with its final state, and `currency` when an instrument is priced in another currency
    /// than the account's: an order's prices and commission are in its instrument's currency. Commission is exact (at
    /// least two decimals), so in a one-currency account the rows add up to the run's total less futures rolls.
    public func writeOrdersCSV(to path: String) throws(TraderError) {
        var file = try CSVFileWriter(path: path)
        let currencies = withCurrencies
        file.text.append(
            "order_id,time,symbol,side,type,quantity,limit_price,stop_price,status,filled_quantity,avg_fill_price,commission,reason"
                + (currencies ? ",currency\n" : "\n"))
        for order in result.orders {
            file.text.append(integer: order.id.rawValue)
            file.text.append(ascii: ",")
            appendTime(order.createdAt, to: &file.text)
            file.text.append(ascii: ",")
            file.text.append(Self.escape(symbol(order.instrument)))
            file.text.append(order.side == .buy ? ",BUY," : ",SELL,")
            file.text.append(Self.escape(order.type.ibName))
            file.text.append(ascii: ",")
            file.text.append(units: order.quantity.units)
            file.text.append(ascii: ",")
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
            file.text.append(Self.escape(limit))
            file.text.append(ascii: ",")
            file.text.append(Self.escape(stop))
            file.text.append(ascii: ",")
            // The case name, as the string interpolation of the state always spelled it.
            file.text.append(order.state.rawValue)
            file.text.append(ascii: ",")
            file.text.append(units: order.filledQuantity.units)
            file.text.append(ascii: ",")
            if let average = order.averageFillPrice { file.text.append(units: average.units) }
            file.text.append(ascii: ",")
            file.text.append(units: order.commission.units, minimumDecimals: 2)
            file.text.append(ascii: ",")
            if let reason = order.reason { file.text.append(Self.escape(reason)) }
            if currencies {
                file.text.append(ascii: ",")
                file.text.append(priceCurrency(order.instrument))
            }
            file.text.append(ascii: "\n")
            try file.flushIfFull()
        }
        try file.close()
    }

    /// Writes `time,equity,cash,gross_exposure,drawdown` row by row (a 1M-bar curve is ~66 MB of text), and
    /// `buying_power` (equity less the book's initial margin) with the margin rule on.
    public func writeEquityCSV(to path: String) throws(TraderError) {
        var file = try CSVFileWriter(path: path)
        let curve = result.equityCurve
        let withBuyingPower = curve.hasBuyingPower
        file.text.append(withBuyingPower ? "time,equity,cash,gross_exposure,drawdown,buying_power\n" : "time,equity,cash,gross_exposure,drawdown\n")
        for (index, point) in curve.enumerated() {
            appendTime(point.time, to: &file.text)
            file.text.append(ascii: ",")
            file.text.append(cents: point.equity)
            file.text.append(ascii: ",")
            file.text.append(cents: point.cash)
            file.text.append(ascii: ",")
            file.text.append(cents: point.grossExposure)
            file.text.append(ascii: ",")
            file.text.append(shortest: point.drawdown)
            if withBuyingPower, let buyingPower = curve.buyingPower(at: index) {
                file.text.append(ascii: ",")
                file.text.append(cents: buyingPower)
            }
            file.text.append(ascii: "\n")
            try file.flushIfFull()
        }
        try file.close()
    }

    /// `time(_:)` written into `text`.
    private func appendTime(_ timestamp: Timestamp, to text: inout TextBytes) {
        text.append(unixSeconds: timestamp.nanoseconds / Timestamp.nanosecondsPerSecond, withTime: !isDaily)
    }

    /// Quotes a CSV field when it holds a comma or a quote.
    public static func escape(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

