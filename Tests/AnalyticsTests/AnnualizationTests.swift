import Foundation
import Testing
@testable import Analytics

/// Issue 80: the periods a year come from the data's spacing and are stated; a ratio over rounding residue is
/// undefined.
@Suite struct AnnualizationTests {
    static let day: Int64 = 86_400

    /// Weekdays only, from Monday 2021-01-04.
    static func weekdays(_ count: Int) -> [Int64] {
        let monday: Int64 = 18_631 * day
        return (0..<count).map { k in monday + Int64(k / 5 * 7 + k % 5) * day }
    }

    @Test func theSpacingGivesThePeriods() {
        #expect(Annualization.inferred(times: Self.weekdays(300)).periodsPerYear == 252)
        #expect(Annualization.inferred(times: Self.weekdays(300)).basis == .daily)
        // Daily bars stamped at the close (21:00 UTC, 20:00 in summer) are still daily.
        let closes = Self.weekdays(300).enumerated().map { $0.element + ($0.offset % 150 < 75 ? 20 : 21) * 3_600 }
        #expect(Annualization.inferred(times: closes).basis == .daily)
        let weekly = (0..<100).map { Int64($0) * 7 * Self.day }
        #expect(Annualization.inferred(times: weekly) == .init(periodsPerYear: 52, basis: .weekly))
        // Month ends: 28 to 31 days apart.
        let monthEnds: [Int64] = [31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365, 396, 424].map { $0 * Self.day }
        #expect(Annualization.inferred(times: monthEnds) == .init(periodsPerYear: 12, basis: .monthly))
        let quarters = (0..<12).map { Int64($0) * 91 * Self.day }
        #expect(Annualization.inferred(times: quarters) == .init(periodsPerYear: 4, basis: .quarterly))
        let years = (0..<5).map { Int64($0) * 365 * Self.day }
        #expect(Annualization.inferred(times: years) == .init(periodsPerYear: 1, basis: .yearly))
        let fortnights = (0..<20).map { Int64($0) * 14 * Self.day }
        #expect(Annualization.inferred(times: fortnights).periodsPerYear == 26)
    }

    @Test func intradayIsTheBarsOfASessionTimes252() {
        // Five sessions of 390 one-minute bars (13:30-20:00 UTC), and a half session: the median is 390.
        var times: [Int64] = []
        for session in 0..<6 {
            let open = Self.weekdays(6)[session] + 13 * 3_600 + 1_800
            for minute in 0..<(session == 5 ? 210 : 390) { times.append(open + Int64(minute) * 60) }
        }
        let annualization = Annualization.inferred(times: times)
        #expect(annualization == .init(periodsPerYear: 252 * 390, basis: .intraday(barsPerSession: 390)))
        #expect(annualization.description == "annualised with 98280 periods a year (intraday data, 390 bars a session × 252)")
    }

    @Test func tooFewOrHostileTimesDoNotTrap() {
        #expect(Annualization.inferred(times: [Int64]()) == .init(periodsPerYear: 252, basis: .unknown))
        #expect(Annualization.inferred(times: [5]).basis == .unknown)
        #expect(Annualization.inferred(times: [7, 7, 7]).basis == .unknown)
        // Gaps that overflow Int64 are skipped; the one that fits (Int64.max seconds) reads as yearly.
        #expect(Annualization.inferred(times: [Int64.min, 0, Int64.max]).periodsPerYear == 1)
    }

