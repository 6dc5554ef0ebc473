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

    /// Reads the curve and the benchmark and computes the metrics.
    /// - Parameter periodsPerYear: return periods per year (`nil`: inferred, 252 for daily data and 252 × the median
    ///   bars per day for intraday).
    /// - Throws: `TraderError` naming the file (and line) that cannot be used.
    public init(equityFile: String, benchmark: String?, periodsPerYear: Int?) throws(TraderError) {
        let text = try TextFiles.read(equityFile)
        do throws(CSVReadError) { equity = try CSVReader.equityCurve(from: text) } catch {
            throw TraderError("\(equityFile): \(error)")
        }
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
                if let refusal = BenchmarkFrequency.refusal(of: benchmark, prices: prices, equityTimes: times) {
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
        let periodsPerYear = periodsPerYear ?? CSVReader.periodsPerYear(times: equity.map(\.time))
        do {
            report = try PerformanceReport.analyze(equity: equity, benchmarkCloses: closes, periodsPerYear: periodsPerYear)
        } catch {
            throw TraderError("\(equityFile): \(error)")
        }
        parameters = [
            "equity_file": equityFile, "benchmark": closes == nil ? "" : benchmark ?? "",
            "periods_per_year": String(periodsPerYear),
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
            trades: [], parameters: parameters)
        input.warnings = warnings
        try TextFiles.write(HTMLReport.render(input), to: out + "/report.html")
    }
}
