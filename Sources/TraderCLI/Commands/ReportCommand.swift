import ArgumentParser
import TraderKit

/// `ibtrader report daily`: reports from a bot's journal (DailyReport).
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "report", abstract: "Reports from a bot's journal.", subcommands: [Daily.self])

    struct Daily: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One day of a bot: P&L and commissions by symbol, fills, positions at the end, outages, controls, errors.")
        @Option(name: .long, help: "The journal file.") var journal: String = "journal.sqlite"
        @Option(name: .long, help: "The UTC day, YYYY-MM-DD (default: the journal's last day with a fill).") var date: String?
        @Option(name: .long, help: "Also write the report as a self-contained HTML page to this file.") var out: String?
        func run() throws { print(try DailyReport.command(journal: journal, date: date, out: out)) }
    }
}
