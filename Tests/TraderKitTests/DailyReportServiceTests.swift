import Foundation
import LiveSession
import Logging
import Storage
import Synchronization
import Testing
import TradingModel

@testable import TraderKit

/// The running bot's daily report (issue 23, `alerts.dailyReportAt`): due once a day at its UTC time; written beside
/// the journal and posted as a `daily` alert with its headline.
struct DailyReportServiceTests {
    @Test func theReportIsDueAtItsTimeOfDayStrictlyAfterNow() {
        let at = 21 * 3600 + 15 * 60
        let morning = Date(timeIntervalSince1970: TimeInterval(Timestamp(year: 2026, month: 11, day: 24, secondOfDay: 9 * 3600).nanoseconds / 1_000_000_000))
        let due = DailyReportService.next(after: morning, secondOfDay: at)
        #expect(due.timeIntervalSince(morning) == TimeInterval(at - 9 * 3600))
        #expect(DailyReportService.next(after: due, secondOfDay: at).timeIntervalSince(due) == 86_400, "then tomorrow")
    }

    @Test func theReportIsWrittenBesideTheJournalAndPosted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daily-service-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("journal.sqlite").path
        let journal = try OrderJournal(path: path)
        try DailyReportTests.record(journal, "E1", "AAPL", .buy, 100, "10", DailyReportTests.day2, commission: "1.00")
        let posted = Mutex<[OperatorAlert]>([])
        var logger = Logger(label: "test.daily")
        logger.logLevel = .critical
        let service = DailyReportService(
            journalPath: path, secondOfDay: 0, post: { alert in posted.withLock { $0.append(alert) } }, logger: logger)
        let written = try #require(service.produce())
        #expect(written == folder.appendingPathComponent("daily-2026-11-24.html").path)
        #expect(try String(contentsOfFile: written, encoding: .utf8).contains("2026-11-24"))
        let alert = try #require(posted.withLock { $0.first })
        #expect(alert.kind == "daily")
        #expect(alert.text.hasPrefix("daily report 2026-11-24: realized 0.00, commissions 1.00, net -1.00; 1 fills"))
        #expect(alert.html == (try String(contentsOfFile: written, encoding: .utf8)), "the e-mail and webhook carry the page written")
        // A journal with nothing in it yet: no report, no alert, no error.
        let empty = folder.appendingPathComponent("empty.sqlite").path
        _ = try OrderJournal(path: empty)
        let quiet = DailyReportService(journalPath: empty, secondOfDay: 0, post: { alert in posted.withLock { $0.append(alert) } }, logger: logger)
        #expect(quiet.produce() == nil)
        #expect(posted.withLock { $0.count } == 1)
    }
}
