import ArgumentParser
import Foundation
import TraderKit

/// `ibtrader analyze EQUITY.csv [--benchmark FILE] [--trades FILE] [--out DIR]`: metrics and a report for any equity curve.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Performance metrics, summary.json and an HTML report for an equity curve (date,equity).",
        discussion: """
            The benchmark (date,close or bars) gives its last close at or before each equity date; a daily one against \
            intraday equity, or one not covering the curve, is not used (the report says why). Alpha is quantstats' \
            ('alpha', 'alpha_quantstats'); empyrical's is 'alpha_empyrical'. Without trades, trade figures are '–'.
            """)

    @Argument(help: "The equity curve: a CSV with date (or time) and equity columns, e.g. a backtest's equity.csv.")
    var equityFile: String

    @Option(name: .long, help: "A benchmark price file, or 'bundled' for ^GSPC.") var benchmark: String?

    @Option(name: .long, help: "Trades in trades.csv's layout, or 'none' (default: the trades.csv beside an equity.csv).")
    var trades: String?

    @Option(name: .long, help: "Write summary.json and report.html to this folder.") var out: String?

    @Option(name: .long, help: "Return periods per year (default: from the curve's spacing, e.g. 252 daily, 52 weekly, 12 monthly).")
    var periodsPerYear: Int?

    func validate() throws { try EquityAnalysis.check(periodsPerYear: periodsPerYear) }

    func run() throws {
        let analysis = try EquityAnalysis(equityFile: equityFile, benchmark: benchmark, trades: trades, periodsPerYear: periodsPerYear)
        for warning in analysis.warnings { Terminal.printError("warning: \(warning)") }
        if trades == nil, let file = analysis.tradesFile { print("trades from \(file)") }
        let short = analysis.report.shortSampleWarning.map { "warning: \($0)\n" } ?? ""
        print(SummaryTable.render(analysis.report.metricValues, title: "Performance of \(equityFile)") + short)
        if let out {
            try analysis.write(to: out)
            print("wrote \(out)/summary.json and \(out)/report.html")
        }
    }
}
