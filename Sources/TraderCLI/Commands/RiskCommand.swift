import Analytics
import ArgumentParser
import TraderKit
import Foundation
import InteractiveBrokers
import Storage
import TradingModel

/// `ibtrader risk status|reset`: the risk state the live runner persists across restarts (day start, high-water
/// mark, halts), and a deliberate, journaled way to clear a halt.
struct RiskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "risk",
        abstract:
            "Show or reset the risk state `ibtrader run` persists across restarts (halts, day start, high-water mark).",
        subcommands: [RiskStatusCommand.self, RiskResetCommand.self]
    )
}

/// `ibtrader risk status [--journal PATH] [--account A] [--run-key K] [--json]`.
struct RiskStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "What the journal persists of the risk monitor, per account and run configuration.",
        discussion: """
            One entry per account and run configuration (strategy, capital, universe: the run key): the latest \
            persisted UTC day and its start equity, the drawdown rule's high-water mark, and each halt with the \
            time (the runner's clock: bar time) and run of the row where it tripped. "re-based" means a reset \
            asked the next start to take that value from the equity it restores. A restart on the same UTC day \
            keeps the day start and a daily-loss halt; the high-water mark and the drawdown and rapid-loss halts \
            carry over on every restart until `ibtrader risk reset` clears them. The first line says whether a bot \
            is running on the journal (it holds the intent log's lock). --json prints one JSON object per line, \
            the first `{"record":"bot",…}`.
            """
    )

    @Option(name: .long, help: "The journal file.")
    var journal: String = "journal.sqlite"

    @Option(name: .long, help: "Only this account.")
    var account: String?

    @Option(name: .customLong("run-key"), help: "Only this run configuration (as shown).")
    var runKey: String?

    @Flag(name: .long, help: "JSON lines instead of text.")
    var json: Bool = false

    func run() throws {
        let file = try RiskStateTool.open(journal)
        let states = try RiskStateTool.states(file, account: account, runKey: runKey)
        let holder = try RiskStateTool.holder(journal)
        var blocks = [json ? JSONLine.render(RiskStatusText.object(holder)) : RiskStateTool.runningText(holder, journal: journal)]
        for state in states {
            let trips: JournalRiskTrips
            do { trips = try file.riskTrips(account: state.account, runKey: state.runKey) } catch {
                throw CLIError("\(error)")
            }
            blocks.append(json ? JSONLine.render(RiskStatusText.object(state, trips)) : RiskStatusText.text(state, trips))
        }
        if states.isEmpty {
            let narrowed = account != nil || runKey != nil
            if !json { blocks.append("no risk state in \(journal)" + (narrowed ? " for that selection" : "")) }
        }
        print(blocks.joined(separator: json ? "\n" : "\n\n"))
    }
}
