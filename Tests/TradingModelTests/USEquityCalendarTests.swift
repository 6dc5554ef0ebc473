import Foundation
import Testing
import TradingModel

/// The exchanges' calendar against an independent one: exchange_calendars' XNYS, day by day for 2000–2035
/// (`Tests/Fixtures/golden/nyse-calendar.csv`), and the sessions' hours on days that test the rules.
///
/// The golden file was written with exchange_calendars 4.13.2 (rows sorted by date, header `date,session`):
///
///     import exchange_calendars as xc, pandas as pd
///     s = xc.get_calendar("XNYS", start="2000-01-01", end="2035-12-31").schedule
///     days = set(s.index.date)
///     closed = [(d.date(), "closed") for d in pd.bdate_range("2000-01-01", "2035-12-31") if d.date() not in days]
///     early = [(d.date(), "close " + r.close.tz_convert("America/New_York").strftime("%H:%M"))
///              for d, r in s.iterrows() if r.close.tz_convert("America/New_York").hour < 16]
struct USEquityCalendarTests {
    /// The golden file: weekdays without trading (`closed`) and early closes (`close 13:00`).
    static func golden() throws -> (closed: Set<Int64>, early: Set<Int64>) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/golden/nyse-calendar.csv")
        var closed: Set<Int64> = [], early: Set<Int64> = []
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",")
            let date = fields[0].split(separator: "-").compactMap { Int($0) }
            let day = CivilDate.dayNumber(year: date[0], month: date[1], day: date[2])
            switch fields[1] {
            case "closed": closed.insert(day)
            case "close 13:00": early.insert(day)
            default: Issue.record("unexpected row \(line)")
            }
        }
        return (closed, early)
    }

    static func day(_ year: Int, _ month: Int, _ day: Int) -> Int64 { CivilDate.dayNumber(year: year, month: month, day: day) }

    @Test func everyWeekdayFrom2000To2035AgreesWithExchangeCalendars() throws {
        let (closed, early) = try Self.golden()
        #expect(closed.count == 342 && early.count == 79)
        var checked = 0
        for day in Self.day(2000, 1, 1)...Self.day(2035, 12, 31) where Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay).weekday < 5 {
            let date = CivilDate.fromDayNumber(day)
            #expect(USEquityCalendar.isTradingDay(day) == !closed.contains(day), "\(date): \(USEquityCalendar.holiday(day) ?? "trading")")
            #expect(USEquityCalendar.closesEarly(day) == early.contains(day), "\(date) early close")
            checked += 1
        }
        #expect(checked == 9_391)
        #expect(!USEquityCalendar.isTradingDay(Self.day(2024, 6, 15)), "a Saturday")
    }

    @Test func holidaysByName() {
        #expect(USEquityCalendar.holiday(Self.day(2022, 6, 20)) == "Juneteenth", "the 19th was a Sunday")
        #expect(USEquityCalendar.holiday(Self.day(2027, 6, 18)) == "Juneteenth", "the 19th is a Saturday")
        #expect(USEquityCalendar.holiday(Self.day(2021, 6, 18)) == nil, "not a holiday before 2022")
        #expect(USEquityCalendar.holiday(Self.day(2021, 12, 31)) == nil, "New Year's Day on a Saturday is not observed")
        #expect(USEquityCalendar.holiday(Self.day(2023, 1, 2)) == "New Year's Day", "on a Sunday: the Monday after")
        #expect(USEquityCalendar.holiday(Self.day(2024, 3, 29)) == "Good Friday")
        #expect(USEquityCalendar.holiday(Self.day(2025, 1, 9)) == "the national day of mourning for President Carter")
        #expect(USEquityCalendar.nextTradingDay(after: Self.day(2024, 11, 27)) == Self.day(2024, 11, 29))
    }

    @Test func sessionsInSummerWinterAndOnAnEarlyClose() throws {
        func text(_ day: Int64) -> [String] {
            USEquityCalendar.sessions(onDay: day).map { "\($0.kind.text) \($0.open)–\($0.close)" }
        }
        // Summer (EDT, UTC−4).
        #expect(text(Self.day(2024, 7, 10)) == [
            "overnight 2024-07-10T00:00:00Z–2024-07-10T07:50:00Z", "pre-market 2024-07-10T08:00:00Z–2024-07-10T13:30:00Z",
            "regular 2024-07-10T13:30:00Z–2024-07-10T20:00:00Z", "after-hours 2024-07-10T20:00:00Z–2024-07-11T00:00:00Z",
        ])
        // Winter (EST, UTC−5); the day after Thanksgiving closes at 13:00, its after-hours at 17:00.
        #expect(text(Self.day(2024, 11, 29)) == [
            "overnight 2024-11-29T01:00:00Z–2024-11-29T08:50:00Z", "pre-market 2024-11-29T09:00:00Z–2024-11-29T14:30:00Z",
            "regular 2024-11-29T14:30:00Z–2024-11-29T18:00:00Z", "after-hours 2024-11-29T18:00:00Z–2024-11-29T22:00:00Z",
        ])
        #expect(USEquityCalendar.sessions(onDay: Self.day(2024, 7, 4)).isEmpty)
    }

    @Test func theSessionAtATime() {
        func at(_ y: Int, _ m: Int, _ d: Int, _ hour: Int, _ minute: Int) -> String? {
            let time = Timestamp(year: y, month: m, day: d, secondOfDay: Int64(hour * 3600 + minute * 60))
            return USEquityCalendar.session(at: time).map(\.kind.text)
        }
        #expect(at(2024, 3, 11, 14, 0) == "regular", "10:00 EDT, the first Monday of daylight saving")
        #expect(at(2024, 3, 11, 1, 0) == "overnight", "Sunday 21:00 EDT: Monday's overnight session")
        #expect(at(2024, 3, 9, 2, 0) == nil, "Friday 21:00 EST: no overnight session into Saturday")
        #expect(at(2024, 3, 12, 7, 55) == nil, "03:55 EDT: between the overnight session and the pre-market")
        #expect(at(2024, 7, 3, 18, 0) == "after-hours", "14:00 EDT on an early close")
        #expect(at(2024, 7, 4, 14, 0) == nil, "Independence Day")
        #expect(at(2024, 7, 4, 1, 0) == nil, "21:00 the evening before a holiday")
        #expect(at(2024, 7, 5, 1, 0) == "overnight", "21:00 on the holiday: the next day's overnight session")
    }
}
