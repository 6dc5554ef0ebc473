import Foundation
import Testing
@testable import TradingEngine

/// Checks the staging indicators (used until the Indicators target lands) against the TA-Lib golden values.
/// Delete together with `IndicatorStandIns.swift` when switching to `import Indicators`.
@Suite struct IndicatorStandInTests {
    struct Row {
        var high: Double, low: Double, close: Double
        var golden: [String: Double]
    }

    static func rows() throws -> [Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/golden/indicators.csv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var golden: [String: Double] = [:]
            for (k, name) in header.enumerated() where k >= 6 { golden[name] = Double(f[k]) }
            return Row(high: Double(f[2])!, low: Double(f[3])!, close: Double(f[4])!, golden: golden)
        }
    }

    static func close(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (x?, y?): abs(x - y) <= 1e-9 * max(1, abs(y))
        default: false
        }
    }

    @Test func matchTALibOnGOOG() throws {
        var sma10 = SMAIndicator(period: 10), sma30 = SMAIndicator(period: 30)
        var ema12 = EMAIndicator(period: 12), rsi = RSIIndicator(period: 14), atr = ATRIndicator(period: 14)
        var roc = ROCIndicator(period: 10), sd = StandardDeviationIndicator(period: 20)
        var bb = BollingerBandsIndicator(period: 20, deviations: 2)
        var mismatches: [String] = []
        for (i, row) in try Self.rows().enumerated() {
            let b = bb.update(row.close)
            let checks: [(String, Double?)] = [
                ("sma_10", sma10.update(row.close)), ("sma_30", sma30.update(row.close)),
                ("ema_12", ema12.update(row.close)), ("rsi_14", rsi.update(row.close)),
                ("atr_14", atr.update(high: row.high, low: row.low, close: row.close)),
                ("roc_10", roc.update(row.close)), ("stddev_20", sd.update(row.close)),
                ("bb_upper_20_2", b?.upper), ("bb_lower_20_2", b?.lower),
            ]
            for (name, value) in checks where !Self.close(value, row.golden[name] ?? nil) {
                if mismatches.count < 5 { mismatches.append("\(name) row \(i): \(String(describing: value)) vs \(String(describing: row.golden[name] ?? nil))") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
