import Analytics
import Foundation

/// `ibtrader analyze`: the metrics and report of any equity curve (`date,equity`, or a backtest's equity.csv with a
/// time column), against a benchmark if given.
public struct EquityAnalysis {
    /// The metrics.
    public let report: PerformanceReport
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
        if let benchmark {
            let path = benchmark == "bundled" ? try BenchmarkFiles.bundledPath() : benchmark
            name = benchmark == "bundled" ? "^GSPC" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let prices = try TextFiles.read(path)
            do throws(CSVReadError) {
                closes = try CSVReader.align(try CSVReader.prices(from: prices), to: equity.map(\.time))
            } catch {
                throw TraderError("\(path): \(error)")
            }
        }
        benchmarkCloses = closes
        benchmarkName = name
        let periodsPerYear = periodsPerYear ?? CSVReader.periodsPerYear(times: equity.map(\.time))
        do {
            report = try PerformanceReport.analyze(equity: equity, benchmarkCloses: closes, periodsPerYear: periodsPerYear)
        } catch {
            throw TraderError("\(equityFile): \(error)")
        }
        parameters = ["equity_file": equityFile, "benchmark": benchmark ?? "", "periods_per_year": String(periodsPerYear)]
        title = "IBTrader analysis: \(URL(fileURLWithPath: equityFile).lastPathComponent)"
    }

    /// Writes summary.json and report.html.
    public func write(to out: String) throws(TraderError) {
        try TextFiles.write(report.summaryJSON(parameters: parameters), to: out + "/summary.json")
        let html = HTMLReport.render(HTMLReportInput(
            title: title, report: report, equity: equity, benchmarkCloses: benchmarkCloses, benchmarkName: benchmarkName,
            trades: [], parameters: parameters))
        try TextFiles.write(html, to: out + "/report.html")
    }
}
