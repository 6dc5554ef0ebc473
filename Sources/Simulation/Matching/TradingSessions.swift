import TradingModel

/// The US stock sessions an order may trade in on intraday data, as IB works them (`USEquityCalendar` has the hours):
///
/// | session | who trades there |
/// |---|---|
/// | regular, 09:30–16:00 New York | every order |
/// | pre-market 04:00–09:30, after-hours 16:00–20:00 | limit and stop-limit orders marked outside-RTH (IB's `outsideRth`) |
/// | overnight 20:00–03:50 | limit orders marked for the overnight session (IB's `includeOvernight`) |
///
/// Market, stop, trailing, midprice and Adaptive orders work in regular hours only, marked or not (IB answers such an
/// order's `outsideRth` with warning 2109 and holds it for the open). Outside its sessions an order rests: it neither
/// fills nor triggers, and a trailing stop does not follow the price. A DAY order lasts to the end of the trading day
/// of the first session it may trade in (so one placed after the close waits for the next day, as at IB), instead of
/// the UTC day.
///
/// **The data over the calendar.** A day on which the data has trades is a trading day, whatever the holiday table
/// says: trades are evidence that the market was open, and the calendar is only a default for data that says nothing
/// (live, synthetic days, warm-up planning). Such a day (`openDays`, from `daysWithBars`) has an ordinary weekday's
/// sessions; within it the session rules above apply as on any other day.
public struct TradingSessions: Hashable, Sendable, Codable {
    /// Every order may work in pre-market and after-hours (`orders.outsideRth`, which marks every order of a run); an
    /// order's own `OrderExecution.outsideRegularHours` does the same for that order.
    public var outsideRegularHours: Bool
    /// Every order may work in the overnight session (`orders.includeOvernight`); an order's own
    /// `OrderExecution.includeOvernight` does the same for that order.
    public var overnight: Bool
    /// New York days (day numbers) the calendar lists as closed on which the data has trades: they trade with an
    /// ordinary weekday's sessions (`daysWithBars`).
    public var openDays: Set<Int64>

    /// Creates the rules: regular hours only unless asked.
    public init(outsideRegularHours: Bool = false, overnight: Bool = false, openDays: Set<Int64> = []) {
        self.outsideRegularHours = outsideRegularHours
        self.overnight = overnight
        self.openDays = openDays
    }

    /// The New York days the calendar lists as closed (holidays, closures, weekends) on which bars fall in an ordinary
    /// weekday's regular session: what `openDays` holds. A bar is taken as evidence of trading whatever its volume (IB
    /// serves no bars for a day the market was shut; a file without volumes says nothing less).
    /// - Parameter times: the bars' times, in any order.
    /// - Returns: the day numbers.
    public static func daysWithBars(_ times: some Sequence<Timestamp>) -> Set<Int64> {
        var days: Set<Int64> = []
        var closed: [Int64: Bool] = [:]
        // A UTC day whose own New York date and the one before are trading days holds no closed day's bar: one lookup
        // per bar instead of a New York date each (catalogues of millions of bars).
        var plainUTCDays: [Int64: Bool] = [:]
        for time in times {
            let utcDay = time.dayNumber
            let plain = plainUTCDays[utcDay] ?? {
                let value = USEquityCalendar.isTradingDay(utcDay) && USEquityCalendar.isTradingDay(utcDay - 1)
                plainUTCDays[utcDay] = value
                return value
            }()
            if plain { continue }
            let day = USEquityCalendar.newYorkDay(of: time)
            if let known = closed[day], !known { continue }
            let isClosed = closed[day] ?? !USEquityCalendar.isTradingDay(day)
            closed[day] = isClosed
            guard isClosed, !days.contains(day) else { continue }
            let regular = USEquityCalendar.ordinarySessions(onDay: day).first { $0.kind == .regular }
            if regular?.contains(time) == true { days.insert(day) }
        }
        return days
    }

    /// The sessions of `day`: the calendar's, or an ordinary weekday's on a day the data opened (`openDays`).
    public func sessions(onDay day: Int64) -> [USEquityCalendar.Session] {
        openDays.contains(day) ? USEquityCalendar.ordinarySessions(onDay: day) : USEquityCalendar.sessions(onDay: day)
    }

    /// The session `time` falls in, with `openDays` (`nil`: every venue is closed).
    public func session(at time: Timestamp) -> USEquityCalendar.Session? {
        guard !openDays.isEmpty else { return USEquityCalendar.session(at: time) }
        let day = USEquityCalendar.newYorkDay(of: time)
        return (sessions(onDay: day) + sessions(onDay: day + 1)).first { $0.contains(time) }
    }

    /// The sessions an order may trade in.
    public func sessions(for type: OrderType, execution: OrderExecution?) -> SessionSet {
        var set: SessionSet = [.regular]
        guard execution?.algo == nil else { return set }
        if outsideRegularHours || execution?.outsideRegularHours == true, type.worksOutsideRegularHours {
            set.formUnion([.preMarket, .afterHours])
        }
        if overnight || execution?.includeOvernight == true, case .limit = type { set.insert(.overnight) }
        return set
    }

    /// When a DAY order submitted at `time` that trades in `sessions` expires: the close of its last session on the
    /// trading day of the first session it may trade in at or after `time` (`nil`: none within two weeks).
    public func dayOrderExpiry(submittedAt time: Timestamp, sessions: SessionSet) -> Timestamp? {
        var day = USEquityCalendar.newYorkDay(of: time)
        for _ in 0..<14 {
            let mine = self.sessions(onDay: day).filter { sessions.contains(SessionSet($0.kind)) }
            if let last = mine.last, last.close > time { return last.close }
            day += 1
        }
        return nil
    }

    /// The session at `time` as a set of one kind (empty while every venue is closed) and the span it lasts, so a
    /// caller asks the calendar once per session rather than once per bar.
    public func span(at time: Timestamp) -> (kind: SessionSet, from: Timestamp, until: Timestamp) {
        let day = USEquityCalendar.newYorkDay(of: time)
        var lastClose = time
        // Two weeks ahead cover any weekend with holidays (and the exchange's few multi-day closures).
        for d in (day - 1)...(day + 14) {
            for session in sessions(onDay: d) {
                if session.contains(time) { return (SessionSet(session.kind), session.open, session.close) }
                if session.open > time { return ([], lastClose, session.open) }
                lastClose = session.close
            }
        }
        return ([], time, time + .days(1))
    }

    /// A set of sessions.
    public struct SessionSet: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let overnight = SessionSet(rawValue: 1)
        public static let preMarket = SessionSet(rawValue: 2)
        public static let regular = SessionSet(rawValue: 4)
        public static let afterHours = SessionSet(rawValue: 8)

        /// The set of one session kind.
        public init(_ kind: USEquityCalendar.SessionKind) {
            switch kind {
            case .overnight: self = .overnight
            case .preMarket: self = .preMarket
            case .regular: self = .regular
            case .afterHours: self = .afterHours
            }
        }

        /// Whether an order of these sessions may trade at `time` (`false` while every venue is closed).
        public func allows(_ time: Timestamp) -> Bool {
            guard let session = USEquityCalendar.session(at: time) else { return false }
            return contains(SessionSet(session.kind))
        }
    }
}

extension OrderType {
    /// Whether IB works this type outside regular hours when it is marked so (limit and stop-limit orders).
    public var worksOutsideRegularHours: Bool {
        switch self {
        case .limit, .stopLimit: true
        case .market, .stop, .trailingAmount, .trailingPercent, .trailingLimit, .midprice: false
        }
    }
}
