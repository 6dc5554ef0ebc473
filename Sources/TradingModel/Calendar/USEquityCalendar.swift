/// The US stock exchanges' calendar (NYSE's rules; Nasdaq closes on the same days): trading days, holidays, early
/// closes, and the four sessions IB trades a US stock in, in New York time:
///
/// | session | hours | IB |
/// |---|---|---|
/// | overnight | 20:00 the evening before – 03:50 | `includeOvernight` (IBEOS), Sunday evening to Friday morning |
/// | pre-market | 04:00 – 09:30 | `outsideRth` |
/// | regular | 09:30 – 16:00 (13:00 on an early close) | |
/// | after-hours | 16:00 – 20:00 (13:00 – 17:00 on an early close) | `outsideRth` |
///
/// Holidays follow the exchange's rules: New Year's Day (on a Sunday, the Monday after; on a Saturday, not observed),
/// Martin Luther King Jr. Day, Washington's Birthday, Good Friday, Memorial Day, Juneteenth (from 2022), Independence
/// Day, Labor Day, Thanksgiving and Christmas (on a Saturday, the Friday before; on a Sunday, the Monday after), and
/// the closures the exchange declared (2001-09-11…14, 2004-06-11, 2007-01-02, 2012-10-29/30, 2018-12-05,
/// 2025-01-09). Early closes (13:00): the day before Independence Day (Monday, Tuesday or Thursday; Wednesday from
/// 2013), the day after Thanksgiving, Christmas Eve on a weekday, and 2002-07-05 and 2003-12-26. Checked day by day
/// against exchange_calendars' XNYS for 2000–2035 (`Tests/Fixtures/golden/nyse-calendar.csv`); a closure declared
/// after this release is not known here (a live run reads IB's own trading hours).
///
/// Days are day numbers (days since 1970-01-01) of the New York calendar date; times are UTC.
public enum USEquityCalendar {
    /// One of a trading day's sessions.
    public enum SessionKind: String, Sendable, CaseIterable {
        case overnight, preMarket, regular, afterHours

        /// As a person says it: `overnight`, `pre-market`, `regular`, `after-hours`.
        public var text: String {
            switch self {
            case .overnight: "overnight"
            case .preMarket: "pre-market"
            case .regular: "regular"
            case .afterHours: "after-hours"
            }
        }
    }

    /// A session of a trading day, in UTC.
    public struct Session: Sendable, Equatable {
        public var kind: SessionKind
        public var open: Timestamp
        public var close: Timestamp

        /// Whether `time` lies in it (open included, close excluded).
        public func contains(_ time: Timestamp) -> Bool { time >= open && time < close }
    }

    /// Whether the exchanges trade on `day` (a weekday that is no holiday).
    public static func isTradingDay(_ day: Int64) -> Bool { weekday(day) < 5 && holiday(day) == nil }

    /// The holiday or closure that shuts the exchanges on `day`, by name (`nil` on a trading day or a weekend).
    public static func holiday(_ day: Int64) -> String? {
        guard weekday(day) < 5 else { return nil }
        if let closure = closures[day] { return closure }
        if tableDays.contains(day) { return ruleHolidays[day] }
        return holidays(of: CivilDate.fromDayNumber(day).year)[day]
    }

    /// The rule holidays of 1950–2150, worked out once: the simulator and the matching engine ask about a session
    /// every few seconds of data, and a year's rules each time were 3 % of a sandbox run.
    static let ruleHolidays: [Int64: String] = {
        var all: [Int64: String] = [:]
        for year in 1950...2150 { all.merge(holidays(of: year)) { first, _ in first } }
        return all
    }()

    /// The days `ruleHolidays` covers.
    static let tableDays = CivilDate.dayNumber(year: 1950, month: 1, day: 1)..<CivilDate.dayNumber(year: 2151, month: 1, day: 1)

