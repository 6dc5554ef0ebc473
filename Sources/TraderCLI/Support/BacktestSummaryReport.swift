import Analytics
import Backtest
import Foundation
import TradingEngine
import TradingModel

/// Metrics, terminal summary and output files of one backtest run.
struct BacktestSummaryReport {
    let result: BacktestResult
    let settings: BacktestSettings
    /// Daily bars print dates; intraday bars print UTC datetimes.
    let isDaily: Bool
    let periodsPerYear: Int
    /// The equity curve in Analytics form, read in place (a 1M-bar run's curve is tens of MB).
    let equity: EquitySeries
    let report: PerformanceReport
    let benchmarkName: String?
    let benchmarkCloses: [Double]?
    let parameters: [String: JSONValue]
    /// The risk limits in effect, with their origin.
    let riskProfile: RiskProfile
    /// Sections computed where the bars were still at hand (the correlation matrix).
    var extraSections: [HTMLReportSection] = []
    /// Why a benchmark was not used (a daily benchmark against intraday equity), for the warnings.
    var benchmarkNote: String?

    init(
        result: BacktestResult, settings: BacktestSettings, spec: StrategySpec, isDaily: Bool, periodsPerYear: Int,
        dataDescription: String
    ) throws {
        self.result = result
        self.riskProfile = RiskProfile(configured: settings.risk, spec: spec)
        self.settings = settings
        self.isDaily = isDaily
        self.periodsPerYear = periodsPerYear
        let equity = result.analyticsEquity
        self.equity = equity
        let benchmarkSetting = settings.benchmark ?? (isDaily ? "bundled" : "none")
        var benchmarkName: String?
        var benchmarkCloses: [Double]?
        if benchmarkSetting != "none", !equity.isEmpty {
            let path = benchmarkSetting == "bundled" ? try BenchmarkFiles.bundledPath() : benchmarkSetting
            do {
                let prices = try CSVReader.prices(from: try readTextFile(path))
                let dailyBenchmark = prices.allSatisfy { $0.time % 86_400 == 0 }
                if dailyBenchmark, !isDaily {
                    // Minute returns against a daily close carried forward: beta near 0 and alpha ≈ the return.
                    benchmarkNote = "The benchmark \(benchmarkSetting) is daily and the equity intraday: alpha, beta and "
                        + "correlation would compare each bar's return with a daily close carried forward, so the "
                        + "report is made without a benchmark. Give an intraday benchmark of the same bar size."
                    throw CSVReadError.empty
                }
                benchmarkCloses = try CSVReader.align(prices, to: (0..<equity.count).map(equity.time))
                benchmarkName = benchmarkSetting == "bundled" ? "^GSPC" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            } catch let error as CSVReadError {
                if benchmarkNote != nil {
                    printError("warning: \(benchmarkNote ?? "")")
                } else if case .benchmarkStartsTooLate = error {
                    printError("warning: benchmark \(path) starts after the backtest; reporting without it")
                } else {
                    throw CLIError("\(path): \(error)")
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
            throw CLIError("cannot compute metrics: \(error)")
        }
        var parameters: [String: JSONValue] = [
            "strategy": .string(settings.strategyTitle), "data": .string(dataDescription),
            "symbols": .integer(result.universe.instruments.count), "cash": .number(settings.cash),
            "fill": .string(settings.fill), "commission": .string(settings.commission),
            "slippage_bps": .number(settings.slippageBps), "benchmark": .optional(benchmarkName),
            "slippage": .optional(settings.slippage), "participation": .optional(settings.participation),
            "latency_ms": .number(settings.latencyMs), "session": .string(settings.session),
            "periods_per_year": .integer(periodsPerYear), "start": .optional(settings.start),
            "end": .optional(settings.end),
        ]
        if let json = try? String(decoding: JSONEncoder.sorted.encode(spec), as: UTF8.self) {
            parameters["strategy_config"] = .string(json)
        }
        self.parameters = parameters
    }

    private var deniedOrders: Int { result.riskDenialCounts.values.reduce(0, +) }

    /// How times are printed: dates for daily data, UTC datetimes otherwise.
    func timeText(_ time: Timestamp) -> String { BacktestOutput(result: result, isDaily: isDaily).time(time) }

    func table(engineSeconds: Double, runSeconds: Double) -> String {
        let bars = result.barsProcessed
        var extra: [(String, String)] = [
            ("Orders / fills", "\(result.orders.count) / \(result.fills.count)"),
            ("Risk denials", "\(deniedOrders)" + (result.riskDenialCounts.isEmpty ? "" : " (" + result.riskDenialCounts
                .sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ") + ")")),
            ("Scaled down to fit", "\(result.riskAdjustments.count)" + (result.riskAdjustmentCounts.isEmpty ? "" : " (" + result.riskAdjustmentCounts
                .sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ") + ")")),
            ("Open positions at the end", "\(result.openPositions.count)"),
            ("Commissions", result.commissions.centsDescription),
            ("Bars processed", "\(bars) (\(result.universe.instruments.count) symbols)"),
            ("Engine", String(format: "%.3f s, %@ bars/s", engineSeconds, Self.rate(Double(bars) / max(engineSeconds, 1e-9)))),
            ("Whole run (load + run + metrics)", String(format: "%.3f s", runSeconds)),
        ]
        let limits = riskProfile.lines.filter { $0.origin != .off }
        for (k, line) in limits.enumerated() {
            let origin = line.origin == .configured ? "" : " (\(line.origin.rawValue))"
            extra.append((k == 0 ? "Risk profile" : "", "\(line.key) \(line.value)\(origin)"))
        }
        if limits.isEmpty { extra.append(("Risk profile", "no limits")) }
        let benchmark = benchmarkName.map { " vs \($0)" } ?? ""
        var text = SummaryTable.render(report.metricValues, title: "Backtest: \(settings.strategyTitle)\(benchmark)", extra: extra)
        for warning in result.warnings(format: timeText) { text += "warning: \(warning)\n" }
        if let short = report.shortSampleWarning { text += "warning: \(short)\n" }
        return text
    }

    func write(to directory: String, engineSeconds: Double) throws {
        let output = BacktestOutput(result: result, isDaily: isDaily)
        try output.writeTradesCSV(to: directory + "/trades.csv")
        try output.writeOrdersCSV(to: directory + "/orders.csv")
        try output.writeEquityCSV(to: directory + "/equity.csv")
        if !result.allocations.isEmpty {
            try writeTextFile(result.allocationsCSV(format: timeText), to: directory + "/allocations.csv")
        }
        let bars = result.barsProcessed
        let extra: [String: JSONValue] = [
            "bars_processed": .integer(bars), "engine_seconds": .number(engineSeconds),
            "engine_bars_per_second": .number(Double(bars) / max(engineSeconds, 1e-9)),
            "orders": .integer(result.orders.count), "fills": .integer(result.fills.count),
            "risk_denials": .integer(deniedOrders),
            "risk_denials_by_rule": .object(Dictionary(uniqueKeysWithValues: result.riskDenialCounts.map { ($0.key.rawValue, JSONValue.integer($0.value)) })),
            "order_list_hash": .string(result.orderListHash),
            "risk_adjustments": .integer(result.riskAdjustments.count),
            "risk_adjustments_by_rule": .object(Dictionary(uniqueKeysWithValues: result.riskAdjustmentCounts.map { ($0.key.rawValue, JSONValue.integer($0.value)) })),
            "risk_profile": .object(Dictionary(uniqueKeysWithValues: riskProfile.lines.map {
                ($0.key, JSONValue.object(["value": .string($0.value), "origin": .string($0.origin.rawValue)]))
            })),
            "warnings": .array(result.warnings(format: timeText).map(JSONValue.string)),
            "open_positions": .array(result.openPositions.map {
                .object([
                    "symbol": .string($0.symbol.rawValue), "quantity": .number($0.quantity.doubleValue),
                    "average_price": .number($0.averagePrice.doubleValue), "last_price": .number($0.lastPrice.doubleValue),
                    "unrealized_pnl": .number($0.unrealizedPnL.doubleValue),
                ])
            }),
        ]
        try writeTextFile(report.summaryJSON(parameters: parameters, extra: extra), to: directory + "/summary.json")
        var input = HTMLReportInput(
            title: "IBTrader backtest: \(settings.strategyTitle)", report: report, series: equity,
            benchmarkCloses: benchmarkCloses, benchmarkName: benchmarkName ?? "Benchmark", trades: result.analyticsTrades,
            parameters: parameters.mapValues { value in
                if case .string(let text) = value { return text }
                return value.serialized()
            })
        input.warnings = result.warnings(format: timeText) + (benchmarkNote.map { [$0] } ?? [])
        input.sections = result.allocatorSections + result.reportSections(profile: riskProfile) + extraSections
        let html = HTMLReport.render(input)
        try writeTextFile(html, to: directory + "/report.html")
    }

    static func rate(_ value: Double) -> String {
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
