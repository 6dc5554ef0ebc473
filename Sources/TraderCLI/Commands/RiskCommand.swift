import ArgumentParser
import Foundation
import TraderKit

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
            is running on the journal (it holds the journal's lock file). --json prints one JSON object per line, \
            the first `{"record":"bot",…}`.
            """
    )

    @Option(name: .long, help: "The journal file.") var journal: String = "journal.sqlite"

    @Option(name: .long, help: "Only this account.") var account: String?

    @Option(name: .customLong("run-key"), help: "Only this run configuration (as shown).") var runKey: String?

    @Flag(name: .long, help: "JSON lines instead of text.") var json: Bool = false

    func run() throws {
        print(try RiskStateTool.status(journal: journal, account: account, runKey: runKey, json: json))
    }
}
