import Foundation
import Storage
import TradingModel

// The daily report's view of the bot's sessions: the engine's equity over the day and the live-versus-backtest
// drift of the day's orders, both from the sessions' logs (the drift report re-runs each session's core).
extension DailyReport {
    /// One session's part of the day.
    public struct SessionDay: Sendable {
        public var session: Int64
        /// The engine's equity after each bar and each fill of the day (data time).
        public var equity: [(time: Timestamp, equity: Double)] = []
        /// The day's orders: live, in the backtest over the same bars, and those that differ (one line each).
        public var liveOrders = 0
        public var backtestOrders = 0
        public var differences: [String] = []
        /// Why there is no drift for this session (a strategy of its own, a log that cannot be re-run).
        public var unavailable: String?
    }

    /// Sessions whose log is looked at: those started from a week before the day to its end, else (a replay of
    /// old data, whose days are the data's) the latest three. Bounded, so a long-lived journal stays quick.
    static func candidateSessions(_ sessions: [(number: Int64, startedAt: Timestamp)], day: Int64) -> [Int64] {
        let near = sessions.filter { ($0.startedAt.dayNumber >= day - 7) && ($0.startedAt.dayNumber <= day) }
        return (near.isEmpty ? Array(sessions.suffix(3)) : Array(near.suffix(10))).map(\.number)
    }

    /// The day's part of each candidate session that traded or marked its book that day.
    static func sessionDays(journalPath: String, day: Int64) -> [SessionDay] {
        guard let journal = try? OrderJournal(path: journalPath, createIfMissing: false),
            let sessions = try? journal.sessions(), !sessions.isEmpty
        else { return [] }
        var days: [SessionDay] = []
        for number in candidateSessions(sessions.map { ($0.number, $0.startedAt) }, day: day) {
            var part = SessionDay(session: number)
            let startedThatDay = sessions.first { $0.number == number }?.startedAt.dayNumber == day
            do {
                let report = try DriftJob.report(journal: journalPath, session: number)
                part.equity = report.equity.filter { $0.time.dayNumber == day }.map { ($0.time, $0.equity.doubleValue) }
                part.liveOrders = report.live.filter { $0.time.dayNumber == day }.count
                part.backtestOrders = report.backtest.filter { $0.time.dayNumber == day }.count
                part.differences = report.differences
                    .filter { ($0.live ?? $0.backtest)?.time.dayNumber == day }
                    .map { pair in pair.live.map { "live only: \($0)" } ?? "backtest only: \(pair.backtest.map(\.description) ?? "")" }
            } catch {
                part.unavailable = error.description
            }
            if !part.equity.isEmpty || part.liveOrders > 0 || (part.unavailable != nil && startedThatDay) { days.append(part) }
        }
        return days
    }

    /// The sessions' lines: equity at the day's first and last mark, the drift of the day's orders.
    var sessionLines: [String] {
        sessions.flatMap { part -> [String] in
            var lines: [String] = []
            if let first = part.equity.first, let last = part.equity.last {
                let low = part.equity.map(\.equity).min() ?? first.equity, high = part.equity.map(\.equity).max() ?? first.equity
                lines.append(
                    "session \(part.session): equity \(Self.money(first.equity)) → \(Self.money(last.equity)) "
                        + "(low \(Self.money(low)), high \(Self.money(high)); \(part.equity.count) marks)")
            }
            if let reason = part.unavailable {
                lines.append("session \(part.session): no drift report: \(reason)")
            } else {
                lines.append(
                    "session \(part.session): \(part.liveOrders) orders live, \(part.backtestOrders) in the backtest over the same bars: "
                        + (part.differences.isEmpty ? "no drift" : "\(part.differences.count) differ"))
                lines += part.differences.prefix(50).map { "  " + $0 }
            }
            return lines
        }
    }
}
