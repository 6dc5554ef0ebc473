/// Checked conversions for times that come from outside the program (the network, a file, the environment, a
/// flag): out of range is `nil`, never an arithmetic trap.
///
/// A `Timestamp` holds nanoseconds in an `Int64`, so it can only represent 1677-09-21…2262-04-11, and the unchecked
/// initialisers trap beyond that. Outside values go through these instead, with a documented range:
/// - **times from the broker and the command line**: the years 1970…2200 (`supportedYears`);
/// - **historical data files**: 1900…2200 (`dataFileYears`), since index histories reach back to the 1920s.
///
/// ```swift
/// Timestamp(checkedSeconds: 1_736_951_400)                    // 2025-01-15T14:30:00Z
/// Timestamp(checkedSeconds: 99_999_999_999)                   // nil: the year 5138
/// Timestamp(checkedYear: 2025, month: 2, day: 30)             // nil: no such day
/// ```
extension Timestamp {
    /// The years a time from the broker, the environment or a flag may have.
    public static let supportedYears: ClosedRange<Int> = 1970...2200
    /// The years a date in a historical data file may have.
    public static let dataFileYears: ClosedRange<Int> = 1900...2200

    /// Seconds since the epoch of the first and last second of `supportedYears`.
    public static let supportedSeconds: ClosedRange<Int64> =
        firstSecond(of: supportedYears.lowerBound)...(firstSecond(of: supportedYears.upperBound + 1) - 1)

    /// A time given in whole seconds since the epoch, within `supportedYears`.
    /// - Parameter seconds: seconds since 1970-01-01T00:00:00Z.
    /// - Returns: `nil` outside `supportedSeconds`.
    public init?(checkedSeconds seconds: Int64) {
        guard Self.supportedSeconds.contains(seconds) else { return nil }
        self.init(seconds: seconds)
    }

    /// A time given in milliseconds since the epoch, within `supportedYears`.
    /// - Parameter milliseconds: milliseconds since 1970-01-01T00:00:00Z.
    /// - Returns: `nil` outside the supported years.
    public init?(checkedMilliseconds milliseconds: Int64) {
        let seconds = milliseconds >= 0 ? milliseconds / 1_000 : (milliseconds + 1) / 1_000 - 1
        guard Self.supportedSeconds.contains(seconds) else { return nil }
        self.init(nanoseconds: milliseconds * 1_000_000)
    }

    /// A civil date and time of day in UTC, checked field by field.
    /// - Parameters:
    ///   - year: the calendar year, within `years`.
    ///   - month: 1–12.
    ///   - day: 1 to the length of that month (leap years included).
    ///   - secondOfDay: 0 to 86,400 (a leap second may end a day).
    ///   - years: the allowed years; `supportedYears` unless the value is a date in a data file.
    /// - Returns: `nil` when any field is out of its range.
    public init?(
        checkedYear year: Int, month: Int, day: Int, secondOfDay: Int64 = 0,
        years: ClosedRange<Int> = Timestamp.supportedYears
    ) {
        guard years.contains(year), (1...12).contains(month),
            (1...CivilDate.daysInMonth(year: year, month: month)).contains(day), (0...86_400).contains(secondOfDay)
        else { return nil }
        self.init(year: year, month: month, day: day, secondOfDay: secondOfDay)
    }

    private static func firstSecond(of year: Int) -> Int64 {
        CivilDate.dayNumber(year: year, month: 1, day: 1) * 86_400
    }
}

extension CivilDate {
    /// The number of days of a month in the proleptic Gregorian calendar (29 for February of a leap year).
    /// - Parameters:
    ///   - year: the year.
    ///   - month: 1–12 (any other value gives 31).
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension TimeSpan {
    /// A span of whole seconds, `nil` when it does not fit (about ±292 years).
    /// - Parameter seconds: the length in seconds.
    public static func checkedSeconds(_ seconds: Int64) -> TimeSpan? {
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: Timestamp.nanosecondsPerSecond)
        return overflow ? nil : TimeSpan(nanoseconds: nanoseconds)
    }
}
