import ArgumentParser
import Foundation
import TraderKit

/// `ibtrader analyze EQUITY.csv [--benchmark FILE] [--out DIR]`: metrics and a report for any equity curve.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Performance metrics, summary.json and an HTML report for an equity curve (date,equity).",
        discussion: """
            The benchmark may be a date,close file or bars (date,open,high,low,close,volume); its last close at or \
            before each equity date is used; a daily one against intraday equity is not (the report says why). Alpha \
            is in quantstats' convention ('alpha', 'alpha_quantstats'); empyrical's is 'alpha_empyrical'.
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

    func validate() throws {
        if let periodsPerYear, !(1...1_000_000).contains(periodsPerYear) {
            throw ValidationError("--periods-per-year must be from 1 to 1000000, got \(periodsPerYear)")
        }
    }

    func run() throws {
        let analysis = try EquityAnalysis(equityFile: equityFile, benchmark: benchmark, periodsPerYear: periodsPerYear)
        for warning in analysis.warnings { Terminal.printError("warning: \(warning)") }
        let short = analysis.report.shortSampleWarning.map { "warning: \($0)\n" } ?? ""
        print(SummaryTable.render(analysis.report.metricValues, title: "Performance of \(equityFile)") + short)
        if let out {
            try analysis.write(to: out)
            print("wrote \(out)/summary.json and \(out)/report.html")
        }
    }
}