    /// Whether `day` closes early (13:00 New York).
    public static func closesEarly(_ day: Int64) -> Bool {
        guard isTradingDay(day) else { return false }
        let date = CivilDate.fromDayNumber(day)
        let weekday = weekday(day)
        switch (date.month, date.day) {
        case (7, 3): return weekday == 0 || weekday == 1 || weekday == 3 || (weekday == 2 && date.year >= 2013)
        case (12, 24): return weekday <= 3
        case (11, _): return weekday == 4 && day - 1 == thanksgiving(date.year)
        default: return specialEarlyCloses.contains(day)
        }
    }

    /// The sessions of `day`, in time order (none on a day without trading).
    public static func sessions(onDay day: Int64) -> [Session] {
        guard isTradingDay(day) else { return [] }
        return ordinarySessions(onDay: day)
    }

    /// The sessions `day` has as a trading day, whatever the calendar says of it: a holiday's are an ordinary
    /// weekday's (for a day the data shows trading on, `TradingSessions.openDays`); an early close keeps its hours.
    public static func ordinarySessions(onDay day: Int64) -> [Session] {
        let close = closesEarly(day) ? 13 * 60 : 16 * 60
        return [
            Session(kind: .overnight, open: utc(day - 1, minutes: 20 * 60), close: utc(day, minutes: 3 * 60 + 50)),
            Session(kind: .preMarket, open: utc(day, minutes: 4 * 60), close: utc(day, minutes: 9 * 60 + 30)),
            Session(kind: .regular, open: utc(day, minutes: 9 * 60 + 30), close: utc(day, minutes: close)),
            Session(kind: .afterHours, open: utc(day, minutes: close), close: utc(day, minutes: close + 4 * 60)),
        ]
    }

    /// The session `time` falls in (`nil`: the exchanges and IB's overnight venue are all closed).
    public static func session(at time: Timestamp) -> Session? {
        let day = newYorkDay(of: time)
        // Tonight's overnight session belongs to tomorrow's trading day.
        return (sessions(onDay: day) + sessions(onDay: day + 1)).first { $0.contains(time) }
    }

    /// The first trading day after `day`.
    public static func nextTradingDay(after day: Int64) -> Int64 {
        var next = day + 1
        while !isTradingDay(next) { next += 1 }
        return next
    }

    /// The New York calendar date of a time, as a day number.
    public static func newYorkDay(of time: Timestamp) -> Int64 {
        // The offset of the UTC day's noon: a time on the day of a change is at most an hour off, far from midnight.
        let offset: Int64 = isDaylightSaving(utcDay: time.dayNumber) ? 4 : 5
        return (time - .seconds(offset * 3600)).dayNumber
    }

    // MARK: - Rules

    /// The closures the exchange declared outside its rules, since 2000.
    static let closures: [Int64: String] = Dictionary(uniqueKeysWithValues: [
        ((2001, 9, 11), "the September 11 attacks"), ((2001, 9, 12), "the September 11 attacks"),
        ((2001, 9, 13), "the September 11 attacks"), ((2001, 9, 14), "the September 11 attacks"),
        ((2004, 6, 11), "the national day of mourning for President Reagan"),
        ((2007, 1, 2), "the national day of mourning for President Ford"),
        ((2012, 10, 29), "Hurricane Sandy"), ((2012, 10, 30), "Hurricane Sandy"),
        ((2018, 12, 5), "the national day of mourning for President George H. W. Bush"),
        ((2025, 1, 9), "the national day of mourning for President Carter"),
    ].map { (CivilDate.dayNumber(year: $0.0.0, month: $0.0.1, day: $0.0.2), $0.1) })

    /// Early closes outside the rules.
    static let specialEarlyCloses: Set<Int64> = [
        CivilDate.dayNumber(year: 2002, month: 7, day: 5), CivilDate.dayNumber(year: 2003, month: 12, day: 26),
    ]

