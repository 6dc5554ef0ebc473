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
public struct TradingSessions: Hashable, Sendable, Codable {
    /// Every order may work in pre-market and after-hours (`orders.outsideRth`, which marks every order of a run); an
    /// order's own `OrderExecution.outsideRegularHours` does the same for that order.
    public var outsideRegularHours: Bool
    /// Every order may work in the overnight session (`orders.includeOvernight`); an order's own
    /// `OrderExecution.includeOvernight` does the same for that order.
    public var overnight: Bool

    /// Creates the rules: regular hours only unless asked.
    public init(outsideRegularHours: Bool = false, overnight: Bool = false) {
        self.outsideRegularHours = outsideRegularHours
        self.overnight = overnight
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
    public static func dayOrderExpiry(submittedAt time: Timestamp, sessions: SessionSet) -> Timestamp? {
        var day = USEquityCalendar.newYorkDay(of: time)
        for _ in 0..<14 {
            let mine = USEquityCalendar.sessions(onDay: day).filter { sessions.contains(SessionSet($0.kind)) }
            if let last = mine.last, last.close > time { return last.close }
            day += 1
        }
        return nil
    }

    /// The session at `time` as a set of one kind (empty while every venue is closed) and the span it lasts, so a
    /// caller asks the calendar once per session rather than once per bar.
    public static func span(at time: Timestamp) -> (kind: SessionSet, from: Timestamp, until: Timestamp) {
        let day = USEquityCalendar.newYorkDay(of: time)
        var lastClose = time
        // Two weeks ahead cover any weekend with holidays (and the exchange's few multi-day closures).
        for d in (day - 1)...(day + 14) {
            for session in USEquityCalendar.sessions(onDay: d) {
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
