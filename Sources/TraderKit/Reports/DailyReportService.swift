import Foundation
import LiveSession
import Logging
import ServiceLifecycle

/// The daily report of a running bot (`alerts.dailyReportAt`): once a day at that UTC time (after the US close by
/// default), the day's report is made from the journal, written as HTML beside it (`daily-YYYY-MM-DD.html`) and
/// posted as an alert of kind `daily` with its headline (sent whatever `alerts.minimumSeverity` says; route it with
/// `alerts.routes`). A day without fills is skipped quietly; a report that cannot be made is a warning in the log.
public struct DailyReportService: Service {
    /// The journal the report is made from.
    public let journalPath: String
    /// Seconds after midnight UTC.
    public let secondOfDay: Int
    /// Where an alert goes (`AlertCenter.post`; `nil`: the file only).
    public let post: (@Sendable (OperatorAlert) -> Void)?
    let logger: Logger
    let now: @Sendable () -> Date

    /// Creates the service.
    public init(
        journalPath: String, secondOfDay: Int, post: (@Sendable (OperatorAlert) -> Void)?, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.journalPath = journalPath
        self.secondOfDay = secondOfDay
        self.post = post
        self.logger = logger
        self.now = now
    }

    /// The next time the report is due, strictly after `date`.
    public static func next(after date: Date, secondOfDay: Int) -> Date {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let midnight = seconds - ((seconds % 86_400) + 86_400) % 86_400
        let today = midnight + secondOfDay
        return Date(timeIntervalSince1970: TimeInterval(today > seconds ? today : today + 86_400))
    }

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let due = Self.next(after: now(), secondOfDay: secondOfDay)
            let wait = max(0, due.timeIntervalSince(now()))
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(wait)) } } catch { return }
            if Task.isShuttingDownGracefully { return }
            _ = produce()
        }
    }

    /// Makes, writes and posts the report of the journal's last trading day; returns the file written.
    @discardableResult
    public func produce() -> String? {
        let report: DailyReport
        do { report = try DailyReport.make(journalPath: journalPath, date: nil) } catch {
            logger.info("no daily report: \(error)")
            return nil
        }
        let folder = URL(fileURLWithPath: journalPath).deletingLastPathComponent()
        let path = folder.appendingPathComponent("daily-\(report.date).html").path
        do { try report.html.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            logger.warning("the daily report could not be written to \(path): \(error.localizedDescription)")
            return nil
        }
        logger.notice("daily report \(report.headline); written to \(path)")
        let stamp = ISO8601DateFormatter().string(from: now())
        post?(
            OperatorAlert(
                kind: "daily", severity: .info, text: "daily report \(report.headline) (\(path))", time: stamp,
                html: report.html))
        return path
    }
}
