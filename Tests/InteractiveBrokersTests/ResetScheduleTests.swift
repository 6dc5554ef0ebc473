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
