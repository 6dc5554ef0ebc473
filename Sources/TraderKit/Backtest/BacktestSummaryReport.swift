import Analytics
import Backtest
import Foundation
import Simulation
import TraderConfig
import TradingEngine
import TradingModel

/// Metrics, terminal summary and output files of one backtest run.
public struct BacktestSummaryReport {
    /// The run.
    public let result: BacktestResult
    /// The strategy as reports name it (`momentum`, `performance allocator over sma-cross`).
    let strategyTitle: String
    /// Daily bars print dates; intraday bars print UTC datetimes.
    let isDaily: Bool
    /// The periods a year of the annual figures: `backtest.periodsPerYear`, else the equity curve's spacing.
    let annualization: Annualization
    /// The equity curve in Analytics form, read in place (a 1M-bar run's curve is tens of MB).
    let equity: EquitySeries
    /// The metrics.
    public let report: PerformanceReport
    let benchmarkName: String?
    let benchmarkCloses: [Double]?
    let parameters: [String: JSONValue]
    /// The risk limits in effect, with their origin.
    public let riskProfile: RiskProfile
    /// The curve's peak gross exposure and lowest cash, scanned once (rows, warning and summary.json read it).
    let exposure: ExposureExtremes?
    /// How entries were worked (`orders.entry`, …; `nil`: the strategy's own orders).
    public let execution: ExecutionStyle?
    /// Sections computed where the bars were still at hand (the correlation matrix).
    public var extraSections: [HTMLReportSection] = []
    /// Why a benchmark was not used (a daily benchmark against intraday equity), for the warnings.
    var benchmarkNote: String?
    /// The commission model charged (`backtest.commission`), named beside the total.
    let commissionSetting: String
    /// `backtest.settlementDays`: whether a sale's proceeds wait a day (what the exposure warning advises on).
    let settlementDays: Int
    /// `account.type` (`cash`, `margin`).
    let accountType: String
    /// Buying power at the fill (`AccountSettings.fundsRule`).
    let fundsRule: FundsAtFill.Rule

    /// Computes the metrics (against the benchmark `backtest.benchmark` names) and the report's parameters.
    /// - Parameter periodsPerYear: the periods a year to annualise with (`nil`: `backtest.periodsPerYear`, else
    ///   inferred from the equity curve's times, `Annualization.inferred`).
    /// - Throws: `TraderError` when the benchmark file cannot be read or the metrics cannot be computed.
    public init(
        result: BacktestResult, configuration: TraderConfiguration, spec: StrategySpec?, isDaily: Bool,
        periodsPerYear: Int? = nil, dataDescription: String
    ) throws(TraderError) {
        let settings = configuration.backtest
        self.result = result
        commissionSetting = settings.commission
        settlementDays = settings.settlementDays
        accountType = configuration.account.type
        fundsRule = configuration.fundsRule
        riskProfile = configuration.risk.profile(for: spec)
        exposure = result.exposureExtremes
        execution = configuration.orders.executionStyle
        strategyTitle = configuration.strategy.title
        self.isDaily = isDaily
        let equity = result.analyticsEquity
        self.equity = equity
        let annualization = periodsPerYear.map { Annualization.given($0) }
            ?? settings.periodsPerYear.map { Annualization.given($0, by: "backtest.periodsPerYear") }
            ?? Annualization.inferred(times: (0..<equity.count).lazy.map(equity.time))
        self.annualization = annualization
        let benchmarkSetting = settings.benchmark ?? (isDaily ? "bundled" : "none")
        var benchmarkName: String?
        var benchmarkCloses: [Double]?
        if benchmarkSetting != "none", !equity.isEmpty {
            let path = benchmarkSetting == "bundled" ? try BenchmarkFiles.bundledPath() : benchmarkSetting
            let text = try TextFiles.read(path)
            do throws(CSVReadError) {
                let prices = try CSVReader.prices(from: text)
                let times = (0..<equity.count).lazy.map(equity.time)
                // Minute returns against a daily close carried forward, or a run past the benchmark's end: beta near
                // 0 (or none) and alpha ≈ the return.
                let shown = benchmarkSetting == "bundled" ? "^GSPC (bundled)" : benchmarkSetting
                if let refusal = BenchmarkFrequency.refusal(of: shown, prices: prices, equityTimes: times) {
                    benchmarkNote = refusal
                } else {
                    benchmarkCloses = try CSVReader.align(prices, to: (0..<equity.count).map(equity.time))
                    benchmarkName = benchmarkSetting == "bundled"
                        ? "^GSPC" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                }
            } catch {
                throw TraderError("\(path): \(error)")
            }
            if let benchmarkNote { Terminal.printError("warning: \(benchmarkNote)") }
        }
        self.benchmarkName = benchmarkName
        self.benchmarkCloses = benchmarkCloses
        do {
            var report = try PerformanceReport.analyze(
                equity: equity, benchmarkCloses: benchmarkCloses, trades: result.analyticsTrades,
                annualization: annualization)
            // The run's one commission total (open positions' fills included), as every output prints it.
            report.commissions = result.commissionTotal
            self.report = report
        } catch {
            throw TraderError("cannot compute metrics: \(error)")
        }
        parameters = Self.parameters(
            configuration, dataDescription: dataDescription, symbols: result.universe.instruments.count,
            benchmarkName: benchmarkName, periodsPerYear: annualization.periodsPerYear)
    }

