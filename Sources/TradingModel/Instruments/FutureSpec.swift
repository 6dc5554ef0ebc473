/// The contract terms of one futures product (a root such as `ES`), as the exchange publishes them.
///
/// Business days are the US exchanges' trading days (`USEquityCalendar`: weekdays without NYSE's holidays), which is
/// what CME's calendar is for every product listed here.
public struct FutureSpec: Hashable, Sendable {
    /// The root symbol, e.g. `ES`: IB's contract `symbol` and the start of the local symbol (`ESZ6`).
    public let root: String
    /// What the product is, for people.
    public let name: String
    /// IB's exchange for the contract.
    public let exchange: String
    /// The currency of prices and P&L.
    public let currency: String
    /// Currency units per point of price per contract (50 for ES: a 1-point move is $50 a contract).
    public let multiplier: Int64
    /// Minimum price increment.
    public let tickSize: Price
    /// The months with a listed contract (March, June, September, December for ES; every month for crude and metals).
    public let months: [Int]
    /// When trading in a contract month ends.
    public let lastTrade: LastTradeRule
    /// The months a rolled position holds: the liquid ones (`months` unless the product lists illiquid months near the
    /// front, as metals do).
    public let rollMonths: [Int]

    /// When trading in a contract ends, as CME states it for the product.
    public enum LastTradeRule: Hashable, Sendable {
        /// The third Friday of the contract month (equity index futures), or the business day before when it is a
        /// holiday.
        case thirdFriday
        /// `days` business days before the third Wednesday of the contract month (currency futures: 2).
        case businessDaysBeforeThirdWednesday(Int)
        /// `days` business days before the last business day of the contract month (Treasury notes and bonds: 7).
        case businessDaysBeforeLastBusinessDay(Int)
        /// The third last business day of the contract month (metals).
        case thirdLastBusinessDay
        /// 3 business days before the 25th of the month before the contract month, 4 when the 25th is not a business
        /// day (crude oil).
        case crudeOil
        /// 3 business days before the first day of the contract month (natural gas).
        case threeBusinessDaysBeforeTheMonth
    }

    /// The last trading day of a contract month, as a day number (days since 1970-01-01).
    public func lastTradingDay(of month: ContractMonth) -> Int64 {
        switch lastTrade {
        case .thirdFriday:
            let friday = Self.weekdayOnOrAfter(month.day(1), weekday: 4) + 14
            return Self.isBusinessDay(friday) ? friday : Self.businessDays(before: friday, count: 1)
        case let .businessDaysBeforeThirdWednesday(days):
            let wednesday = Self.weekdayOnOrAfter(month.day(1), weekday: 2) + 14
            return Self.businessDays(before: wednesday, count: days)
        case let .businessDaysBeforeLastBusinessDay(days):
            return Self.businessDays(before: Self.lastBusinessDay(of: month), count: days)
        case .thirdLastBusinessDay:
            return Self.businessDays(before: Self.lastBusinessDay(of: month), count: 2)
        case .crudeOil:
            let twentyFifth = month.previous.day(25)
            return Self.businessDays(before: twentyFifth, count: Self.isBusinessDay(twentyFifth) ? 3 : 4)
        case .threeBusinessDaysBeforeTheMonth:
            return Self.businessDays(before: month.day(1), count: 3)
        }
    }

    /// Business days before the last trading day that a position leaves a contract, unless configured: ES's volume
    /// moves to the next contract about a week before expiry.
    public static let defaultRollDays = 5

    /// The trading day a time belongs to, as CME Globex counts it: the New York date, and from 18:00 New York on (when
    /// the evening session opens) the next one. A daily bar's date (midnight UTC, 19:00 or 20:00 the evening before in
    /// New York) is its own day. One rule for the backtest and the bot: the day a roll, an expiry exit or an entry's
    /// refusal starts on is the same whether the bars are daily, hourly or 5-second, and never steps back (a
    /// midnight-UTC hourly bar once counted as the next day and the bar after it as the day before).
    public static func tradingDay(of time: Timestamp) -> Int64 {
        USEquityCalendar.newYorkDay(of: time + .seconds(6 * 3600))
    }

    /// The day a rolled position leaves a contract month: `days` business days before its last trading day (the
    /// position is in the next contract from that day on).
    public func rollDay(of month: ContractMonth, days: Int) -> Int64 {
        Self.businessDays(before: lastTradingDay(of: month), count: max(0, days))
    }

    /// The roll month before `month` (ES: the last quarter's).
    public func previousRollMonth(before month: ContractMonth) -> ContractMonth {
        var previous = month.previous
        for _ in 0..<24 where !rollMonths.contains(previous.month) { previous = previous.previous }
        return previous
    }

    /// The roll month after `month` (ES: the next quarter's).
    public func nextRollMonth(after month: ContractMonth) -> ContractMonth {
        var next = month.next
        for _ in 0..<24 where !rollMonths.contains(next.month) { next = next.next }
        return next
    }

    /// The contract a rolled position holds on a day: the first of `rollMonths` whose roll day is after it.
    public func frontMonth(onDay day: Int64, rollDays: Int) -> ContractMonth {
        let civil = CivilDate.fromDayNumber(day)
        var month = ContractMonth(year: min(max(civil.year, 2000), 2199), month: civil.month) ?? ContractMonth(year: 2000, month: 1)!
        for _ in 0..<36 {
            if rollMonths.contains(month.month), rollDay(of: month, days: rollDays) > day { return month }
            month = month.next
        }
        return month
    }

    static func isBusinessDay(_ day: Int64) -> Bool { USEquityCalendar.isTradingDay(day) }

