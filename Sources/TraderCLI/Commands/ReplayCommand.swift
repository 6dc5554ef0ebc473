import ArgumentParser
import Foundation
import InteractiveBrokers
import JournalModel
import LiveSession
import Storage
import TradingModel

/// `ibtrader replay JOURNAL`: re-runs a logged live session offline and compares what it does with the log.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-run a logged live session offline: the same decisions, or what another configuration would do.",
        discussion: """
            Every `ibtrader run` with a journal logs each input of its session (bars, the broker's messages, \
            answers, ticks) with its time. replay hands them to the session's core again and prints the order \
            actions. With the session's own configuration the actions must be identical, step for step: it says so, \
            or prints the first difference and exits 1. With --config FILE it shows what that configuration would \
            have done with the same data (other parameters or risk limits; a configuration that asks for other data \
            sees the logged answers only as far as its requests match).
            """
    )

    @Argument(help: "The journal of the run (journal.path).")
    var journal: String

    @Option(name: .long, help: "Replay with this run config instead of the logged one.")
    var config: String?

    @Option(name: .long, help: "The session to replay (default: the latest; list them with --list).")
    var session: Int64?

    @Flag(name: .long, help: "List the journal's logged sessions.")
    var list = false

    @Flag(name: .long, help: "Print every action, not only the order actions.")
    var verbose = false

    func run() async throws {
        let opened: OrderJournal
        do { opened = try OrderJournal(path: journal, createIfMissing: false) } catch { throw CLIError("\(error)") }
        let sessions: [JournalSession]
        do { sessions = try opened.sessions() } catch { throw CLIError("\(error)") }
        if list {
            if sessions.isEmpty { print("\(journal) has no logged session") }
            for entry in sessions { print("session \(entry.number): started \(entry.startedAt), \(entry.steps) inputs") }
            return
        }
        guard let chosen = session.map({ number in sessions.first { $0.number == number } }) ?? sessions.last(where: { $0.steps > 0 })
        else {
            throw CLIError(
                session.map { "\(journal) has no session \($0) (see --list)" }
                    ?? "\(journal) has no logged session: run `ibtrader run` with a journal first")
        }
        let logged: SessionSettings
        let loggedStrategy: SessionStrategy?
        let steps: [JournalSessionStep]
        do {
            logged = try SessionLog.decode(SessionSettings.self, header: chosen.settings)
            loggedStrategy = try chosen.strategy.map { try SessionLog.decode(SessionStrategy.self, header: $0) }
            steps = try opened.sessionSteps(session: chosen.number)
        } catch {
            throw CLIError("session \(chosen.number) of \(journal) cannot be read: \(error)")
        }
        var settings = logged
        var strategy = loggedStrategy
        var source = "its logged configuration"
        if let config {
            let run = try await RunSettings.load(file: config, environment: ProcessInfo.processInfo.environment)
            let spec = try run.strategySpec()
            let record = SessionStrategy(
                spec: spec, orderTimeout: run.orderTimeout.map { .milliseconds(Int64($0 * 1000)) })
            settings = SessionReplay.settings(run.runnerConfiguration, strategy: record, logged: logged)
            strategy = record
            source = config
        }
        guard let strategy else {
            throw CLIError(
                "session \(chosen.number) traded a strategy of its own, which the log cannot rebuild: give --config FILE")
        }
        let replayed: [SessionReplay.Step]
        do {
            replayed = try SessionReplay.replay(steps, settings: settings, strategy: strategy, startedAt: chosen.startedAt)
        } catch {
            throw CLIError("session \(chosen.number) of \(journal) cannot be replayed: \(error)")
        }
        print("session \(chosen.number) of \(journal): started \(chosen.startedAt), \(steps.count) inputs, replayed with \(source)")
        let report = ReplayReport(steps: replayed, verbose: verbose)
        for line in report.lines { print(line) }
        if config == nil, report.firstDifference != nil { throw ExitCode(1) }
    }
}

/// What a replay prints: the actions (order actions unless verbose) with their times, then the verdict.
struct ReplayReport {
    let steps: [SessionReplay.Step]
    let verbose: Bool

    /// The first step whose actions differ from the log's.
    var firstDifference: SessionReplay.Step? { steps.first { !$0.agrees } }

    var lines: [String] {
        var lines: [String] = []
        for step in steps {
            for action in step.replayed where verbose || action.isOrderAction {
                lines.append("\(step.time)  \(action.summary)")
            }
        }
        let replayedOrders = steps.reduce(0) { $0 + $1.replayed.filter(\.isOrderAction).count }
        let loggedOrders = steps.reduce(0) { $0 + $1.recorded.filter(\.isOrderAction).count }
        let actions = steps.reduce(0) { $0 + $1.replayed.count }
        guard let step = firstDifference else {
            lines.append(
                "the actions are identical: \(steps.count) inputs, \(actions) actions, \(replayedOrders) order actions")
            return lines
        }
        lines.append(
            "the actions differ from the log (\(loggedOrders) order actions logged, \(replayedOrders) replayed); "
                + "the first difference is at input \(step.sequence) (\(step.time)): \(step.input.summary)")
        let common = min(step.recorded.count, step.replayed.count)
        let k = (0..<common).first { step.recorded[$0] != step.replayed[$0] } ?? common
        lines.append("  logged:   " + (k < step.recorded.count ? step.recorded[k].summary : "(nothing more)"))
        lines.append("  replayed: " + (k < step.replayed.count ? step.replayed[k].summary : "(nothing more)"))
        return lines
    }
}