    /// The rule holidays of a year, on the weekday they are observed.
    static func holidays(of year: Int) -> [Int64: String] {
        func date(_ month: Int, _ day: Int) -> Int64 { CivilDate.dayNumber(year: year, month: month, day: day) }
        /// A fixed-date holiday on a weekend moves to the Friday before or the Monday after.
        func observed(_ day: Int64) -> Int64 {
            switch weekday(day) {
            case 5: day - 1
            case 6: day + 1
            default: day
            }
        }
        var days: [Int64: String] = [:]
        let newYear = date(1, 1)
        if weekday(newYear) != 5 { days[observed(newYear)] = "New Year's Day" }  // on a Saturday: not observed
        days[nth(0, 3, of: 1, in: year)] = "Martin Luther King Jr. Day"
        days[nth(0, 3, of: 2, in: year)] = "Washington's Birthday"
        days[easter(year) - 2] = "Good Friday"
        days[last(0, of: 5, in: year)] = "Memorial Day"
        if year >= 2022 { days[observed(date(6, 19))] = "Juneteenth" }
        days[observed(date(7, 4))] = "Independence Day"
        days[nth(0, 1, of: 9, in: year)] = "Labor Day"
        days[thanksgiving(year)] = "Thanksgiving"
        days[observed(date(12, 25))] = "Christmas"
        return days
    }

    /// The fourth Thursday of November.
    static func thanksgiving(_ year: Int) -> Int64 { nth(3, 4, of: 11, in: year) }

    /// The `n`-th `weekday` (0 = Monday) of a month.
    static func nth(_ weekday: Int, _ n: Int, of month: Int, in year: Int) -> Int64 {
        let first = CivilDate.dayNumber(year: year, month: month, day: 1)
        return first + Int64((weekday - self.weekday(first) + 7) % 7 + 7 * (n - 1))
    }

    /// The last `weekday` (0 = Monday) of a month.
    static func last(_ weekday: Int, of month: Int, in year: Int) -> Int64 {
        let next = month == 12 ? CivilDate.dayNumber(year: year + 1, month: 1, day: 1)
            : CivilDate.dayNumber(year: year, month: month + 1, day: 1)
        return next - 1 - Int64((self.weekday(next - 1) - weekday + 7) % 7)
    }

    /// Easter Sunday (the anonymous Gregorian algorithm).
    static func easter(_ year: Int) -> Int64 {
        let a = year % 19, b = year / 100, c = year % 100, d = b / 4, e = b % 4
        let f = (b + 8) / 25, g = (b - f + 1) / 3, h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4, l = (32 + 2 * e + 2 * i - h - k) % 7, m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31, day = (h + l - 7 * m + 114) % 31 + 1
        return CivilDate.dayNumber(year: year, month: month, day: day)
    }

    /// 0 = Monday … 6 = Sunday.
    static func weekday(_ day: Int64) -> Int { Int(((day + 3) % 7 + 7) % 7) }

    /// `minutes` after midnight New York time on `day`, in UTC.
    public static func utc(_ day: Int64, minutes: Int) -> Timestamp {
        let offset: Int64 = isDaylightSaving(utcDay: day) ? 4 * 60 : 5 * 60
        return Timestamp(seconds: (day * 1440 + Int64(minutes) + offset) * 60)
    }

    /// Whether New York keeps daylight saving time at noon on `day`: from the second Sunday of March to the first
    /// Sunday of November (the rules since 2007; earlier years from the first Sunday of April to the last of October).
    public static func isDaylightSaving(utcDay day: Int64) -> Bool {
        let year = CivilDate.fromDayNumber(day).year
        func sunday(_ month: Int, _ n: Int) -> Int64 { nth(6, n, of: month, in: year) }
        let (start, end) = year >= 2007 ? (sunday(3, 2), sunday(11, 1))
            : (sunday(4, 1), last(6, of: 10, in: year))
        return day >= start && day < end
    }
}
