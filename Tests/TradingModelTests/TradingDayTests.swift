import Foundation
import Testing
import TradingModel

/// Issue 80: the trading day an instrument's time belongs to. A pair's or a future's runs 17:00 to 17:00 New York
/// (daylight saving included), is named by the date it ends on and takes the weekend into Monday's; a stock's is its
/// New York date. Checked against Foundation's America/New_York zone hour by hour for 2000–2035, at both US changes
/// of the clock, across a weekend, on US holidays, and against the sessions IB lists for EUR.USD, CL and ES.
struct TradingDayTests {
    static func utc(_ text: String) -> Timestamp {
        let date = ISO8601DateFormatter().date(from: text)!
        return Timestamp(seconds: Int64(date.timeIntervalSince1970))
    }

    static func day(_ year: Int, _ month: Int, _ day: Int) -> Int64 { CivilDate.dayNumber(year: year, month: month, day: day) }

    static let fx = TradingDay.newYorkFivePM

    @Test func theKindsDays() {
        #expect(TradingDay(symbol: "EUR.USD") == .newYorkFivePM)
        #expect(TradingDay(symbol: "ES 2013-12") == .newYorkFivePM)
        #expect(TradingDay(symbol: "GC continuous") == .newYorkFivePM)
        #expect(TradingDay(symbol: "AAPL") == .newYorkDate)
    }

