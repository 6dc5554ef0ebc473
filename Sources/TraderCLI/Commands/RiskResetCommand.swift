import ArgumentParser
import Foundation
import LiveSession
import TraderKit

/// `ibtrader risk reset [--halt daily-loss|drawdown|rapid-loss|all] [--high-water-mark] --journal PATH [--yes]`.
struct RiskResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Clear a persisted risk halt (and re-base its baseline) in a stopped bot's journal.",
        discussion: """
            Writes a new risk-state row that the next `ibtrader run` of that account and configuration restores, \
            and a lifecycle journal event naming who reset what; nothing is deleted. A cleared daily-loss halt \
            re-bases the day start, a cleared drawdown halt the high-water mark, to the equity the next start \
            restores (so the halt does not trip again at once; the full limit applies from there). \
            --high-water-mark re-bases the high-water mark alone, halts untouched. Without --halt or \
            --high-water-mark every set halt is cleared (--halt all). Refuses when there is nothing to reset, and \
            when several configurations have something to reset (choose with --account / --run-key). Asks for \
            confirmation on a terminal unless --yes; elsewhere --yes is required. Stop the bot first: a running \
            bot keeps its halts in memory and journals them again, so a reset is refused while a bot holds the \
            journal (its lock file, `<journal>-lock`), unless --force.
            """
    )

    @Option(name: .long, help: "Halt to clear: daily-loss, drawdown, rapid-loss or all (repeatable).")
    var halt: [String] = []

    @Flag(name: .customLong("high-water-mark"), help: "Re-base the drawdown high-water mark to the next start's equity.")
    var highWaterMark: Bool = false

    @Option(name: .long, help: "The journal file of the bot (required).") var journal: String

    @Option(name: .long, help: "The account (when the journal holds several).") var account: String?

    @Option(name: .customLong("run-key"), help: "The run configuration, as `ibtrader risk status` shows it.")
    var runKey: String?

    @Flag(name: .long, help: "Do not ask for confirmation.") var yes: Bool = false

    @Flag(name: .long, help: "Reset even while a bot holds the journal (it keeps its halts and journals them again).")
    var force: Bool = false

    func validate() throws {
        for name in halt where name != "all" && RiskHalt(rawValue: name) == nil {
            throw ValidationError("--halt must be daily-loss, drawdown, rapid-loss or all, got '\(name)'")
        }
    }

    /// The halts asked for (`all` when neither --halt nor --high-water-mark is given).
    var request: RiskResetRequest {
        let all = halt.contains("all") || (halt.isEmpty && !highWaterMark)
        let halts = all ? Set(RiskHalt.allCases) : Set(halt.compactMap(RiskHalt.init(rawValue:)))
        return RiskResetRequest(halts: halts, highWaterMark: highWaterMark)
    }

    func run() throws {
        let lines = try RiskStateTool.reset(
            RiskStateTool.Selection(journal: journal, account: account, runKey: runKey, force: force), request: request,
            confirm: yes ? nil : { Terminal.confirm($0 + "\nType yes to reset: ") })
        print(lines.joined(separator: "\n"))
    }
}
