import Foundation
import JournalModel
import Storage
import Testing
import TradingModel

@testable import TraderKit

/// `ibtrader report daily` (issue 23): the day's P&L on average cost with positions carried in, checked against a
/// hand computation, and a page without external assets.
struct DailyReportTests {
    static let day1 = Timestamp(year: 2026, month: 11, day: 23, secondOfDay: 15 * 3600)
    static let day2 = Timestamp(year: 2026, month: 11, day: 24, secondOfDay: 15 * 3600)

    /// A fill and its commission report, journaled as the bot does.
    static func record(
        _ journal: OrderJournal, _ id: String, _ symbol: Symbol, _ side: Side, _ quantity: Int64, _ price: String,
        _ time: Timestamp, commission: String
    ) throws {
        try journal.recordFill(JournalFill(execID: id, symbol: symbol, side: side, quantity: Quantity(quantity), price: Price(price)!, time: time))
        try journal.recordCommission(JournalCommission(execID: id, commission: Money(commission)!, currency: "USD", time: time))
    }

    /// A future's P&L and traded value count its multiplier (issue 47): 2 ES bought at 6,000 and sold at 6,010 realize
    /// 10 × 2 × 50 = 1,000, not 20, and traded 600,000 and 601,000 of contract value.
    @Test func aFuturesDayCountsTheMultiplier() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daily-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("journal.sqlite").path
        let journal = try OrderJournal(path: path)
        try Self.record(journal, "F1", "ES 2026-12", .buy, 2, "6000", Self.day2, commission: "4.50")
        try Self.record(journal, "F2", "ES 2026-12", .sell, 2, "6010", Self.day2 + .seconds(60), commission: "4.50")
        let report = try DailyReport.make(journalPath: path, date: nil)
        #expect(report.realized == Money(1_000))
        let es = try #require(report.symbols.first)
        #expect(es.boughtValue == Money(600_000) && es.soldValue == Money(601_000))
        #expect(es.endQuantity == .zero)
    }

    @Test func theDaysPnLIsOnAverageCostWithThePositionCarriedIn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daily-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("journal.sqlite").path
        let journal = try OrderJournal(path: path)
        // Day 1: 100 AAPL at 10. Day 2: 100 more at 12 (average 11), sell 150 at 13 (+300), sell 100 at 9: 50 close
        // at 9 (-100) and 50 open short at 9. 10 MSFT bought and held. By hand: realized 200, commissions 4.00.
        try Self.record(journal, "E1", "AAPL", .buy, 100, "10", Self.day1, commission: "1.00")
        try Self.record(journal, "E2", "AAPL", .buy, 100, "12", Self.day2, commission: "1.00")
        try Self.record(journal, "E3", "AAPL", .sell, 150, "13", Self.day2 + .seconds(60), commission: "1.50")
        try Self.record(journal, "E4", "AAPL", .sell, 100, "9", Self.day2 + .seconds(120), commission: "1.00")
        try Self.record(journal, "E5", "MSFT", .buy, 10, "100", Self.day2 + .seconds(180), commission: "0.50")
        try journal.recordEvent(.connection, "1100 connectivity lost", at: Self.day2 + .seconds(200))
        try journal.recordEvent(.riskDenial, "O-9: maxActivePositions", at: Self.day2 + .seconds(201))
        try journal.recordEvent(.control, "pause by ctl (alice) (news)", at: Self.day2 + .seconds(202))
        try journal.recordEvent(.note, "yesterday", at: Self.day1)

        let report = try DailyReport.make(journalPath: path, date: nil)
        #expect(report.date == "2026-11-24")
        #expect(report.realized == Money(200))
        #expect(report.commissions == Money("4.00"))
        #expect(report.fills.map(\.execID) == ["E2", "E3", "E4", "E5"])
        let aapl = try #require(report.symbols.first { $0.symbol == "AAPL" })
        #expect(aapl.endQuantity == Quantity(-50) && aapl.endAverageCost == 9)
        #expect(aapl.bought == Quantity(100) && aapl.sold == Quantity(250))
        let msft = try #require(report.symbols.first { $0.symbol == "MSFT" })
        #expect(msft.realized == .zero && msft.endQuantity == Quantity(10))
        #expect(report.denials == 1)
        #expect(report.events.map(\.kind) == [.connection, .control])
        #expect(report.headline == "2026-11-24: realized 200.00, commissions 4.00, net 196.00; 4 fills, 1 risk denials, 1 connection events")

        let yesterday = try DailyReport.make(journalPath: path, date: "2026-11-23")
        #expect(yesterday.realized == .zero && yesterday.fills.count == 1 && yesterday.events.count == 1)
        #expect(throws: TraderError.self) { try DailyReport.make(journalPath: path, date: "2026-02-30") }

        let out = folder.appendingPathComponent("daily.html").path
        let printed = try DailyReport.command(journal: path, date: nil, out: out)
        #expect(printed.hasSuffix("written to \(out)"))
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.contains("<td>pause by ctl (alice) (news)</td>"))
        #expect(!page.contains("http://") && !page.contains("https://"), "no external assets")
    }
}