    /// An independent rule: Foundation's New York time, 17:00 on to the next date, Saturday and Sunday to Monday.
    @Test func everyHourFrom2000To2035AgreesWithFoundationsNewYorkTime() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "America/New_York"))
        var utcCalendar = Calendar(identifier: .gregorian)
        utcCalendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        func expected(_ t: Timestamp) -> Int64 {
            let date = Date(timeIntervalSince1970: TimeInterval(t.nanoseconds / Timestamp.nanosecondsPerSecond))
            let local = calendar.dateComponents([.year, .month, .day, .hour, .weekday], from: date)
            var day = Self.day(local.year!, local.month!, local.day!) + (local.hour! >= 17 ? 1 : 0)
            let weekday = Int(((day + 3) % 7 + 7) % 7)  // 0 Monday
            if weekday == 5 { day += 2 } else if weekday == 6 { day += 1 }
            return day
        }
        var t = Self.utc("2000-01-01T00:00:00Z")
        let end = Self.utc("2036-01-01T00:00:00Z")
        var checked = 0
        while t < end {
            for time in [t, t - .seconds(1)] {
                let day = Self.fx.day(of: time)
                guard day == expected(time) else {
                    Issue.record("\(time): \(day) expected \(expected(time))")
                    return
                }
                #expect(Self.fx.start(ofDay: day) <= time && time < Self.fx.end(ofDay: day), "\(time)")
            }
            checked += 1
            t = t + .hours(1)
        }
        #expect(checked > 315_000)
    }

    /// US daylight saving starts on Sunday 2018-03-11: Friday's day ends at 22:00 UTC (17:00 EST), Monday's at
    /// 21:00 UTC (17:00 EDT). It ends on Sunday 2017-11-05: Friday's ends at 21:00 UTC, Monday's at 22:00 UTC.
    @Test func theDayEndsAt17NewYorkEitherSideOfTheChangesOfTheClock() {
        // Spring.
        #expect(Self.fx.day(of: Self.utc("2018-03-09T21:59:59Z")) == Self.day(2018, 3, 9))
        #expect(Self.fx.day(of: Self.utc("2018-03-09T22:00:00Z")) == Self.day(2018, 3, 12))
        #expect(Self.fx.day(of: Self.utc("2018-03-12T20:59:59Z")) == Self.day(2018, 3, 12))
        #expect(Self.fx.day(of: Self.utc("2018-03-12T21:00:00Z")) == Self.day(2018, 3, 13))
        #expect(Self.fx.start(ofDay: Self.day(2018, 3, 12)) == Self.utc("2018-03-09T22:00:00Z"))
        #expect(Self.fx.end(ofDay: Self.day(2018, 3, 12)) == Self.utc("2018-03-12T21:00:00Z"))
        // Autumn.
        #expect(Self.fx.day(of: Self.utc("2017-11-03T20:59:59Z")) == Self.day(2017, 11, 3))
        #expect(Self.fx.day(of: Self.utc("2017-11-03T21:00:00Z")) == Self.day(2017, 11, 6))
        #expect(Self.fx.day(of: Self.utc("2017-11-06T21:59:59Z")) == Self.day(2017, 11, 6))
        #expect(Self.fx.day(of: Self.utc("2017-11-06T22:00:00Z")) == Self.day(2017, 11, 7))
        #expect(Self.fx.start(ofDay: Self.day(2017, 11, 6)) == Self.utc("2017-11-03T21:00:00Z"))
        #expect(Self.fx.end(ofDay: Self.day(2017, 11, 6)) == Self.utc("2017-11-06T22:00:00Z"))
    }

    /// The week closes on Friday at 17:00 New York; Saturday, Sunday and the Sunday-evening open are Monday's.
    @Test func aWeekendBelongsToMonday() {
        let monday = Self.day(2017, 6, 19)
        for text in ["2017-06-16T21:00:00Z", "2017-06-17T12:00:00Z", "2017-06-18T20:59:59Z", "2017-06-18T21:00:00Z",
                     "2017-06-19T20:59:59Z"] {
            #expect(Self.fx.day(of: Self.utc(text)) == monday, "\(text)")
        }
        #expect(Self.fx.day(of: Self.utc("2017-06-16T20:59:59Z")) == Self.day(2017, 6, 16))
        #expect(Self.fx.start(ofDay: monday) == Self.utc("2017-06-16T21:00:00Z"))
        // A weekend day is read as the Monday after it.
        #expect(Self.fx.firstDay(onOrAfter: Self.day(2017, 6, 17)) == monday)
        #expect(Self.fx.end(ofDay: Self.day(2017, 6, 18)) == Self.fx.end(ofDay: monday))
        // Never a weekend day, however the hour falls.
        var t = Self.utc("2017-06-01T00:00:00Z")
        while t < Self.utc("2017-07-01T00:00:00Z") {
            #expect(Timestamp(nanoseconds: Self.fx.day(of: t) * Timestamp.nanosecondsPerDay).weekday < 5)
            t = t + .minutes(30)
        }
    }

    /// A US holiday is a day of its own. Thanksgiving 2017: IDEALPRO trades through it; CME's holiday session (Wednesday
    /// 18:00 to Thursday 13:00 New York) closes on Thursday and is Thursday's bar; the session that opens on Thursday
    /// evening is Friday's. A stock's day is its New York date, not the UTC date.
    @Test func aUSHolidayIsADayOfItsOwn() {
        let thanksgiving = Self.day(2017, 11, 23)
        #expect(Self.fx.day(of: Self.utc("2017-11-22T23:00:00Z")) == thanksgiving)  // Wednesday 18:00 EST
        #expect(Self.fx.day(of: Self.utc("2017-11-23T17:59:00Z")) == thanksgiving)  // Thursday 12:59 EST
        #expect(Self.fx.day(of: Self.utc("2017-11-23T23:00:00Z")) == Self.day(2017, 11, 24))  // Thursday 18:00 EST
        let independence = Self.day(2017, 7, 4)
        #expect(Self.fx.day(of: Self.utc("2017-07-04T15:00:00Z")) == independence)
        #expect(Self.fx.day(of: Self.utc("2017-07-03T21:00:00Z")) == independence)  // Monday 17:00 EDT
        #expect(TradingDay.newYorkDate.day(of: Self.utc("2017-11-24T00:30:00Z")) == Self.day(2017, 11, 23))
        #expect(TradingDay.newYorkDate.day(of: Self.utc("2017-11-24T05:00:00Z")) == Self.day(2017, 11, 24))
        #expect(TradingDay.newYorkDate.start(ofDay: thanksgiving) == Self.utc("2017-11-23T05:00:00Z"))
        #expect(TradingDay.newYorkDate.end(ofDay: thanksgiving) == Self.utc("2017-11-24T05:00:00Z"))
    }

    /// IB's own sessions (contract details' `tradingHours` as IB sent them, recorded in nautilus_trader's IB test kit)
    /// and IB's rule for daily bars ("the date of the bar will correspond to the day on which the bar closes"): every
    /// second of a session belongs to the day the session closes on.
    @Test func everySessionIBListsIsOneDayNamedByItsClose() {
        // EUR.USD on IDEALPRO, US/Eastern, December 2022 (EST): 20221205:1715-20221206:1700; …; 20221211:1715-20221212:1700.
        let eurusd = [("2022-12-05T22:15:00Z", "2022-12-06T22:00:00Z"), ("2022-12-08T22:15:00Z", "2022-12-09T22:00:00Z"),
                      ("2022-12-11T22:15:00Z", "2022-12-12T22:00:00Z")]
        // CL on NYMEX, US/Eastern: 20221206:1800-20221207:1700; 20221211:1800-20221212:1700.
        let cl = [("2022-12-06T23:00:00Z", "2022-12-07T22:00:00Z"), ("2022-12-11T23:00:00Z", "2022-12-12T22:00:00Z")]
        // ES options on CME, US/Central, July 2024 (CDT): 20240721:1700-20240722:1500.
        let es = [("2024-07-21T22:00:00Z", "2024-07-22T20:00:00Z")]
        for (open, close) in eurusd + cl + es {
            let closeDay = Self.utc(close).dayNumber
            for t in [Self.utc(open), Self.utc(open) + .hours(6), Self.utc(close) - .seconds(1)] {
                #expect(Self.fx.day(of: t) == closeDay, "\(open)–\(close): \(t)")
            }
        }
    }

    @Test func weeksAndMonthsAreMadeOfWholeDays() {
        // 2017-09-30 is a Saturday: it belongs to Monday 2017-10-02, so to October's bar.
        let october = Self.fx.bucket(of: .month, containing: Self.utc("2017-09-30T12:00:00Z"))
        #expect(october.label == Self.utc("2017-10-01T00:00:00Z"))
        #expect(october.start == Self.utc("2017-09-29T21:00:00Z"))
        #expect(october.end == Self.utc("2017-10-31T21:00:00Z"))
        let september = Self.fx.bucket(of: .month, containing: Self.utc("2017-09-29T20:00:00Z"))
        #expect(september.label == Self.utc("2017-09-01T00:00:00Z") && september.end == october.start)
        let week = Self.fx.bucket(of: .week, containing: Self.utc("2017-06-18T22:00:00Z"))  // Sunday evening
        #expect(week.label == Self.utc("2017-06-19T00:00:00Z"))
        #expect(week.start == Self.utc("2017-06-16T21:00:00Z") && week.end == Self.utc("2017-06-23T21:00:00Z"))
        let day = TradingDay.newYorkDate.bucket(of: .day, containing: Self.utc("2017-06-20T03:00:00Z"))
        #expect(day.label == Self.utc("2017-06-19T00:00:00Z"))
    }
}
