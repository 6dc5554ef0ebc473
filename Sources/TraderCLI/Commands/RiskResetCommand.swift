import ArgumentParser
import Foundation
import InteractiveBrokers
import JournalModel
import LiveSession
import Storage
import TradingModel

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

    @Option(name: .long, help: "The journal file of the bot (required).")
    var journal: String

    @Option(name: .long, help: "The account (when the journal holds several).")
    var account: String?

    @Option(name: .customLong("run-key"), help: "The run configuration, as `ibtrader risk status` shows it.")
    var runKey: String?

    @Flag(name: .long, help: "Do not ask for confirmation.")
    var yes: Bool = false

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
        let confirm: (String) -> Bool = { prompt in
            guard isatty(STDIN_FILENO) == 1 else { return false }
            print(prompt + "\nType yes to reset: ", terminator: "")
            return readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "yes"
        }
        let lines = try Self.reset(
            Selection(journal: journal, account: account, runKey: runKey, force: force), request: request,
            confirm: yes ? nil : confirm)
        print(lines.joined(separator: "\n"))
    }

    /// Which journal and which of its configurations.
    struct Selection {
        var journal: String
        var account: String?
        var runKey: String?
        /// Reset even while a bot holds the journal.
        var force = false
    }

    /// Plans the reset, asks `confirm` (`nil`: confirmed by --yes), journals it; returns what to print.
    /// - Throws: `CLIError` when a bot holds the journal (without `force`), when nothing (or more than one
    ///   configuration) has something to reset, when not confirmed, or when the journal fails.
    static func reset(
        _ selection: Selection, request: RiskResetRequest, confirm: ((String) -> Bool)?
    ) throws -> [String] {
        let file = try RiskCommand.open(selection.journal)
        let holder = try RiskCommand.holder(selection.journal)
        if case .held = holder, !selection.force {
            throw CLIError(
                "\(RiskCommand.runningText(holder, journal: selection.journal)); stop it first (a running bot keeps its "
                    + "halts in memory and journals them again), or pass --force; nothing was changed")
        }
        let states = try RiskCommand.states(file, account: selection.account, runKey: selection.runKey)
        let now = Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
        let plans = states.compactMap { RiskReset.plan(request, for: $0, at: now) }
        guard let plan = plans.first else {
            let asked = request.halts.map(\.rawValue).sorted().joined(separator: ", ")
                + (request.highWaterMark ? (request.halts.isEmpty ? "" : ", ") + "high-water mark" : "")
            let held = states.map { "\($0.account) \($0.runKey): \(RiskStatusCommand.haltsText($0))" }
            throw CLIError(
                "nothing to reset (asked: \(asked)) in \(selection.journal)"
                    + (held.isEmpty
                        ? ": it holds no risk state for that selection" : "; latest: " + held.joined(separator: "; ")))
        }
        guard plans.count == 1 else {
            let keys = plans.map { "--account \($0.before.account) --run-key '\($0.before.runKey)'" }
            throw CLIError(
                "several configurations have something to reset; choose one: " + keys.joined(separator: " | "))
        }
        var lines = ["account \(plan.before.account), configuration \(plan.before.runKey):"]
        lines += plan.changes.map { "  \($0)" }
        if case .held = holder {
            lines.append(
                "warning: \(RiskCommand.runningText(holder, journal: selection.journal)) (--force): it keeps its halts "
                    + "and journals them again")
        } else {
            do {
                let lifecycle = try file.events(kind: .lifecycle).map(\.message)
                if let running = RiskReset.runningRun(lifecycle: lifecycle) {
                    lines.append(
                        "warning: run \(running) has no recorded stop, but no bot holds the journal: it was killed or "
                            + "crashed")
                }
            } catch { throw CLIError("\(error)") }
        }
        if let confirm, !confirm(lines.joined(separator: "\n")) {
            throw CLIError(
                isatty(STDIN_FILENO) == 1
                    ? "not confirmed; nothing was changed"
                    : "standard input is not a terminal: pass --yes to reset (it would: "
                        + plan.changes.joined(separator: "; ") + "); nothing was changed")
        }
        let who = "\(NSUserName())@\(ProcessInfo.processInfo.hostName) (pid \(ProcessInfo.processInfo.processIdentifier))"
        do {
            try file.recordRiskState(plan.after)
            try file.recordEvent(.lifecycle, RiskReset.eventText(plan, by: who), at: now)
        } catch { throw CLIError("\(error)") }
        return (confirm == nil ? lines : []) + ["reset; the next start of that configuration restores it (journaled)"]
    }
}

extension RiskStatusCommand {
    /// "drawdown, daily loss" or "no halt".
    static func haltsText(_ state: JournalRiskState) -> String {
        let set = RiskHalt.allCases.filter { $0.isSet(in: state) }.map(\.rawValue)
        return set.isEmpty ? "no halt" : set.joined(separator: ", ")
    }
}
