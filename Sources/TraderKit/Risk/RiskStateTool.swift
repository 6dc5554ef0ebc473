import Analytics
import Foundation
import InteractiveBrokers
import Storage
import TradingModel
import JournalModel
import LiveSession

/// What `ibtrader risk status` and `risk reset` do with a journal: read the risk state the live runner persists,
/// tell whether a bot holds the journal, and clear a halt deliberately (journaled, never while a bot runs unless
/// forced).
public enum RiskStateTool {
    /// Which journal, account and configuration a reset is about.
    public struct Selection: Sendable {
        /// The journal file.
        public var journal: String
        /// Only this account.
        public var account: String?
        /// Only this run configuration.
        public var runKey: String?
        /// Reset even while a bot holds the journal.
        public var force = false

        /// A selection.
        public init(journal: String, account: String? = nil, runKey: String? = nil, force: Bool = false) {
            self.journal = journal
            self.account = account
            self.runKey = runKey
            self.force = force
        }
    }

    /// Opens an existing journal for the risk commands.
    public static func open(_ path: String) throws -> OrderJournal {
        do { return try OrderJournal(path: path, createIfMissing: false) } catch { throw TraderError("\(error)") }
    }

    /// Who holds the journal's lock: a running bot, or nobody.
    public static func holder(_ path: String) throws -> JournalHolder {
        do { return try OrderJournal.holder(journalPath: path) } catch { throw TraderError("\(error)") }
    }

    /// "a bot is running on journal.sqlite (pid 4242)".
    public static func runningText(_ holder: JournalHolder, journal: String) -> String {
        guard case .held(let pid) = holder else { return "no bot is running on \(journal)" }
        return "a bot is running on \(journal) (" + (pid.map { "pid \($0)" } ?? "pid unknown")
            + ", it holds \(OrderJournal.lockPath(for: journal)))"
    }

    /// The latest states, narrowed to an account and a configuration when given.
    public static func states(_ journal: OrderJournal, account: String?, runKey: String?) throws -> [JournalRiskState] {
        do {
            return try journal.latestRiskStates().filter {
                (account == nil || $0.account == account) && (runKey == nil || $0.runKey == runKey)
            }
        } catch { throw TraderError("\(error)") }
    }

    /// What `ibtrader risk status` prints: whether a bot runs on the journal, then each selected risk state.
    public static func status(journal: String, account: String?, runKey: String?, json: Bool) throws -> String {
        let file = try open(journal)
        let states = try states(file, account: account, runKey: runKey)
        let holder = try holder(journal)
        var blocks = [json ? JSONLine.render(RiskStatusText.object(holder)) : runningText(holder, journal: journal)]
        for state in states {
            let trips: JournalRiskTrips
            do { trips = try file.riskTrips(account: state.account, runKey: state.runKey) } catch {
                throw TraderError("\(error)")
            }
            blocks.append(json ? JSONLine.render(RiskStatusText.object(state, trips)) : RiskStatusText.text(state, trips))
        }
        if states.isEmpty, !json {
            blocks.append("no risk state in \(journal)" + (account != nil || runKey != nil ? " for that selection" : ""))
        }
        return blocks.joined(separator: json ? "\n" : "\n\n")
    }

    /// Clears what `request` asks in the selected journal.
    /// - Parameter confirm: asks the operator (`nil`: do not ask, `--yes`).
    /// - Returns: the lines to print.
    public static func reset(
        _ selection: Selection, request: RiskResetRequest, confirm: ((String) -> Bool)?
    ) throws -> [String] {
        let file = try open(selection.journal)
        let holder = try holder(selection.journal)
        if case .held = holder, !selection.force {
            throw TraderError(
                "\(runningText(holder, journal: selection.journal)); stop it first (a running bot keeps its "
                    + "halts in memory and journals them again), or pass --force; nothing was changed")
        }
        let states = try states(file, account: selection.account, runKey: selection.runKey)
        let now = Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
        let plans = states.compactMap { RiskReset.plan(request, for: $0, at: now) }
        guard let plan = plans.first else {
            let asked = request.halts.map(\.rawValue).sorted().joined(separator: ", ")
                + (request.highWaterMark ? (request.halts.isEmpty ? "" : ", ") + "high-water mark" : "")
            let held = states.map { "\($0.account) \($0.runKey): \(RiskStatusText.haltsText($0))" }
            throw TraderError(
                "nothing to reset (asked: \(asked)) in \(selection.journal)"
                    + (held.isEmpty
                        ? ": it holds no risk state for that selection" : "; latest: " + held.joined(separator: "; ")))
        }
        guard plans.count == 1 else {
            let keys = plans.map { "--account \($0.before.account) --run-key '\($0.before.runKey)'" }
            throw TraderError(
                "several configurations have something to reset; choose one: " + keys.joined(separator: " | "))
        }
        var lines = ["account \(plan.before.account), configuration \(plan.before.runKey):"]
        lines += plan.changes.map { "  \($0)" }
        if case .held = holder {
            lines.append(
                "warning: \(runningText(holder, journal: selection.journal)) (--force): it keeps its halts "
                    + "and journals them again")
        } else {
            do {
                let lifecycle = try file.events(kind: .lifecycle).map(\.message)
                if let running = RiskReset.runningRun(lifecycle: lifecycle) {
                    lines.append(
                        "warning: run \(running) has no recorded stop, but no bot holds the journal: it was killed or "
                            + "crashed")
                }
            } catch { throw TraderError("\(error)") }
        }
        if let confirm, !confirm(lines.joined(separator: "\n")) {
            throw TraderError(
                isatty(STDIN_FILENO) == 1
                    ? "not confirmed; nothing was changed"
                    : "standard input is not a terminal: pass --yes to reset (it would: "
                        + plan.changes.joined(separator: "; ") + "); nothing was changed")
        }
        let who = "\(NSUserName())@\(ProcessInfo.processInfo.hostName) (pid \(ProcessInfo.processInfo.processIdentifier))"
        do {
            try file.recordRiskState(plan.after)
            try file.recordEvent(.lifecycle, RiskReset.eventText(plan, by: who), at: now)
        } catch { throw TraderError("\(error)") }
        return (confirm == nil ? lines : []) + ["reset; the next start of that configuration restores it (journaled)"]
    }
}

