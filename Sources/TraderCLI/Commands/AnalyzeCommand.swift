import Analytics
import ArgumentParser
import Foundation

/// `ibtrader analyze EQUITY.csv [--benchmark FILE] [--out DIR]`: metrics and a report for any equity curve.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Performance metrics, summary.json and an HTML report for an equity curve (date,equity).",
        discussion: """
            The benchmark may be a date,close file or bars (date,open,high,low,close,volume); its last close at or \
            before each equity date is used. Alpha is reported in quantstats' arithmetic convention ('alpha', \
            'alpha_quantstats'); empyrical's geometric one is 'alpha_empyrical'.
            """
    )

    @Argument(help: "The equity curve: a CSV with date (or time) and equity columns, e.g. a backtest's equity.csv.")
    var equityFile: String

    @Option(name: .long, help: "A benchmark price file, or 'bundled' for ^GSPC.")
    var benchmark: String?

    @Option(name: .long, help: "Write summary.json and report.html to this folder.")
    var out: String?

    @Option(name: .long, help: "Return periods per year (default: 252 for daily data, 252 × bars per day for intraday).")
    var periodsPerYear: Int?

    func run() throws {
        let equity: [EquityPoint]
        do {
            equity = try CSVReader.equityCurve(from: try readTextFile(equityFile))
        } catch let error as CSVReadError {
            throw CLIError("\(equityFile): \(error)")
        }
        var benchmarkCloses: [Double]?
        var benchmarkName = "benchmark"
        if let benchmark {
            let path = benchmark == "bundled" ? try BenchmarkFiles.bundledPath() : benchmark
            benchmarkName = benchmark == "bundled" ? "^GSPC" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            do {
                let prices = try CSVReader.prices(from: try readTextFile(path))
                benchmarkCloses = try CSVReader.align(prices, to: equity.map(\.time))
            } catch let error as CSVReadError {
                throw CLIError("\(path): \(error)")
            }
        }
        let periodsPerYear = self.periodsPerYear ?? CSVReader.periodsPerYear(times: equity.map(\.time))
        let report: PerformanceReport
        do {
            report = try PerformanceReport.analyze(
                equity: equity, benchmarkCloses: benchmarkCloses, periodsPerYear: periodsPerYear)
        } catch {
            throw CLIError("\(equityFile): \(error)")
        }
        print(SummaryTable.render(report.metricValues, title: "Performance of \(equityFile)"))
        if let out {
            let parameters = ["equity_file": equityFile, "benchmark": benchmark ?? "", "periods_per_year": String(periodsPerYear)]
            try writeTextFile(report.summaryJSON(parameters: parameters), to: out + "/summary.json")
            let html = HTMLReport.render(HTMLReportInput(
                title: "IBTrader analysis: \(URL(fileURLWithPath: equityFile).lastPathComponent)", report: report,
                equity: equity, benchmarkCloses: benchmarkCloses, benchmarkName: benchmarkName, trades: [],
                parameters: parameters))
            try writeTextFile(html, to: out + "/report.html")
            print("wrote \(out)/summary.json and \(out)/report.html")
        }
    }
}
