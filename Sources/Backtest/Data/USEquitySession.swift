import TradingModel

/// US equity regular trading hours, 09:30–16:00 New York time, for filtering bars (daylight saving as
/// `USEquityCalendar` keeps it). Holidays and early closes are not applied to the filter: a data set has no bars
/// then anyway.
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

    /// The regular session of a UTC day: 09:30–16:00 New York time (13:00 on an early close), in UTC (13:30–20:00 in
    /// summer). A day without trading (a weekend, a holiday) gets the hours it would have had.
    public static func session(onDay day: Int64) -> (open: Timestamp, close: Timestamp) {
        if let regular = USEquityCalendar.sessions(onDay: day).first(where: { $0.kind == .regular }) {
            return (regular.open, regular.close)
        }
        return (USEquityCalendar.utc(day, minutes: 9 * 60 + 30), USEquityCalendar.utc(day, minutes: 16 * 60))
    }

    /// Whether New York observes daylight saving time at `time` (a time of the trading day: the calendar decides by
    /// the date, which is exact from 03:00 to midnight).
    static func isDaylightSaving(_ time: Timestamp) -> Bool { USEquityCalendar.isDaylightSaving(utcDay: time.dayNumber) }
}