    /// The business day `count` business days before `day` (`day` itself is not counted).
    static func businessDays(before day: Int64, count: Int) -> Int64 {
        var current = day
        var left = count
        while left > 0 {
            current -= 1
            if isBusinessDay(current) { left -= 1 }
        }
        return current
    }

    static func lastBusinessDay(of month: ContractMonth) -> Int64 {
        var day = month.day(month.dayCount)
        while !isBusinessDay(day) { day -= 1 }
        return day
    }

    /// The first day on or after `day` with a weekday (0 Monday … 6 Sunday).
    static func weekdayOnOrAfter(_ day: Int64, weekday: Int) -> Int64 {
        let current = Int(((day + 3) % 7 + 7) % 7)
        return day + Int64((weekday - current + 7) % 7)
    }
}

extension FutureSpec {
    /// The products the config can name by root, with CME's published terms (contract specifications pages of
    /// cmegroup.com). Others are not guessed: their multiplier decides every P&L figure.
    public static let known: [String: FutureSpec] = {
        let quarterly = [3, 6, 9, 12]
        let all = Array(1...12)
        func spec(
            _ root: String, _ name: String, _ exchange: String, _ multiplier: Int64, tick: String, _ months: [Int],
            _ rule: LastTradeRule, rollMonths: [Int]? = nil
        ) -> FutureSpec {
            FutureSpec(
                root: root, name: name, exchange: exchange, currency: "USD", multiplier: multiplier,
                tickSize: Price(tick) ?? Price(units: 1), months: months, lastTrade: rule, rollMonths: rollMonths ?? months)
        }
        let specs = [
            spec("ES", "E-mini S&P 500", "CME", 50, tick: "0.25", quarterly, .thirdFriday),
            spec("MES", "Micro E-mini S&P 500", "CME", 5, tick: "0.25", quarterly, .thirdFriday),
            spec("NQ", "E-mini Nasdaq-100", "CME", 20, tick: "0.25", quarterly, .thirdFriday),
            spec("MNQ", "Micro E-mini Nasdaq-100", "CME", 2, tick: "0.25", quarterly, .thirdFriday),
            spec("RTY", "E-mini Russell 2000", "CME", 50, tick: "0.1", quarterly, .thirdFriday),
            spec("M2K", "Micro E-mini Russell 2000", "CME", 5, tick: "0.1", quarterly, .thirdFriday),
            spec("YM", "E-mini Dow ($5)", "CBOT", 5, tick: "1", quarterly, .thirdFriday),
            spec("ZN", "10-Year T-Note", "CBOT", 1000, tick: "0.015625", quarterly, .businessDaysBeforeLastBusinessDay(7)),
            spec("ZB", "U.S. Treasury Bond", "CBOT", 1000, tick: "0.03125", quarterly, .businessDaysBeforeLastBusinessDay(7)),
            spec("CL", "Crude Oil (WTI)", "NYMEX", 1000, tick: "0.01", all, .crudeOil),
            spec("MCL", "Micro WTI Crude Oil", "NYMEX", 100, tick: "0.01", all, .crudeOil),
            spec("NG", "Henry Hub Natural Gas", "NYMEX", 10_000, tick: "0.001", all, .threeBusinessDaysBeforeTheMonth),
            // Metals list every month near the front (GCX2013 traded), though the liquid ones are fewer.
            spec("GC", "Gold", "COMEX", 100, tick: "0.1", all, .thirdLastBusinessDay, rollMonths: [2, 4, 6, 8, 10, 12]),
            spec("MGC", "Micro Gold", "COMEX", 10, tick: "0.1", all, .thirdLastBusinessDay, rollMonths: [2, 4, 6, 8, 10, 12]),
            spec("SI", "Silver", "COMEX", 5000, tick: "0.005", all, .thirdLastBusinessDay, rollMonths: [3, 5, 7, 9, 12]),
            spec("HG", "Copper", "COMEX", 25_000, tick: "0.0005", all, .thirdLastBusinessDay, rollMonths: [3, 5, 7, 9, 12]),
            spec("6E", "Euro FX", "CME", 125_000, tick: "0.00005", quarterly, .businessDaysBeforeThirdWednesday(2)),
            spec("6J", "Japanese Yen", "CME", 12_500_000, tick: "0.0000005", quarterly, .businessDaysBeforeThirdWednesday(2)),
            spec("6B", "British Pound", "CME", 62_500, tick: "0.0001", quarterly, .businessDaysBeforeThirdWednesday(2)),
        ]
        return Dictionary(uniqueKeysWithValues: specs.map { ($0.root, $0) })
    }()
}

/// The contract a rolled position holds, day after day: `FutureSpec.frontMonth(onDay:rollDays:)`, recomputed only
/// when a day leaves the span the current month covers (bars come in time order, so once per roll, not per bar).
public struct FrontMonthCursor: Sendable {
    /// The product.
    public let spec: FutureSpec
    /// Business days before a contract's last trading day that the position leaves it.
    public let rollDays: Int
    private var current: (month: ContractMonth, from: Int64, until: Int64)?

    /// A cursor before its first day.
    public init(spec: FutureSpec, rollDays: Int) {
        self.spec = spec
        self.rollDays = rollDays
    }

    /// The front month on a day (days since 1970-01-01).
    public mutating func month(onDay day: Int64) -> ContractMonth {
        if let current, day >= current.from, day < current.until { return current.month }
        let month = spec.frontMonth(onDay: day, rollDays: rollDays)
        current = (month, day, spec.rollDay(of: month, days: rollDays))
        return month
    }
}
