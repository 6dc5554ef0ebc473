import Analytics
import Backtest
import Foundation
import TraderConfig
import TradingEngine

/// Metrics, terminal summary and output files of one backtest run.
public struct BacktestSummaryReport {
    /// The run.
    public let result: BacktestResult
    /// The strategy's name.
    let strategyName: String
    /// Daily bars print dates; intraday bars print UTC datetimes.
    let isDaily: Bool
    let periodsPerYear: Int
    /// The equity curve in Analytics form, read in place (a 1M-bar run's curve is tens of MB).
    let equity: EquitySeries
    /// The metrics.
    public let report: PerformanceReport
    let benchmarkName: String?
    let benchmarkCloses: [Double]?
    let parameters: [String: JSONValue]

    /// Computes the metrics (against the benchmark `backtest.benchmark` names) and the report's parameters.
    /// - Throws: `TraderError` when the benchmark file cannot be read or the metrics cannot be computed.
    public init(
        result: BacktestResult, configuration: TraderConfiguration, spec: StrategySpec?, isDaily: Bool,
        periodsPerYear: Int, dataDescription: String
    ) throws(TraderError) {
        let settings = configuration.backtest
        self.result = result
        strategyName = configuration.strategy.name
        self.isDaily = isDaily
        self.periodsPerYear = periodsPerYear
        let equity = result.analyticsEquity
        self.equity = equity
        let benchmarkSetting = settings.benchmark ?? (isDaily ? "bundled" : "none")
        var benchmarkName: String?
        var benchmarkCloses: [Double]?
        if benchmarkSetting != "none", !equity.isEmpty {
            let path = benchmarkSetting == "bundled" ? try BenchmarkFiles.bundledPath() : benchmarkSetting
            let text = try TextFiles.read(path)
            do throws(CSVReadError) {
                let prices = try CSVReader.prices(from: text)
                benchmarkCloses = try CSVReader.align(prices, to: (0..<equity.count).map(equity.time))
                benchmarkName = benchmarkSetting == "bundled" ? "^GSPC" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            } catch {
                if case .benchmarkStartsTooLate = error {
                    Terminal.printError("warning: benchmark \(path) starts after the backtest; reporting without it")
                } else {
                    throw TraderError("\(path): \(error)")
                }
            }
        }
        self.benchmarkName = benchmarkName
        self.benchmarkCloses = benchmarkCloses
        do {
            report = try PerformanceReport.analyze(
                equity: equity, benchmarkCloses: benchmarkCloses, trades: result.analyticsTrades,
                periodsPerYear: periodsPerYear)
        } catch {
            throw TraderError("cannot compute metrics: \(error)")
        }
        var parameters: [String: JSONValue] = [
            "strategy": .string(configuration.strategy.name), "data": .string(dataDescription),
            "symbols": .integer(result.universe.instruments.count), "cash": .number(configuration.strategy.cash),
            "fill": .string(settings.fill), "commission": .string(settings.commission),
            "slippage_bps": .number(settings.slippageBps), "benchmark": .optional(benchmarkName),
            "periods_per_year": .integer(periodsPerYear), "start": .optional(settings.start),
            "end": .optional(settings.end),
        ]
        // The parameters as the config spells them (not Swift's encoding of the strategy's settings).
        let shown = configuration.strategy.choice.shownParameters(path: "", record: ConfigRecord())
        parameters["strategy_parameters"] = .object(Dictionary(
            shown.map { ($0.path.hasPrefix(".") ? String($0.path.dropFirst()) : $0.path, JSONValue.string($0.text)) },
            uniquingKeysWith: { a, _ in a }))
        self.parameters = parameters
    }

    private var deniedOrders: Int { result.riskDenialCounts.values.reduce(0, +) }

    /// The terminal summary.
    public func table(engineSeconds: Double, runSeconds: Double) -> String {
        let bars = result.barsProcessed
        let extra: [(String, String)] = [
            ("Orders / fills", "\(result.orders.count) / \(result.fills.count)"),
            ("Risk denials", "\(deniedOrders)" + (result.riskDenialCounts.isEmpty ? "" : " (" + result.riskDenialCounts
                .sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ") + ")")),
            ("Commissions", result.commissions.centsDescription),
            ("Bars processed", "\(bars) (\(result.universe.instruments.count) symbols)"),
            ("Engine", String(format: "%.3f s, %@ bars/s", engineSeconds, Self.rate(Double(bars) / max(engineSeconds, 1e-9)))),
            ("Whole run (load + run + metrics)", String(format: "%.3f s", runSeconds)),
        ]
        let benchmark = benchmarkName.map { " vs \($0)" } ?? ""
        return SummaryTable.render(report.metricValues, title: "Backtest: \(strategyName)\(benchmark)", extra: extra)
    }

    /// Writes trades.csv, orders.csv, equity.csv, summary.json and report.html.
    /// - Throws: `TraderError` naming a file that cannot be written.
    public func write(to directory: String, engineSeconds: Double) throws(TraderError) {
        let output = BacktestOutput(result: result, isDaily: isDaily)
        try output.writeTradesCSV(to: directory + "/trades.csv")
        try output.writeOrdersCSV(to: directory + "/orders.csv")
        try output.writeEquityCSV(to: directory + "/equity.csv")
        let bars = result.barsProcessed
        let extra: [String: JSONValue] = [
            "bars_processed": .integer(bars), "engine_seconds": .number(engineSeconds),
            "engine_bars_per_second": .number(Double(bars) / max(engineSeconds, 1e-9)),
            "orders": .integer(result.orders.count), "fills": .integer(result.fills.count),
            "risk_denials": .integer(deniedOrders),
            "risk_denials_by_rule": .object(Dictionary(uniqueKeysWithValues: result.riskDenialCounts.map { ($0.key.rawValue, JSONValue.integer($0.value)) })),
            "order_list_hash": .string(result.orderListHash),
        ]
        try TextFiles.write(report.summaryJSON(parameters: parameters, extra: extra), to: directory + "/summary.json")
        let html = HTMLReport.render(HTMLReportInput(
            title: "IBTrader backtest: \(strategyName)", report: report, series: equity,
            benchmarkCloses: benchmarkCloses, benchmarkName: benchmarkName ?? "Benchmark", trades: result.analyticsTrades,
            parameters: parameters.mapValues { value in
                if case .string(let text) = value { return text }
                return value.serialized()
            }))
        try TextFiles.write(html, to: directory + "/report.html")
    }

    /// `12.3 M`, `4.5 k`, `12`.
    public static func rate(_ value: Double) -> String {
        value >= 1e6 ? String(format: "%.1f M", value / 1e6) : value >= 1e3 ? String(format: "%.1f k", value / 1e3) : String(format: "%.0f", value)
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
