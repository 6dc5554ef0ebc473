import Foundation
@testable import Analytics

/// The golden equity curve and metrics from `Tests/Fixtures/golden/`.
enum GoldenFixtures {
    static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/golden/\(name)")
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: url(name), encoding: .utf8)
    }

    /// `metrics.json` `values`.
    static func values() throws -> [String: Any] {
        let data = try Data(contentsOf: url("metrics.json"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return root?["values"] as? [String: Any] ?? [:]
    }

    static func equityCurve() throws -> [EquityPoint] {
        try CSVReader.equityCurve(from: text("equity.csv"))
    }

    static func benchmarkCloses() throws -> [Double] {
        try CSVReader.prices(from: text("equity.csv"), column: "benchmark_close").map(\.close)
    }
}

/// `abs(a-b) <= 1e-9 * max(1, abs(b))`, the golden README's comparison.
func isClose(_ a: Double?, _ b: Double) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))
}
