/// How many return periods make a year, and where that number came from: inferred from a curve's spacing, or given.
///
/// Every annual figure (CAGR, volatility, Sharpe, Sortino, Calmar, alpha) scales per-period returns by it, so a weekly
/// curve annualised as daily overstates its CAGR (years = returns / periods per year) and its Sharpe by √(252/52).
///
/// **Inference** (``inferred(times:)``, or ``SpacingAccumulator`` fed point by point) reads the median spacing of
/// consecutive times (the upper median; equal times and negative or overflowing gaps are skipped):
///
/// | median spacing | periods a year | basis |
/// | --- | --- | --- |
/// | under 20 hours | 252 × the median number of points per UTC calendar day (a session's bars) | intraday |
/// | 20 hours to 4 days | 252 (trading days) | daily |
/// | 4 to 10.5 days | 52 | weekly |
/// | 10.5 to 20 days | 26 | fortnightly |
/// | 20 to 45 days | 12 | monthly |
/// | 45 to 135 days | 4 | quarterly |
/// | 135 to 270 days | 2 | half-yearly |
/// | 270 days or more | 1 | yearly |
///
/// Fewer than two distinct times give 252 (no spacing to read; no annual figure is defined then anyway). Daily data
/// stays on 252 trading days whatever its weekends: a calendar of 7 days a week (a crypto market) needs the periods
/// given (`--periods-per-year 365`). The intraday rule is the one the backtester always used, so daily and intraday
/// results are unchanged by the inference.
///
/// ```swift
/// let weekly = Annualization.inferred(times: [0, 604_800, 1_209_600])
/// weekly.periodsPerYear   // 52
/// weekly.description      // "annualised with 52 periods a year (weekly data)"
/// ```
public struct Annualization: Sendable, Equatable, CustomStringConvertible {
    /// Why the number is what it is.
    public enum Basis: Sendable, Equatable {
        /// Bars within a day: `barsPerSession` is the median number of points per UTC calendar day.
        case intraday(barsPerSession: Int)
        /// About a day apart.
        case daily
        /// About a week apart.
        case weekly
        /// About two weeks apart.
        case fortnightly
        /// About a month apart.
        case monthly
        /// About a quarter apart.
        case quarterly
        /// About half a year apart.
        case halfYearly
        /// About a year apart.
        case yearly
        /// Fewer than two distinct times: 252 assumed.
        case unknown
        /// Given by the user; `source` names the flag or key (`--periods-per-year`, `backtest.periodsPerYear`), or is
        /// `nil` when a caller passed the number.
        case given(source: String?)
    }

    /// Return periods per year, at least 1.
    public let periodsPerYear: Int
    /// Where the number came from.
    public let basis: Basis

    /// A number given by the user or a caller.
    /// - Parameters:
    ///   - periodsPerYear: the periods (≥ 1; the caller checks the range it accepts).
    ///   - source: the flag or key that set it, for the summary's sentence.
    public static func given(_ periodsPerYear: Int, by source: String? = nil) -> Annualization {
        Annualization(periodsPerYear: periodsPerYear, basis: .given(source: source))
    }

    /// The periods of a curve from its times (seconds since the Unix epoch, ascending); see the type's table.
    public static func inferred(times: some Sequence<Int64>) -> Annualization {
        var spacing = SpacingAccumulator()
        for time in times { spacing.observe(time) }
        return spacing.annualization
    }

    /// A short name of the basis for `summary.json`'s `periods_per_year_basis`: `intraday`, `daily`, `weekly`,
    /// `fortnightly`, `monthly`, `quarterly`, `half-yearly`, `yearly`, `unknown` or `given`.
    public var basisName: String {
        switch basis {
        case .intraday: "intraday"
        case .daily: "daily"
        case .weekly: "weekly"
        case .fortnightly: "fortnightly"
        case .monthly: "monthly"
        case .quarterly: "quarterly"
        case .halfYearly: "half-yearly"
        case .yearly: "yearly"
        case .unknown: "unknown"
        case .given: "given"
        }
    }

    /// `annualised with 52 periods a year (weekly data)`, `… 98532 periods a year (intraday data, 391 bars a
    /// session × 252)`, `… 365 periods a year (given by --periods-per-year)`.
    public var description: String {
        let why: String =
            switch basis {
            case .intraday(let bars): "intraday data, \(bars) bar\(bars == 1 ? "" : "s") a session × 252"
            case .unknown: "too few points to read the spacing; daily assumed"
            case .given(let source?): "given by \(source)"
            case .given(nil): "as given"
            case .halfYearly: "half-yearly data"
            default: "\(basisName) data"
            }
        return "annualised with \(periodsPerYear) period\(periodsPerYear == 1 ? "" : "s") a year (\(why))"
    }
}

/// The spacing of a curve's times, accumulated point by point (a streamed file needs no second pass): a histogram of
/// the gaps between consecutive times and the number of points on each UTC calendar day. Memory grows with the number
/// of distinct gaps and of days, not of points.
public struct SpacingAccumulator: Sendable {
    private var gapCounts: [Int64: Int] = [:]
    private var pointsPerDay: [Int] = []
    private var currentDay = Int64.min
    private var last: Int64?

    /// An empty accumulator.
    public init() {}

    /// Adds one time (seconds since the Unix epoch), in ascending order.
    public mutating func observe(_ time: Int64) {
        if let last {
            let (gap, overflow) = time.subtractingReportingOverflow(last)
            if !overflow, gap > 0 { gapCounts[gap, default: 0] += 1 }
        }
        last = time
        let day = time >= 0 ? time / 86_400 : (time + 1) / 86_400 - 1
        if day != currentDay || pointsPerDay.isEmpty {
            pointsPerDay.append(0)
            currentDay = day
        }
        pointsPerDay[pointsPerDay.count - 1] += 1
    }

    /// The upper median gap between consecutive distinct times (seconds), `nil` before two of them.
    public var medianGap: Int64? {
        let total = gapCounts.values.reduce(0, +)
        guard total > 0 else { return nil }
        var seen = 0
        for gap in gapCounts.keys.sorted() {
            seen += gapCounts[gap] ?? 0
            if seen > total / 2 { return gap }
        }
        return nil
    }

    /// The upper median number of points per UTC calendar day, `nil` before the first point.
    public var medianPointsPerDay: Int? {
        guard !pointsPerDay.isEmpty else { return nil }
        return pointsPerDay.sorted()[pointsPerDay.count / 2]
    }

    /// The periods a year of the times seen (``Annualization``'s table).
    public var annualization: Annualization {
        guard let gap = medianGap else { return Annualization(periodsPerYear: 252, basis: .unknown) }
        let hour: Int64 = 3_600, day: Int64 = 86_400
        if gap < 20 * hour {
            let bars = max(1, medianPointsPerDay ?? 1)
            let (periods, overflow) = bars.multipliedReportingOverflow(by: 252)
            return Annualization(periodsPerYear: overflow ? Int.max : periods, basis: .intraday(barsPerSession: bars))
        }
        let buckets: [(below: Int64, periods: Int, basis: Annualization.Basis)] = [
            (4 * day, 252, .daily), (21 * day / 2, 52, .weekly), (20 * day, 26, .fortnightly), (45 * day, 12, .monthly),
            (135 * day, 4, .quarterly), (270 * day, 2, .halfYearly),
        ]
        for bucket in buckets where gap < bucket.below {
            return Annualization(periodsPerYear: bucket.periods, basis: bucket.basis)
        }
        return Annualization(periodsPerYear: 1, basis: .yearly)
    }
}
