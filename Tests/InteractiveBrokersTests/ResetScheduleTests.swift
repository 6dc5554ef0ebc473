import Foundation
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// UTC instant of a date and UTC clock time.
private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int64, _ minute: Int64) -> Timestamp {
    Timestamp(year: year, month: month, day: day, secondOfDay: hour * 3600 + minute * 60)
}

@Suite struct ResetScheduleTests {
    let schedule = ResetSchedule.northAmerica

    @Test("winter (EST, UTC-5): 23:45–00:45 New York is 04:45–05:45 UTC")
    func winterWindow() {
        #expect(!schedule.contains(utc(2025, 1, 16, 4, 44)))  // 23:44 New York
        #expect(schedule.contains(utc(2025, 1, 16, 4, 45)))  // 23:45
        #expect(schedule.contains(utc(2025, 1, 16, 5, 0)))  // 00:00, across midnight
        #expect(schedule.contains(utc(2025, 1, 16, 5, 44)))  // 00:44
        #expect(!schedule.contains(utc(2025, 1, 16, 5, 45)))  // 00:45: the end is outside
        #expect(!schedule.contains(utc(2025, 1, 15, 14, 30)))  // 09:30 on a Wednesday
    }

    @Test("summer (EDT, UTC-4): the same local window is an hour earlier in UTC")
    func summerWindow() {
        #expect(schedule.contains(utc(2025, 7, 16, 3, 50)))  // 23:50 New York
        #expect(!schedule.contains(utc(2025, 7, 16, 4, 50)))  // 00:50 New York (inside in winter's UTC terms)
        #expect(!schedule.contains(utc(2025, 7, 16, 3, 40)))  // 23:40
    }

    @Test("Sunday is a whole day in New York time, not in UTC")
    func sundayInLocalTime() {
        #expect(schedule.contains(utc(2025, 1, 19, 17, 0)))  // Sunday 12:00 New York
        #expect(!schedule.contains(utc(2025, 1, 19, 4, 0)))  // Saturday 23:00 New York, Sunday in UTC
        #expect(schedule.contains(utc(2025, 1, 20, 4, 59)))  // Sunday 23:59 New York, Monday in UTC
        #expect(!schedule.contains(utc(2025, 1, 20, 14, 30)))  // Monday 09:30 New York
    }

    @Test("the config form: window, zone and days; errors name what is wrong")
    func parsing() throws {
        let parsed = try ResetSchedule(window: "23:45-00:45", timeZone: "America/New_York", days: ["Sunday"])
        #expect(parsed == schedule)
        let daytime = try ResetSchedule(window: "05:15-05:30", timeZone: "Europe/Zurich", days: [])
        #expect(daytime.contains(utc(2025, 1, 15, 4, 20)))  // 05:20 in Zurich (UTC+1)
        #expect(!daytime.contains(utc(2025, 1, 15, 5, 20)))
        let none = try ResetSchedule(window: "none", timeZone: "UTC", days: ["sat"])
        #expect(none.contains(utc(2025, 1, 18, 12, 0)) && !none.contains(utc(2025, 1, 17, 23, 50)))
        #expect(throws: ResetScheduleError.unknownTimeZone("Mars/Olympus")) {
            try ResetSchedule(window: "none", timeZone: "Mars/Olympus", days: [])
        }
        #expect(throws: ResetScheduleError.unknownDay("funday")) {
            try ResetSchedule(window: "none", timeZone: "UTC", days: ["funday"])
        }
        for bad in ["25:00-01:00", "23:45", "23:45-23:45", "2345-0045", "23:5-00:45"] {
            #expect(throws: ResetScheduleError.malformedWindow(bad)) {
                try ResetSchedule(window: bad, timeZone: "UTC", days: [])
            }
        }
    }
}

/// The dashboard's "nightly reset" and "weekly logon" times: the next opening of IB's window, in New York time
/// through daylight saving, and the next Sunday's start (hand-computed in UTC).
struct ResetScheduleNextTests {
    let schedule = ResetSchedule.northAmerica

    @Test func theNextNightlyResetIs2345NewYorkWinterAndSummer() {
        // Wednesday 2025-01-15 12:00 UTC (07:00 EST): tonight 23:45 EST = 04:45 UTC on the 16th.
        #expect(schedule.nextDailyStart(after: Timestamp(year: 2025, month: 1, day: 15, secondOfDay: 12 * 3600))
            == Timestamp(year: 2025, month: 1, day: 16, secondOfDay: 4 * 3600 + 45 * 60))
        // In July (EDT, UTC−4): 03:45 UTC.
        #expect(schedule.nextDailyStart(after: Timestamp(year: 2025, month: 7, day: 15, secondOfDay: 12 * 3600))
            == Timestamp(year: 2025, month: 7, day: 16, secondOfDay: 3 * 3600 + 45 * 60))
        // Inside tonight's window (00:10 New York) the next one is tomorrow night's.
        #expect(schedule.nextDailyStart(after: Timestamp(year: 2025, month: 1, day: 16, secondOfDay: 5 * 3600 + 10 * 60))
            == Timestamp(year: 2025, month: 1, day: 17, secondOfDay: 4 * 3600 + 45 * 60))
    }

    @Test func theWeeklyLogonIsTheNextSundaysStartAcrossTheClockChange() {
        // Wednesday 2025-01-15: Sunday the 19th, 00:00 EST = 05:00 UTC.
        #expect(schedule.nextWholeDay(after: Timestamp(year: 2025, month: 1, day: 15, secondOfDay: 12 * 3600))
            == Timestamp(year: 2025, month: 1, day: 19, secondOfDay: 5 * 3600))
        // Saturday 2025-03-08 (clocks go forward at 02:00 on Sunday the 9th): midnight is still EST, 05:00 UTC.
        #expect(schedule.nextWholeDay(after: Timestamp(year: 2025, month: 3, day: 8, secondOfDay: 12 * 3600))
            == Timestamp(year: 2025, month: 3, day: 9, secondOfDay: 5 * 3600))
        // Sunday 2025-11-02 (back to EST at 02:00): the next Sunday, 00:00 EST = 05:00 UTC on the 9th.
        #expect(schedule.nextWholeDay(after: Timestamp(year: 2025, month: 11, day: 2, secondOfDay: 12 * 3600))
            == Timestamp(year: 2025, month: 11, day: 9, secondOfDay: 5 * 3600))
        let none = ResetSchedule(timeZone: .gmt, dailyStart: nil, dailyEnd: nil)
        #expect(none.nextDailyStart(after: .zero) == nil && none.nextWholeDay(after: .zero) == nil)
    }
}
