import Foundation
import InteractiveBrokers
import JournalModel
import LiveSession
import Storage
import TraderConfig

/// What `ibtrader replay JOURNAL` does: re-runs a logged live session's core offline, with the session's own
/// configuration (the actions must be identical) or another one ("what would my bot have done").
public enum SessionReplayJob {
    /// The lines `replay --list` prints.
    public static func list(journal: String) throws(TraderError) -> [String] {
        let sessions = try open(journal).sessions
        guard !sessions.isEmpty else { return ["\(journal) has no logged session"] }
        return sessions.map { "session \($0.number): started \($0.startedAt), \($0.steps) inputs" }
    }

    /// Replays a session.
    /// - Parameters:
    ///   - journal: the journal of the run.
    ///   - session: the session number (`nil`: the latest with inputs).
    ///   - config: replay with this configuration instead of the logged one.
    /// - Returns: the report; with the logged configuration, `firstDifference` set means the replay disagrees.
    public static func replay(
        journal: String, session: Int64?, config: (loaded: LoadedConfiguration, name: String)?, verbose: Bool
    ) throws(TraderError) -> ReplayReport {
        let loaded = try load(journal: journal, session: session)
        let (chosen, logged, loggedStrategy) = (loaded.session, loaded.settings, loaded.strategy)
        let replayer: SessionReplayer
        if let config {
            let runner = LiveRunSetup.runner(config.loaded.settings, options: LiveRunOptions())
            replayer = config.loaded.settings.strategy.runner.replayer(runner, logged, chosen.startedAt)
        } else if let loggedStrategy {
            replayer = SessionReplay.replayer(settings: logged, strategy: loggedStrategy, startedAt: chosen.startedAt)
        } else {
            throw TraderError(
                "session \(chosen.number) traded a strategy of its own, which the log cannot rebuild: give --config FILE")
        }
        var report = ReplayReport(
            heading: "session \(chosen.number) of \(journal): started \(chosen.startedAt), \(chosen.steps) inputs, "
                + "replayed with \(config?.name ?? "its logged configuration")",
            verbose: verbose)
        do {
            try loaded.forEachStep { report.add(try replayer.replay($0)) }
        } catch {
            throw TraderError("session \(chosen.number) of \(journal) cannot be replayed: \(error)")
        }
        return report
    }

    /// A logged session: its header, read; its steps, read when asked.
    struct Loaded {
        var file: OrderJournal
        var session: JournalSession
        var settings: SessionSettings
        var strategy: SessionStrategy?

        /// Every step in order, a page at a time (a week of the sandbox logs a million steps).
        func forEachStep(_ body: (JournalSessionStep) throws -> Void) throws {
            var after = Int64.min
            while true {
                let page = try file.sessionSteps(session: session.number, after: after, limit: 8_192)
                for step in page { try body(step) }
                guard let last = page.last, page.count == 8_192 else { return }
                after = last.sequence
            }
        }
    }

    /// Reads a session (`nil`: the latest with inputs) of a journal.
    static func load(journal: String, session: Int64?) throws(TraderError) -> Loaded {
        let (file, sessions) = try open(journal)
        let picked = session.map { number in sessions.first { $0.number == number } } ?? sessions.last { $0.steps > 0 }
        guard let chosen = picked else {
            throw TraderError(
                session.map { "\(journal) has no session \($0) (see --list)" }
                    ?? "\(journal) has no logged session: run `ibtrader run` with a journal first")
        }
        do {
            return Loaded(
                file: file, session: chosen,
                settings: try SessionLog.decode(SessionSettings.self, header: chosen.settings),
                strategy: try chosen.strategy.map { try SessionLog.decode(SessionStrategy.self, header: $0) })
        } catch {
            throw TraderError("session \(chosen.number) of \(journal) cannot be read: \(error)")
        }
    }

    static func open(_ journal: String) throws(TraderError) -> (file: OrderJournal, sessions: [JournalSession]) {
        do {
            let file = try OrderJournal(path: journal, createIfMissing: false)
            return (file, try file.sessions())
        } catch { throw TraderError("\(error)") }
    }
}

/// What a replay prints: the actions (order actions unless verbose) with their times, then the verdict. Built a
/// step at a time: it keeps the lines it prints and the first difference, not the steps.
public struct ReplayReport: Sendable {
    /// Which session, replayed with what.
    public let heading: String
    /// Print every action, not only the order actions.
    public let verbose: Bool
    /// The first step whose actions differ from the log's.
    public private(set) var firstDifference: SessionReplay.Step?
    private var actionLines: [String] = []
    private var inputs = 0
    private var actions = 0
    private var replayedOrders = 0
    private var loggedOrders = 0

    /// An empty report.
    public init(heading: String, verbose: Bool) {
        self.heading = heading
        self.verbose = verbose
    }

    /// Adds a replayed step.
    public mutating func add(_ step: SessionReplay.Step) {
        inputs += 1
        actions += step.replayed.count
        for action in step.replayed where verbose || action.isOrderAction {
            actionLines.append("\(step.time)  \(action.summary)")
        }
        replayedOrders += step.replayed.count { $0.isOrderAction }
        loggedOrders += step.recorded.count { $0.isOrderAction }
        if firstDifference == nil, !step.agrees { firstDifference = step }
    }

    /// The report's lines.
    public var lines: [String] {
        var lines = [heading] + actionLines
        guard let step = firstDifference else {
            lines.append(
                "the actions are identical: \(inputs) inputs, \(actions) actions, \(replayedOrders) order actions")
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
