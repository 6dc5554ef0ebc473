/// Compounded returns by calendar month (UTC) and by year: the quantstats monthly table.
///
/// A month's return is its last equity divided by the previous month's last equity, minus 1; the
/// first month is measured from the curve's first point. This equals compounding the month's daily
/// returns. A year's return compounds its months the same way.
public struct MonthlyReturns: Sendable, Equatable {
    /// One calendar year of the table.
    public struct Year: Sendable, Equatable {
        /// The year, e.g. 2008.
        public var year: Int
        /// Index 0 = January … 11 = December; `nil` for months without data.
        public var months: [Double?]
        /// The whole year's compounded return.
        public var total: Double?
    }

    /// Years in ascending order.
    public var years: [Year]

    /// Builds the table from an equity curve sorted by time.
    public static func compute(_ equity: [EquityPoint]) -> MonthlyReturns { compute(EquitySeries(equity)) }

    /// Builds the table from a series sorted by time.
    public static func compute(_ equity: EquitySeries) -> MonthlyReturns {
        guard !equity.isEmpty else { return MonthlyReturns(years: []) }
        var years: [Year] = []
        let firstEquity = equity.equity(0)
        var monthBase = firstEquity
        var yearBase = firstEquity
        var current = CivilTime(unixSeconds: equity.time(0))
        var lastEquity = firstEquity
        func close(month: CivilTime, end: Double) {
            if years.last?.year != month.year {
                years.append(Year(year: month.year, months: Array(repeating: nil, count: 12), total: nil))
            }
            let monthReturn = finiteOrNil(end / monthBase - 1)
            years[years.count - 1].months[month.month - 1] = monthReturn
            years[years.count - 1].total = finiteOrNil(end / yearBase - 1)
            monthBase = end
        }
        // The calendar is consulted once per day, not per point (an intraday curve has hundreds a day).
        func day(_ time: Int64) -> Int64 { time / 86_400 - (time % 86_400 < 0 ? 1 : 0) }
        var currentDay = day(equity.time(0))
        for index in 1..<max(1, equity.count) {
            let time = equity.time(index)
            if day(time) != currentDay {
                currentDay = day(time)
                let civil = CivilTime(unixSeconds: time)
                if civil.year != current.year || civil.month != current.month {
                    close(month: current, end: lastEquity)
                    if civil.year != current.year { yearBase = lastEquity }
                    current = civil
                }
            }
            lastEquity = equity.equity(index)
        }
        close(month: current, end: lastEquity)
        return MonthlyReturns(years: years)
    }
}
