/// Which day a moment of trading belongs to, for an instrument: the one rule behind every daily bar IBTrader builds
/// or serves (the backtest's aggregation, the bot's bars from 5-second bars, the gateway simulator's historical bars).
///
/// - **Stocks** (`newYorkDate`): the New York calendar date. A US stock's sessions (04:00–20:00 New York, regular
///   09:30–16:00) never cross midnight there.
/// - **Currency pairs and futures** (`newYorkFivePM`): the day runs from 17:00 New York to 17:00 New York, daylight
///   saving time included (21:00–21:00 UTC in summer, 22:00–22:00 UTC in winter), and is named by the date it ends
///   on: the bar of day D covers [D−1 17:00, D 17:00). A weekend belongs to the Monday after it, so the Sunday-evening
///   open starts Monday's bar (there is no Sunday bar), and Friday's bar covers Thursday 17:00 to Friday 17:00.
///   A US holiday is a day like any other: its bar holds whatever traded in it (IDEALPRO trades through US
///   holidays; CME's shortened holiday session closes on the holiday and is that day's bar).
///
/// The sources:
/// - IB, *Historical Bar Data* (TWS API documentation): "A daily bar will refer to a trading session which may cross
///   calendar days. In that case the date of the bar will correspond to the day on which the bar closes."
/// - IB's contract details for the sessions (`tradingHours`, as IB sent them, recorded in nautilus_trader's IB test
///   kit): EUR.USD on IDEALPRO `20221205:1715-20221206:1700;…;20221210:CLOSED;20221211:1715-20221212:1700` (US/Eastern:
///   the Sunday 17:15 open runs to Monday 17:00), CL on NYMEX `20221206:1800-20221207:1700` (US/Eastern), ES options on
///   CME `20240721:1700-20240722:1500` (US/Central). IB's currency hours page: "IDEAL PRO Currencies Sunday - Friday:
///   17:15 - 17:00 ET".
/// - CME Globex: every product `FutureSpec` knows (CME equity index and currency futures, CBOT YM, ZN, ZB, NYMEX CL,
///   MCL, NG, COMEX GC, MGC, SI, HG) trades Sunday to Friday 17:00–16:00 Chicago (18:00–17:00 New York) with a daily
///   break 16:00–17:00 Chicago, so every one of their days ends at 17:00 New York. IDEALPRO's daily break is
///   17:00–17:15 New York. The day's boundary lies inside both breaks, so no bar straddles it.
///
/// Days are day numbers (days since 1970-01-01, `CivilDate`); times are UTC. A daily bar is labelled with its day at
/// midnight UTC (`Timestamp(nanoseconds: day * nanosecondsPerDay)`), as daily CSV files and IB's `yyyyMMdd` have it.
public enum TradingDay: Sendable, Hashable, Codable {
    /// The New York calendar date (stocks, ETFs, indices).
    case newYorkDate
    /// 17:00 New York to 17:00 New York, named by the end's date, weekends in Monday (currency pairs and futures).
    case newYorkFivePM

    /// The end of a `newYorkFivePM` day: 17:00, in minutes after midnight New York.
    public static let fivePMMinutes = 17 * 60

    /// The rule an instrument's days follow.
    public init(kind: InstrumentKind) {
        switch kind {
        case .stock: self = .newYorkDate
        case .future, .forex: self = .newYorkFivePM
        }
    }

    /// The rule for a universe's symbol (`InstrumentKind(symbol:)`: `EUR.USD` and `ES 2026-12` are 24-hour products).
    public init(symbol: Symbol) { self.init(kind: InstrumentKind(symbol: symbol)) }

    /// The day `time` belongs to.
    /// - Returns: a day number; under `newYorkFivePM` always a weekday.
    public func day(of time: Timestamp) -> Int64 {
        switch self {
        case .newYorkDate:
            return USEquityCalendar.newYorkDay(of: time)
        case .newYorkFivePM:
            // 17:00 New York is 21:00 or 22:00 UTC on the same UTC date, so the day is that date or the next.
            let date = time.dayNumber
            let day = time < USEquityCalendar.utc(date, minutes: Self.fivePMMinutes) ? date : date + 1
            return firstDay(onOrAfter: day)
        }
    }

    /// The first instant of `day` (UTC): midnight New York, or 17:00 New York of the weekday before (a Monday's day
    /// starts on Friday at 17:00). A weekend day under `newYorkFivePM` is read as the Monday after it.
    public func start(ofDay day: Int64) -> Timestamp {
        switch self {
        case .newYorkDate:
            return USEquityCalendar.utc(day, minutes: 0)
        case .newYorkFivePM:
            let day = firstDay(onOrAfter: day)
            let previous = day - (Self.weekday(day) == 0 ? 3 : 1)
            return USEquityCalendar.utc(previous, minutes: Self.fivePMMinutes)
        }
    }

    /// The instant after the last of `day` (UTC): the next midnight New York, or 17:00 New York on the day (on the
    /// Monday after, for a weekend day under `newYorkFivePM`).
    public func end(ofDay day: Int64) -> Timestamp {
        switch self {
        case .newYorkDate:
            return USEquityCalendar.utc(day + 1, minutes: 0)
        case .newYorkFivePM:
            return USEquityCalendar.utc(firstDay(onOrAfter: day), minutes: Self.fivePMMinutes)
        }
    }

    /// The first day on or after `day` that has a bar: `day` itself for dates, the Monday after a weekend for
    /// `newYorkFivePM`.
    public func firstDay(onOrAfter day: Int64) -> Int64 {
        guard self == .newYorkFivePM else { return day }
        switch Self.weekday(day) {
        case 5: return day + 2
        case 6: return day + 1
        default: return day
        }
    }

    /// A bar period made of whole days.
    public enum Period: Sendable, Hashable {
        /// One day.
        case day
        /// Monday to Sunday's days (Monday to Friday under `newYorkFivePM`), labelled with the Monday.
        case week
        /// A calendar month's days, labelled with the 1st.
        case month
    }

    /// The bar of `period` that `time` falls in.
    /// - Returns: its label (midnight UTC of the day, the week's Monday or the month's 1st), its first instant and the
    ///   instant after its last: a week of `newYorkFivePM` runs from Friday 17:00 to Friday 17:00 New York, a month
    ///   from the start of its first weekday's day to the start of the next month's.
    public func bucket(of period: Period, containing time: Timestamp) -> (label: Timestamp, start: Timestamp, end: Timestamp) {
        let day = day(of: time)
        func midnight(_ day: Int64) -> Timestamp { Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay) }
        switch period {
        case .day:
            return (midnight(day), start(ofDay: day), end(ofDay: day))
        case .week:
            let monday = day - Int64(Self.weekday(day))
            return (midnight(monday), start(ofDay: monday), start(ofDay: monday + 7))
        case .month:
            let date = CivilDate.fromDayNumber(day)
            let first = CivilDate.dayNumber(year: date.year, month: date.month, day: 1)
            let next = date.month == 12 ? CivilDate.dayNumber(year: date.year + 1, month: 1, day: 1)
                : CivilDate.dayNumber(year: date.year, month: date.month + 1, day: 1)
            return (midnight(first), start(ofDay: first), start(ofDay: next))
        }
    }

    /// 0 = Monday … 6 = Sunday.
    static func weekday(_ day: Int64) -> Int { Int(((day + 3) % 7 + 7) % 7) }
}
