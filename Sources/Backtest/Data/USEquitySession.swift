import TradingModel

/// US equity regular trading hours, 09:30–16:00 New York time (daylight saving by the rules in force since 2007:
/// from the second Sunday of March to the first Sunday of November). Holidays are not modelled: a data set has no
/// bars on them anyway.
public enum USEquitySession {
    /// Whether a bar stamped `time` (UTC) lies within 09:30–16:00 New York time, both ends included (so both
    /// bar-start and bar-end stamped data keep their whole session). Apply it to intraday bars only: a daily bar's
    /// midnight stamp is a date, not a time.
    public static func isRegularHours(_ time: Timestamp) -> Bool {
        let seconds = time.nanoseconds / Timestamp.nanosecondsPerSecond
        let offset: Int64 = isDaylightSaving(time) ? -4 * 3600 : -5 * 3600
        let local = ((seconds + offset) % 86_400 + 86_400) % 86_400
        return local >= 9 * 3600 + 30 * 60 && local <= 16 * 3600
    }

    /// The regular session of a UTC day: 09:30–16:00 New York time, in UTC (13:30–20:00 in summer).
    public static func session(onDay day: Int64) -> (open: Timestamp, close: Timestamp) {
        let noon = Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay + 12 * 3600 * Timestamp.nanosecondsPerSecond)
        let offset: Int64 = isDaylightSaving(noon) ? 4 * 3600 : 5 * 3600
        let base = day * 86_400 + offset
        return (
            Timestamp(nanoseconds: (base + 9 * 3600 + 30 * 60) * Timestamp.nanosecondsPerSecond),
            Timestamp(nanoseconds: (base + 16 * 3600) * Timestamp.nanosecondsPerSecond)
        )
    }

    /// Whether New York observes daylight saving time at `time`: from 2:00 local on the second Sunday of March
    /// to 2:00 local on the first Sunday of November.
    static func isDaylightSaving(_ time: Timestamp) -> Bool {
        let year = time.civilDate.year
        func sunday(month: Int, nth: Int) -> Int64 {
            let first = CivilDate.dayNumber(year: year, month: month, day: 1)
            let weekday = Timestamp(nanoseconds: first * Timestamp.nanosecondsPerDay).weekday  // 0 = Monday
            let toSunday = Int64((6 - weekday + 7) % 7)
            return first + toSunday + Int64(7 * (nth - 1))
        }
        let seconds = time.nanoseconds / Timestamp.nanosecondsPerSecond
        let start = sunday(month: 3, nth: 2) * 86_400 + 7 * 3600  // 02:00 EST = 07:00 UTC
        let end = sunday(month: 11, nth: 1) * 86_400 + 6 * 3600  // 02:00 EDT = 06:00 UTC
        return seconds >= start && seconds < end
    }
}
