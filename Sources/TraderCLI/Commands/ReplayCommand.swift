import ArgumentParser
import Foundation
import TraderKit

/// `ibtrader replay JOURNAL`: re-runs a logged live session offline and compares what it does with the log.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-run a logged live session offline: the same decisions, or what another configuration would do.",
        discussion: """
            Every `ibtrader run` with a journal logs each input of its session (bars, the broker's messages, \
            answers, ticks) with its time. replay hands them to the session's core again and prints the order \
            actions. With the session's own configuration the actions must be identical, step for step: it says so, \
            or prints the first difference and exits 1. With --config FILE (and --set KEY=VALUE on top of it) it \
            shows what that configuration would have done with the same data: other parameters or risk limits. A \
            configuration that asks for other data sees the logged answers only as far as its requests match. \
            --drift runs the backtester over exactly the bars the session acted on and lists where its orders \
            differ from the live ones (exit 1 when any do).
            """
    )

    @Argument(help: "The journal of the run (journal.path).") var journal: String
    @OptionGroup var config: ConfigOptions

    @Option(name: .long, help: "The session to replay (default: the latest; list them with --list).")
    var session: Int64?
    @Flag(name: .long, help: "List the journal's logged sessions.") var list = false
    @Flag(name: .long, help: "Print every action, not only the order actions.") var verbose = false
    @Flag(name: .long, help: "Live-versus-backtest drift: the backtest over the bars the session acted on.")
    var drift = false

    func run() async throws {
        if list {
            for line in try SessionReplayJob.list(journal: journal) { print(line) }
            return
        } else if drift {
            let report = try DriftJob.report(journal: journal, session: session)
            for line in report.lines { print(line) }
            if !report.differences.isEmpty { throw ExitCode(1) }
            return
        }
        if config.config.isEmpty, !config.assignments.isEmpty {
            throw ValidationError("--set changes keys of a --config FILE: give the config the run used, then --set")
        }
        let other = config.config.isEmpty
            ? nil : (loaded: try config.load(flags: []), name: config.config.joined(separator: " + "))
        let report = try SessionReplayJob.replay(journal: journal, session: session, config: other, verbose: verbose)
        for line in report.lines { print(line) }
        if other == nil, report.firstDifference != nil { throw ExitCode(1) }
    }
}