    /// The commission model as the summary names it, with IBKR's futures and currency rates when the universe has
    /// them.
    var commissionText: String {
        let ibkr = commissionSetting == "ibkr-fixed" || commissionSetting == "ibkr-tiered"
        let kinds = result.universe.instruments.filter { !result.rateOnlySymbols.contains($0.symbol.rawValue) }.map(\.kind)
        var others: [String] = []
        if ibkr, kinds.contains(where: { if case .future = $0 { true } else { false } }) {
            others.append("futures $\(IBKRContractRates.futuresPerContract.centsDescription) a contract with fees")
        }
        if ibkr, kinds.contains(where: { if case .forex = $0 { true } else { false } }) {
            others.append("currencies 0.2 bp of value, $2 minimum")
        }
        let stocks = kinds.contains(.stock)
        let base: String =
            switch commissionSetting {
            case "none": "none charged: backtest.commission is none"
            case "ibkr-fixed": stocks || others.isEmpty ? "IB fixed: $0.005 a share, $1 minimum, 1 % cap" : "IB fixed"
            case "ibkr-tiered": "IB tiered"
            default: commissionSetting
            }
        return ([base] + others).joined(separator: "; ")
    }

    /// The terminal's commission line: the run's total (`BacktestResult.commissionTotal`, what summary.json and the
    /// report print), what it includes besides closed trades, and the schedule:
    /// `290.18 (of which 11.00 on positions still open; IB fixed: $0.005 a share, $1 minimum, 1 % cap)`.
    var commissionsLine: String {
        let total = result.commissionTotal
        return total.totalText + " (" + [total.inclusions, commissionText].compactMap { $0 }.joined(separator: "; ") + ")"
    }

    /// Every warning of the run for summary.json and the report (the terminal prints the benchmark note apart).
    var allWarnings: [String] {
        result.warnings(format: timeText) + [exposureWarning, buyingPowerWarning].compactMap { $0 }
            + (benchmarkNote.map { [$0] } ?? [])
    }

    /// How times are printed: dates for daily data, UTC datetimes otherwise.
    func timeText(_ time: Timestamp) -> String { BacktestOutput(result: result, isDaily: isDaily).time(time) }

    /// The terminal summary: the metrics, the run's counts, the risk profile and the warnings.
    public func table(engineSeconds: Double, runSeconds: Double) -> String {
        let bars = result.barsProcessed
        let extra = runCounts + [
            ("Commissions", commissionsLine),
            ("Bars processed", "\(bars) (\(result.universe.instruments.count) symbol\(result.universe.instruments.count == 1 ? "" : "s")"
                + (result.rateOnlySymbols.isEmpty ? ")" : ", \(result.rateOnlySymbols.joined(separator: ", ")) for the rate only)")),
            ("Engine", String(format: "%.3f s, %@ bars/s", engineSeconds, Self.rate(Double(bars) / max(engineSeconds, 1e-9)))),
            ("Whole run (load + run + metrics)", String(format: "%.3f s", runSeconds)),
        ] + currencyRows + exposureRows + fundsRows + executionRows + riskProfileRows
        let benchmark = benchmarkName.map { " vs \($0)" } ?? ""
        var text = SummaryTable.render(report.metricValues, title: "Backtest: \(strategyTitle)\(benchmark)", extra: extra)
        for warning in result.warnings(format: timeText) + [exposureWarning, buyingPowerWarning].compactMap({ $0 }) {
            text += "warning: \(warning)\n"
        }
        if let short = report.shortSampleWarning { text += "warning: \(short)\n" }
        return text
    }

    /// Writes trades.csv, orders.csv, equity.csv, allocations.csv (the performance allocator), summary.json and
    /// report.html.
    /// - Throws: `TraderError` naming a file that cannot be written.
    public func write(to directory: String, engineSeconds: Double) async throws(TraderError) {
        let output = BacktestOutput(result: result, isDaily: isDaily)
        // Made here first, so the two writers below never race to create it (a failure shows in their errors).
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The CSV files (66 MB on a 1M-bar run, nearly all of it equity.csv) are about as much work as summary.json
        // and report.html together, so they are written on another core meanwhile.
        async let csvWritten = Result { () throws(TraderError) in
            try output.writeEquityCSV(to: directory + "/equity.csv")
            try output.writeTradesCSV(to: directory + "/trades.csv")
            try output.writeOrdersCSV(to: directory + "/orders.csv")
        }
        let others = Result { () throws(TraderError) in try writeReports(to: directory, engineSeconds: engineSeconds) }
        try await csvWritten.get()
        try others.get()
    }

    /// allocations.csv, summary.json and report.html.
    private func writeReports(to directory: String, engineSeconds: Double) throws(TraderError) {
        if !result.allocations.isEmpty {
            try TextFiles.write(result.allocationsCSV(format: timeText), to: directory + "/allocations.csv")
        }
        try TextFiles.write(
            report.summaryJSON(parameters: parameters, extra: summaryExtra(engineSeconds: engineSeconds)),
            to: directory + "/summary.json")
        var input = HTMLReportInput(
            title: "IBTrader backtest: \(strategyTitle)", report: report, series: equity,
            benchmarkCloses: benchmarkCloses, benchmarkName: benchmarkName ?? "Benchmark", trades: result.analyticsTrades,
            parameters: parameters.mapValues { value in
                if case .string(let text) = value { return text }
                return value.serialized()
            })
        input.warnings = allWarnings
        input.sections = result.allocatorSections + result.reportSections(profile: riskProfile) + extraSections
        try TextFiles.write(HTMLReport.render(input), to: directory + "/report.html")
    }

    /// The files `write(to:engineSeconds:)` writes, for the line that says so.
    public var fileNames: String {
        "trades.csv, orders.csv, equity.csv" + (result.allocations.isEmpty ? "" : ", allocations.csv")
            + ", summary.json, report.html"
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
