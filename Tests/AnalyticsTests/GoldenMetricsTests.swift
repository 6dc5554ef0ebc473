import Foundation
import Testing
@testable import Analytics

/// Every key of `metrics.json` `values`, computed from the text of `equity.csv`.
@Suite struct GoldenMetricsTests {
    static let numericKeys = [
        "total_return", "cagr", "annual_volatility", "sharpe", "downside_deviation_annualized", "sortino",
        "max_drawdown", "calmar", "beta", "alpha_quantstats", "alpha_empyrical", "final_equity",
    ]
    static let dateKeys = ["max_drawdown_peak_date", "max_drawdown_trough_date", "max_drawdown_recovery_date"]

    static func report() throws -> PerformanceReport {
        try PerformanceReport.analyze(
            equity: GoldenFixtures.equityCurve(), benchmarkCloses: GoldenFixtures.benchmarkCloses())
    }

    @Test func everyGoldenValueMatches() throws {
        let golden = try GoldenFixtures.values()
        #expect(Set(golden.keys) == Set(Self.numericKeys + Self.dateKeys))
        let computed = try Self.report().metricValues
        for key in Self.numericKeys {
            guard case .number(let value)? = computed[key], let expected = golden[key] as? Double else {
                Issue.record("\(key) missing: \(String(describing: computed[key]))")
                continue
            }
            #expect(isClose(value, expected), "\(key): \(value) vs \(expected)")
        }
        for key in Self.dateKeys {
            #expect(computed[key] == .string(golden[key] as? String ?? "?"), "\(key)")
        }
    }

    @Test func metricsStructAgreesAndAlphaIsQuantstats() throws {
        let m = try Self.report().metrics
        #expect(m.bars == 2148 && m.returns == 2147)
        #expect(m.alpha == m.alphaQuantstats)
        #expect(isClose(m.alpha, 0.24681039442878314))
        #expect(isClose(m.alphaEmpyrical, 0.279781818948891))
        let d = try #require(m.drawdown)
        #expect(CivilTime.format(d.peakTime) == "2007-11-06")
        #expect(d.durationBars == (d.recoveryIndex ?? 0) - d.peakIndex)
        #expect(d.durationDays == Int((d.recoveryTime ?? 0) - d.peakTime) / 86_400)
    }

    @Test func summaryJSONHasSortedKeysAndTheGoldenMetrics() throws {
        let json = try Self.report().summaryJSON(parameters: ["strategy": "buy_and_hold", "symbol": "GOOG"])
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let metrics = try #require(object)
        let golden = try GoldenFixtures.values()
        #expect(Set(golden.keys).isSubset(of: Set(metrics.keys)))
        for key in ["final_equity", "trades", "win_rate", "profit_factor", "expectancy", "average_win",
                    "average_loss", "exposure", "turnover", "alpha"] {
            #expect(metrics.keys.contains(key), "\(key)")
        }
        for key in Self.numericKeys {
            #expect(isClose(metrics[key] as? Double, golden[key] as? Double ?? .nan), "\(key)")
        }
        #expect((object?["parameters"] as? [String: String]) == ["strategy": "buy_and_hold", "symbol": "GOOG"])
        // Sorted keys: "alpha" precedes "alpha_empyrical", which precedes "annual_volatility".
        let alpha = try #require(json.range(of: "\"alpha\":"))
        let empyrical = try #require(json.range(of: "\"alpha_empyrical\":"))
        let volatility = try #require(json.range(of: "\"annual_volatility\":"))
        #expect(alpha.lowerBound < empyrical.lowerBound && empyrical.lowerBound < volatility.lowerBound)
        #expect(!json.contains("nan") && !json.contains("inf"))
        // No trades: trade ratios are null, not NaN.
        #expect(json.contains("\"win_rate\": null"))
    }

    @Test func monthlyReturnsCompoundToTheTotalReturn() throws {
        let report = try Self.report()
        let months = report.monthlyReturns.years.flatMap { $0.months.compactMap { $0 } }
        let compounded = months.reduce(1.0) { $0 * (1 + $1) } - 1
        #expect(isClose(compounded, report.metrics.totalReturn ?? .nan))
        let years = report.monthlyReturns.years.compactMap(\.total).reduce(1.0) { $0 * (1 + $1) } - 1
        #expect(isClose(years, report.metrics.totalReturn ?? .nan))
        #expect(report.monthlyReturns.years.first?.year == 2004)
        #expect(report.monthlyReturns.years.first?.months[6] == nil)  // July 2004: before the first bar
        #expect(report.monthlyReturns.years.last?.year == 2013)
    }
}