    @Test func theSentenceNamesTheBasis() {
        #expect(Annualization.inferred(times: (0..<9).map { Int64($0) * 7 * Self.day }).description
            == "annualised with 52 periods a year (weekly data)")
        #expect(Annualization.given(365, by: "--periods-per-year").description
            == "annualised with 365 periods a year (given by --periods-per-year)")
        #expect(Annualization.given(1).description == "annualised with 1 period a year (as given)")
    }

    /// The golden daily curve is inferred as daily: the golden values (252 periods) are what `analyze` prints.
    @Test func theGoldenDailyCurveIsDaily() throws {
        let curve = try GoldenFixtures.equityCurve()
        #expect(Annualization.inferred(times: curve.map(\.time)) == .init(periodsPerYear: 252, basis: .daily))
    }

    // MARK: - The weekly golden curve (Tests/Fixtures/golden-weekly, quantstats 0.0.86 with 52 periods)

    static func weeklyFixture() throws -> (curve: [EquityPoint], json: [String: Any]) {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/golden-weekly")
        let text = try String(contentsOf: folder.appendingPathComponent("equity.csv"), encoding: .utf8)
        let data = try Data(contentsOf: folder.appendingPathComponent("metrics.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (try CSVReader.equityCurve(from: text), json)
    }

    static func values(_ json: [String: Any], periods: Int) throws -> [String: Double] {
        let block = try #require(json["periods_\(periods)"] as? [String: Any])
        return try #require(block["values"] as? [String: Double])
    }

    /// Issue 80's acceptance: a weekly curve's CAGR and Sharpe equal quantstats' with 52 periods (1e-9 relative), and
    /// 252 periods, what every curve got before, gives quantstats' wrong 252-period answer.
    @Test func aWeeklyCurveIsAnnualisedWith52Periods() throws {
        let (curve, json) = try Self.weeklyFixture()
        let annualization = Annualization.inferred(times: curve.map(\.time))
        #expect(annualization == .init(periodsPerYear: 52, basis: .weekly))
        let report = try PerformanceReport.analyze(equity: EquitySeries(curve), annualization: annualization)
        let m = report.metrics
        let expected = try Self.values(json, periods: 52)
        #expect(m.returns == 445)
        let computed: [String: Double?] = [
            "cagr": m.cagr, "sharpe": m.sharpe, "annual_volatility": m.annualVolatility, "sortino": m.sortino,
            "calmar": m.calmar, "max_drawdown": m.maxDrawdown, "total_return": m.totalReturn,
        ]
        #expect(Set(computed.keys) == Set(expected.keys))
        for (key, value) in expected {
            #expect(isClose(computed[key] ?? nil, value), "\(key): \(String(describing: computed[key])) vs \(value)")
        }
        #expect(isClose(m.cagr, 0.26435671240534275) && isClose(m.sharpe, 0.8537076514410868))
        #expect(report.metricValues["annualization"] == .string("annualised with 52 periods a year (weekly data)"))
        #expect(report.metricValues["periods_per_year"] == .integer(52))
        #expect(report.metricValues["periods_per_year_basis"] == .string("weekly"))
        let html = HTMLReport.render(HTMLReportInput(title: "weekly", report: report, equity: curve))
        #expect(html.contains("annualised with 52 periods a year (weekly data)"))

        // The old answer: the same curve as if daily is quantstats' 252-period one, a Sharpe √(252/52) too high.
        let asDaily = try PerformanceMetrics.compute(equity: curve, periodsPerYear: 252)
        let wrong = try Self.values(json, periods: 252)
        let wrongCAGR = try #require(wrong["cagr"]), wrongSharpe = try #require(wrong["sharpe"])
        #expect(isClose(asDaily.cagr, wrongCAGR) && isClose(asDaily.sharpe, wrongSharpe))
        let ratio = try #require(asDaily.sharpe) / (try #require(m.sharpe))
        #expect(abs(ratio - (252.0 / 52).squareRoot()) <= 1e-12)
    }

    // MARK: - Undefined ratios

    /// A curve losing exactly 0.05 % a day has no dispersion, but its returns differ by floating-point residue
    /// (~1e-17): its Sharpe was −1.2e14 beside "volatility 0.00 %". It is undefined now: `null`, `–`.
    @Test func aRatioOverRoundingResidueIsUndefined() throws {
        var equity = 100_000.0
        var curve: [EquityPoint] = []
        for k in 0..<300 {
            curve.append(EquityPoint(time: Self.weekdays(300)[k], equity: equity))
            equity *= 0.9995
        }
        let returns = ReturnSeries.simpleReturns(EquitySeries(curve))
        let deviation = try #require(ReturnSeries.sampleStandardDeviation(returns))
        #expect(deviation > 0 && deviation < 1e-15, "the residue this test is about: \(deviation)")
        let report = try PerformanceReport.analyze(equity: curve)
        let m = report.metrics
        #expect(m.sharpe == nil)
        #expect(abs(try #require(m.annualVolatility)) < 1e-12)
        // The downside deviation is the 0.05 % loss itself, a real denominator: Sortino is −√252.
        #expect(abs(try #require(m.sortino) + 252.0.squareRoot()) < 1e-9)
        #expect(try #require(m.calmar) < 0)
        #expect(report.metricValues["sharpe"] == .null)
        #expect(report.summaryJSON(parameters: [String: String]()).contains("\"sharpe\": null"))
        let html = HTMLReport.render(HTMLReportInput(title: "flat", report: report, equity: curve))
        #expect(html.contains("<th scope=\"row\">Sharpe</th><td>–</td>"))
    }

    @Test func residueIsRelativeToOneAndToTheMean() {
        #expect(PerformanceMetrics.isResidue(0))
        #expect(PerformanceMetrics.isResidue(-0.0))
        #expect(PerformanceMetrics.isResidue(.nan) && PerformanceMetrics.isResidue(.infinity))
        #expect(PerformanceMetrics.isResidue(6.6e-17, mean: -5e-4))
        #expect(PerformanceMetrics.isResidue(1e-12))
        #expect(!PerformanceMetrics.isResidue(2e-12))
        #expect(PerformanceMetrics.isResidue(1e-9, mean: 1e4))
        #expect(!PerformanceMetrics.isResidue(1e-6, mean: 5e-4))
    }

    /// A benchmark whose returns are residue gives no beta, alpha or correlation.
    @Test func aResidueBenchmarkHasNoBeta() throws {
        let curve = (0..<50).map { EquityPoint(time: Int64($0) * Self.day, equity: 100 + Double($0 % 7)) }
        var close = 3_000.0
        let benchmark = (0..<50).map { _ in
            defer { close *= 0.9995 }
            return close
        }
        let deviation = try #require(ReturnSeries.sampleStandardDeviation(ReturnSeries.simpleReturns(benchmark)))
        #expect(deviation > 0 && deviation < 1e-15, "the residue this test is about: \(deviation)")
        let m = try PerformanceMetrics.compute(equity: curve, benchmarkCloses: benchmark)
        #expect(m.beta == nil && m.alpha == nil && m.benchmarkCorrelation == nil)
    }
}
