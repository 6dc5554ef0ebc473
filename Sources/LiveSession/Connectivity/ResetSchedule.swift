import Foundation
import TradingModel

/// When IB's servers restart: a daily window (local time of a time zone, may wrap midnight) and whole days.
/// Disconnections and 1100s inside it are expected — logged as such, never as alerts.
///
/// IB restarts its North American servers nightly around 23:45–00:45 US/Eastern, and Sunday is its weekly
/// maintenance day (a full logon is required); `northAmerica` encodes that. Pure: the time is a parameter.
///
/// ```swift
/// let schedule = ResetSchedule.northAmerica
/// schedule.contains(Timestamp(year: 2025, month: 1, day: 15, secondOfDay: 5 * 3600))  // 00:00 New York: true
/// ```
public struct ResetSchedule: Sendable, Hashable, Codable {
    /// The time zone the window is written in (an IANA identifier, e.g. `America/New_York`).
    public let timeZone: TimeZone
    /// Start of the daily window, minutes after local midnight (`nil`: no daily window).
    public let dailyStart: Int?
    /// End of the daily window, minutes after local midnight; a window with `end <= start` wraps midnight.
    public let dailyEnd: Int?
    /// Whole local days inside the schedule.
    public let days: Set<Weekday>

    /// IB North America: 23:45–00:45 America/New_York, and Sunday.
    public static let northAmerica: ResetSchedule = {
        // The identifier ships with every tz database; the fallback only keeps this free of a force unwrap.
        let zone = TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -5 * 3600) ?? .gmt
        return ResetSchedule(timeZone: zone, dailyStart: 23 * 60 + 45, dailyEnd: 45, days: [.sunday])
    }()

    /// Creates a schedule.
    /// - Parameters:
    ///   - timeZone: the zone of the window's clock times.
    ///   - dailyStart: minutes after local midnight (0..<1440), or `nil` for no daily window.
    ///   - dailyEnd: minutes after local midnight (0..<1440); before or at the start: the window wraps midnight.
    ///   - days: whole days.
    public init(timeZone: TimeZone, dailyStart: Int?, dailyEnd: Int?, days: Set<Weekday> = []) {
        self.timeZone = timeZone
        self.dailyStart = dailyStart
        self.dailyEnd = dailyEnd
        self.days = days
    }

    /// Reads the configuration's form: a window `HH:MM-HH:MM` (or `none`), an IANA time zone and day names.
    /// - Throws: `ResetScheduleError` naming what is wrong.
    public init(window: String, timeZone identifier: String, days names: [String]) throws(ResetScheduleError) {
        guard let zone = TimeZone(identifier: identifier) else { throw .unknownTimeZone(identifier) }
        var days: Set<Weekday> = []
        for name in names {
            guard let day = Weekday(name: name) else { throw .unknownDay(name) }
            days.insert(day)
        }
        let trimmed = window.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.isEmpty || trimmed == "none" {
            self.init(timeZone: zone, dailyStart: nil, dailyEnd: nil, days: days)
            return
        }
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let start = Self.minutes(parts[0]), let end = Self.minutes(parts[1]), start != end
        else { throw .malformedWindow(window) }
        self.init(timeZone: zone, dailyStart: start, dailyEnd: end, days: days)
    }

    /// Whether an instant lies inside the schedule (a daily window's start is inside, its end is not).
    public func contains(_ time: Timestamp) -> Bool {
        let utcSeconds = time.nanoseconds / Timestamp.nanosecondsPerSecond
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utcSeconds))))
        let local = Timestamp(seconds: utcSeconds + offset)
        if let day = Weekday(rawValue: local.weekday), days.contains(day) { return true }
        guard let start = dailyStart, let end = dailyEnd else { return false }
        let minute = Int((utcSeconds + offset - local.dayNumber * 86_400) / 60)
        return start < end ? (minute >= start && minute < end) : (minute >= start || minute < end)
    }

    /// When the daily window next opens after `time` (`nil` without a daily window): the nightly reset's time.
    public func nextDailyStart(after time: Timestamp) -> Timestamp? {
        guard let start = dailyStart else { return nil }
        return nextLocal(after: time) { _ in start * 60 }
    }

    /// When the next whole day of the schedule begins after `time` (`nil` without one): IB's weekly maintenance,
    /// when IB Gateway needs a full logon.
    public func nextWholeDay(after time: Timestamp) -> Timestamp? {
        guard !days.isEmpty else { return nil }
        return nextLocal(after: time) { day in
            Weekday(rawValue: Timestamp(seconds: day * 86_400).weekday).map { days.contains($0) } == true ? 0 : nil
        }
    }

    /// The first instant after `time` that is `second(localDay)` seconds into a local day (eight days ahead at most).
    private func nextLocal(after time: Timestamp, _ second: (Int64) -> Int?) -> Timestamp? {
        let utc = time.nanoseconds / Timestamp.nanosecondsPerSecond
        let offset = { (seconds: Int64) in Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))) }
        let today = Timestamp(seconds: utc + offset(utc)).dayNumber
        for day in today...(today + 8) {
            guard let second = second(day) else { continue }
            let local = day * 86_400 + Int64(second)
            let candidate = local - offset(local - offset(utc))
            if candidate > utc { return Timestamp(seconds: candidate) }
        }
        return nil
    }

    /// `HH:MM` as minutes after midnight.
    static func minutes(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":").map(String.init)
        guard parts.count == 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]),
            (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        return h * 60 + m
    }
}

/// A day of the week (`Timestamp.weekday` numbering: Monday = 0).
public enum Weekday: Int, Sendable, Hashable, CaseIterable, Codable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// From an English name or its three-letter abbreviation, any case.
    public init?(name: String) {
        let key = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard let day = Self.allCases.first(where: { "\($0)" == key || "\($0)".prefix(3) == key }) else { return nil }
        self = day
    }
}

/// A reset schedule that cannot be read.
public enum ResetScheduleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not an IANA time zone identifier.
    case unknownTimeZone(String)
    /// Not a day name.
    case unknownDay(String)
    /// Not `HH:MM-HH:MM`.
    case malformedWindow(String)

    public var description: String {
        switch self {
        case .unknownTimeZone(let name): "unknown time zone '\(name)' (use an IANA name such as America/New_York)"
        case .unknownDay(let name): "unknown day '\(name)' (monday … sunday)"
        case .malformedWindow(let text): "reset window '\(text)' is not HH:MM-HH:MM (or none)"
        }
    }
}
