/// A point in time: nanoseconds since the Unix epoch (1970-01-01T00:00:00Z), always UTC.
///
/// Pure modules never read the wall clock; time arrives as a `Timestamp` value from an injected clock or
/// from the data being replayed.
///
/// ```swift
/// let t = Timestamp(seconds: 1_577_975_400)      // 2020-01-02T14:30:00Z
/// let later = t + .minutes(1)
/// ```
public struct Timestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Nanoseconds since the Unix epoch.
    public var nanoseconds: Int64

    /// Nanoseconds in one second.
    public static let nanosecondsPerSecond: Int64 = 1_000_000_000
    /// Nanoseconds in one day.
    public static let nanosecondsPerDay: Int64 = 86_400 * nanosecondsPerSecond
    /// The Unix epoch.
    public static let zero = Timestamp(nanoseconds: 0)

    /// Creates a timestamp from nanoseconds since the epoch.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Creates a timestamp from whole seconds since the epoch.
    public init(seconds: Int64) { self.nanoseconds = seconds * Self.nanosecondsPerSecond }

    /// Whole days since the epoch (UTC calendar day), rounding towards negative infinity.
    public var dayNumber: Int64 {
        nanoseconds >= 0 ? nanoseconds / Self.nanosecondsPerDay : (nanoseconds + 1) / Self.nanosecondsPerDay - 1
    }

    /// Day of the week, 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    public var weekday: Int { Int(((dayNumber + 3) % 7 + 7) % 7) }

    /// The civil (proleptic Gregorian) date of this timestamp in UTC.
    public var civilDate: (year: Int, month: Int, day: Int) { CivilDate.fromDayNumber(dayNumber) }

    /// Creates the timestamp of a UTC civil date and time of day.
    /// - Parameters:
    ///   - year: the calendar year.
    ///   - month: 1–12.
    ///   - day: 1–31.
    ///   - secondOfDay: seconds since midnight UTC.
    public init(year: Int, month: Int, day: Int, secondOfDay: Int64 = 0) {
        let days = CivilDate.dayNumber(year: year, month: month, day: day)
        self.nanoseconds = days * Self.nanosecondsPerDay + secondOfDay * Self.nanosecondsPerSecond
    }

    /// ISO-8601 text, e.g. `2020-01-02T14:30:00Z` (fractional seconds are dropped).
    public var description: String {
        let (y, m, d) = civilDate
        let secs = (nanoseconds - dayNumber * Self.nanosecondsPerDay) / Self.nanosecondsPerSecond
        let hh = secs / 3600, mm = (secs / 60) % 60, ss = secs % 60
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(Int(hh), 2)):\(pad(Int(mm), 2)):\(pad(Int(ss), 2))Z"
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// Adds a duration.
    public static func + (lhs: Timestamp, rhs: TimeSpan) -> Timestamp {
        Timestamp(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }

    /// Subtracts a duration.
    public static func - (lhs: Timestamp, rhs: TimeSpan) -> Timestamp {
        Timestamp(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    /// The duration between two timestamps.
    public static func - (lhs: Timestamp, rhs: Timestamp) -> TimeSpan {
        TimeSpan(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }
}

/// A signed span of time in nanoseconds.
public struct TimeSpan: Hashable, Comparable, Sendable, Codable {
    /// Length in nanoseconds.
    public var nanoseconds: Int64
    /// Creates a span from nanoseconds.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    /// No time.
    public static let zero = TimeSpan(nanoseconds: 0)
    /// A span of whole seconds.
    public static func seconds(_ s: Int64) -> TimeSpan { TimeSpan(nanoseconds: s * 1_000_000_000) }
    /// A span of whole minutes.
    public static func minutes(_ m: Int64) -> TimeSpan { .seconds(m * 60) }
    /// A span of whole hours.
    public static func hours(_ h: Int64) -> TimeSpan { .seconds(h * 3600) }
    /// A span of whole days (86,400 s each).
    public static func days(_ d: Int64) -> TimeSpan { .seconds(d * 86_400) }
    /// A span of milliseconds.
    public static func milliseconds(_ ms: Int64) -> TimeSpan { TimeSpan(nanoseconds: ms * 1_000_000) }
    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}

private func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// Conversions between civil dates and day numbers (Howard Hinnant's algorithms), UTC only.
public enum CivilDate {
    /// Days since 1970-01-01 of a proleptic Gregorian date.
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day number.
    public static func fromDayNumber(_ z0: Int64) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }
}
