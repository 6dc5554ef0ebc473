import Foundation
import JournalModel
import Storage
import TradingModel

/// One day of a bot from its journal (`ibtrader report daily`): the day's fills, P&L and commissions by symbol, the
/// positions at the day's end, the runs, and what happened (outages, controls, errors, risk denials). Days are UTC
/// days of the journal's times (data time against the simulator).
///
/// Realized P&L is computed on average cost over every fill of the journal up to the day's end (positions carried
/// in from earlier days count); IB's own realized P&L from the commission reports is shown beside it when the
/// broker reported one for the day's closing fills.
public struct DailyReport: Sendable {
    /// One symbol's day.
    public struct SymbolDay: Sendable, Equatable {
        public var symbol: String
        public var bought = Quantity.zero
        public var sold = Quantity.zero
        public var boughtValue = Money.zero
        public var soldValue = Money.zero
        public var commissions = Money.zero
        public var realized = Money.zero
        /// At the day's end: signed quantity and average cost.
        public var endQuantity = Quantity.zero
        public var endAverageCost = 0.0
    }

    public var date: String
    public var fills: [JournalFill] = []
    public var symbols: [SymbolDay] = []
    public var events: [JournalEvent] = []
    public var denials = 0
    /// IB's realized P&L of the day's fills (`nil` when no commission report carried one).
    public var brokerRealized: Money?
    /// The sessions that traded or marked their book that day: equity and drift (`DailyReport+Sessions.swift`).
    public var sessions: [SessionDay] = []

    public var realized: Money { symbols.reduce(.zero) { $0 + $1.realized } }
    public var commissions: Money { symbols.reduce(.zero) { $0 + $1.commissions } }

    /// The report of `date` (`YYYY-MM-DD`), or of the journal's last day with a fill (with none, an event).
    /// - Throws: `TraderError` with a sentence (no such file, a date that does not parse, nothing that day).
    public static func make(journalPath: String, date: String?) throws -> DailyReport {
        let journal: OrderJournal
        do { journal = try OrderJournal(path: journalPath, createIfMissing: false) } catch {
            throw TraderError("\(journalPath): \(error)")
        }
        let fills = try journal.fills().sorted { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
        let events = try journal.events()
        let day: Int64
        if let date {
            let parts = date.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3, let start = Timestamp(checkedYear: parts[0], month: parts[1], day: parts[2]) else {
                throw TraderError("--date: '\(date)' is not a date like 2026-11-24")
            }
            day = start.dayNumber
        } else {
            // The last trading day: against the simulator, fills carry the data's time and start-up events the wall
            // clock's, so the fills decide when there are any.
            guard let last = fills.map(\.time).max() ?? events.map(\.time).max() else {
                throw TraderError("\(journalPath) holds no fill and no event yet")
            }
            day = last.dayNumber
        }
        var report = build(day: day, fills: fills, events: events)
        report.sessions = sessionDays(journalPath: journalPath, day: day)
        return report
    }

    /// The report of UTC day `day` from the journal's fills (sorted by time) and events.
    static func build(day: Int64, fills: [JournalFill], events: [JournalEvent]) -> DailyReport {
        var report = DailyReport(date: Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay).description.prefix(10).description)
        // Each symbol's book on average cost, as the engine keeps it (`Position.apply`), with its multiplier (a
        // future's P&L and traded value count it).
        var books: [String: Position] = [:]
        var days: [String: SymbolDay] = [:]
        var brokerRealized: Money?
        for fill in fills where fill.time.dayNumber <= day {
            let symbol = fill.symbol.rawValue
            let kind = InstrumentKind(symbol: fill.symbol)
            var book = books[symbol] ?? Position(instrument: InstrumentID(index: 0), kind: kind)
            var row = days[symbol] ?? SymbolDay(symbol: symbol)
            let realized = book.apply(
                Fill(
                    orderID: OrderID(0), instrument: book.instrument, side: fill.side, quantity: fill.quantity,
                    price: fill.price, timestamp: fill.time))
            books[symbol] = book
            if fill.time.dayNumber == day {
                report.fills.append(fill)
                let notional = Money(price: fill.price, quantity: fill.quantity).times(kind.multiplier)
                if fill.side == .buy {
                    row.bought = row.bought + fill.quantity
                    row.boughtValue = row.boughtValue + notional
                } else {
                    row.sold = row.sold + fill.quantity
                    row.soldValue = row.soldValue + notional
                }
                row.commissions = row.commissions + (fill.commission ?? .zero)
                row.realized = row.realized + realized
                if let pnl = fill.realizedPnL { brokerRealized = (brokerRealized ?? .zero) + pnl }
            }
            row.endQuantity = book.quantity
            row.endAverageCost = book.averagePrice.doubleValue
            days[symbol] = row
        }
        report.symbols = days.values.filter { $0.bought != .zero || $0.sold != .zero || $0.endQuantity != .zero }
            .sorted { $0.symbol < $1.symbol }
        report.brokerRealized = brokerRealized
        let todays = events.filter { $0.time.dayNumber == day }
        report.denials = todays.filter { $0.kind == .riskDenial }.count
        report.events = todays.filter { $0.kind != .riskDenial }
        return report
    }
}
