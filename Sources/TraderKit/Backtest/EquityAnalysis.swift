import Analytics
import Foundation

/// `ibtrader analyze`: the metrics and report of any equity curve (`date,equity`, or a backtest's equity.csv with a
/// time column), against a benchmark if given. A daily benchmark against intraday equity is not used, as in
/// `ibtrader backtest` (`BenchmarkFrequency`): the analysis is made without it and `warnings` says why.
public struct EquityAnalysis {
    /// The metrics.
    public let report: PerformanceReport
    /// What the reader must know: why the benchmark was not used. Printed, and written into summary.json and the report.
    public let warnings: [String]
    let equity: [EquityPoint]
    let benchmarkCloses: [Double]?
    let benchmarkName: String
    let parameters: [String: String]
    let title: String

    /// The trades file read (`nil`: none, so the trade figures are unknown).
    public let tradesFile: String?
    let trades: [TradeRecord]?

    /// Reads the curve, its trades and the benchmark and computes the metrics.
    /// - Parameters:
    ///   - trades: a trades file in the backtester's `trades.csv` layout, `none` for no trades, or `nil` for the
    ///     backtester's own: `trades.csv` beside an `equity.csv`, when there is one. Without trades, every trade
    ///     figure is reported as unknown, not as 0.
    ///   - periodsPerYear: return periods per year (`nil`: inferred from the curve's spacing, `Annualization`: 252
    ///     daily, 52 weekly, 12 monthly, 4 quarterly, 252 × the median bars per day intraday).
    /// - Throws: `TraderError` naming the file (and line) that cannot be used.
    public init(equityFile: String, benchmark: String?, trades: String? = nil, periodsPerYear: Int?) throws(TraderError) {
        try Self.check(periodsPerYear: periodsPerYear)
        let text = try TextFiles.read(equityFile)
        do throws(CSVReadError) { equity = try CSVReader.equityCurve(from: text) } catch {
            throw TraderError("\(equityFile): \(error)")
        }
        let tradesPath = Self.tradesPath(given: trades, equityFile: equityFile)
        var commissions: CommissionTotal?
        if let tradesPath {
            let text = try TextFiles.read(tradesPath)
            do throws(CSVReadError) { (self.trades, commissions) = try CSVReader.tradeFile(from: text) } catch {
                throw TraderError("\(tradesPath): \(error)")
            }
        } else {
            self.trades = nil
        }
        tradesFile = tradesPath
        var closes: [Double]?
        var name = "benchmark"
        var warnings: [String] = []
        if let benchmark {
            let path = benchmark == "bundled" ? try BenchmarkFiles.bundledPath() : benchmark
            name = benchmark == "bundled" ? "^GSPC" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let text = try TextFiles.read(path)
            do throws(CSVReadError) {
                let prices = try CSVReader.prices(from: text)
                let times = equity.map(\.time)
                let shown = benchmark == "bundled" ? "^GSPC (bundled)" : benchmark
                if let refusal = BenchmarkFrequency.refusal(of: shown, prices: prices, equityTimes: times) {
                    warnings.append(refusal)
                } else {
                    closes = try CSVReader.align(prices, to: times)
                }
            } catch {
                throw TraderError("\(path): \(error)")
            }
        }
        benchmarkCloses = closes
        benchmarkName = name
        self.warnings = warnings
        let annualization = periodsPerYear.map { Annualization.given($0, by: "--periods-per-year") }
            ?? Annualization.inferred(times: equity.lazy.map(\.time))
        do {
            var report = try PerformanceReport.analyze(
                equity: EquitySeries(equity), benchmarkCloses: closes, trades: self.trades, annualization: annualization)
            // Every row's commission, the open positions' too: the backtest's total.
            report.commissions = commissions
            self.report = report
        } catch {
            throw TraderError("\(equityFile): \(error)")
        }
        parameters = [
            "equity_file": equityFile, "benchmark": closes == nil ? "" : benchmark ?? "",
            "periods_per_year": String(annualization.periodsPerYear), "trades_file": tradesPath ?? "",
        ]
        title = "IBTrader analysis: \(URL(fileURLWithPath: equityFile).lastPathComponent)"
    }

    /// Writes summary.json (with `warnings`) and report.html.
    public func write(to out: String) throws(TraderError) {
        let json = report.summaryJSON(
            parameters: parameters.mapValues(JSONValue.string), extra: ["warnings": .array(warnings.map(JSONValue.string))])
        try TextFiles.write(json, to: out + "/summary.json")
        var input = HTMLReportInput(
            title: title, report: report, equity: equity, benchmarkCloses: benchmarkCloses, benchmarkName: benchmarkName,
            trades: trades ?? [], parameters: parameters)
        input.warnings = warnings
        try TextFiles.write(HTMLReport.render(input), to: out + "/report.html")
    }

    /// Refuses a number of return periods per year outside 1...1,000,000 (`ibtrader analyze` checks it while parsing).
    public static func check(periodsPerYear: Int?) throws(TraderError) {
        if let periodsPerYear, !(1...1_000_000).contains(periodsPerYear) {
            throw TraderError("--periods-per-year must be from 1 to 1000000, got \(periodsPerYear)")
        }
    }

    /// The trades file to read: the one given, none for `none`, else `trades.csv` beside the backtester's
    /// `equity.csv` when it exists.
    static func tradesPath(given: String?, equityFile: String) -> String? {
        if let given { return given == "none" ? nil : given }
        let equity = URL(fileURLWithPath: equityFile)
        guard equity.lastPathComponent == "equity.csv" else { return nil }
        let beside = equity.deletingLastPathComponent().appendingPathComponent("trades.csv").path
        return FileManager.default.fileExists(atPath: beside) ? beside : nil
    }
}