/// The text and JSON of `ibtrader risk status`.
public enum RiskStatusText {
    public static func dayText(_ state: JournalRiskState) -> String {
        guard !RiskReset.dayIsRebased(state) else { return "re-based: the next start's equity" }
        let (start, overflow) = state.day.multipliedReportingOverflow(by: Timestamp.nanosecondsPerDay)
        return overflow ? "day \(state.day)" : String(Timestamp(nanoseconds: start).description.prefix(10))
    }

    public static func tripText(_ set: Bool, _ trip: JournalRiskTrip?) -> String {
        guard set else { return "no" }
        guard let trip else { return "HALTED" }
        return "HALTED since \(trip.time) (run \(trip.run.map(String.init) ?? "?"))"
    }

    public static func text(_ state: JournalRiskState, _ trips: JournalRiskTrips) -> String {
        let halted = state.dailyLossBreached || state.drawdownHalted || state.rapidLossHalted
        let lines = [
            "account \(state.account), configuration \(state.runKey)",
            "  latest row:       \(state.time) by \(state.run.map { "run \($0)" } ?? "ibtrader risk reset")",
            "  UTC day:          \(dayText(state))",
            "  day start equity: "
                + (RiskReset.dayIsRebased(state) ? "re-based" : state.dayStartEquity.centsDescription),
            "  high-water mark:  "
                + (RiskReset.peakIsRebased(state)
                    ? "re-based: the next start's equity" : state.peakEquity.centsDescription),
            "  daily loss:       \(tripText(state.dailyLossBreached, trips.dailyLoss))"
                + (state.dailyLossBreached ? " (until the UTC day ends)" : ""),
            "  drawdown:         \(tripText(state.drawdownHalted, trips.drawdown))",
            "  rapid loss:       \(tripText(state.rapidLossHalted, trips.rapidLoss))",
            "  entries:          " + (halted ? "halted (ibtrader risk reset clears it)" : "allowed"),
        ]
        return lines.joined(separator: "\n")
    }

    public static func object(_ holder: JournalHolder) -> KeyValuePairs<String, JSONValue> {
        guard case .held(let pid) = holder else {
            return ["record": .string("bot"), "running": .bool(false), "pid": .null]
        }
        return ["record": .string("bot"), "running": .bool(true), "pid": pid.map { .integer(Int($0)) } ?? .null]
    }

    public static func object(_ state: JournalRiskState, _ trips: JournalRiskTrips) -> KeyValuePairs<String, JSONValue> {
        func trip(_ value: JournalRiskTrip?) -> JSONValue { .optional(value?.time.description) }
        func run(_ value: JournalRiskTrip?) -> JSONValue { value?.run.map { .integer(Int($0)) } ?? .null }
        return [
            "record": .string("risk_state"), "account": .string(state.account), "run_key": .string(state.runKey),
            "time": .string(state.time.description), "run": state.run.map { .integer(Int($0)) } ?? .null,
            "day": RiskReset.dayIsRebased(state) ? .null : .string(dayText(state)),
            "day_start_equity": RiskReset.dayIsRebased(state) ? .null : .string("\(state.dayStartEquity)"),
            "high_water_mark": RiskReset.peakIsRebased(state) ? .null : .string("\(state.peakEquity)"),
            "daily_loss_halted": .bool(state.dailyLossBreached), "daily_loss_since": trip(trips.dailyLoss),
            "daily_loss_run": run(trips.dailyLoss),
            "drawdown_halted": .bool(state.drawdownHalted), "drawdown_since": trip(trips.drawdown),
            "drawdown_run": run(trips.drawdown),
            "rapid_loss_halted": .bool(state.rapidLossHalted), "rapid_loss_since": trip(trips.rapidLoss),
            "rapid_loss_run": run(trips.rapidLoss),
        ]
    }

    /// "drawdown, daily loss" or "no halt".
    public static func haltsText(_ state: JournalRiskState) -> String {
        let set = RiskHalt.allCases.filter { $0.isSet(in: state) }.map(\.rawValue)
        return set.isEmpty ? "no halt" : set.joined(separator: ", ")
    }
}
