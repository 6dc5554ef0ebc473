import Analytics
import ArgumentParser
import Foundation
import InteractiveBrokers
import JournalModel
import LiveSession
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

    /// Opens an existing journal for the risk commands.
    static func open(_ path: String) throws -> OrderJournal {
        do { return try OrderJournal(path: path, createIfMissing: false) } catch { throw CLIError("\(error)") }
    }

    /// Who holds the journal's lock: a running bot, or nobody.
    static func holder(_ path: String) throws -> JournalHolder {
        do { return try OrderJournal.holder(journalPath: path) } catch { throw CLIError("\(error)") }
    }

    /// "a bot is running on journal.sqlite (pid 4242)".
    static func runningText(_ holder: JournalHolder, journal: String) -> String {
        guard case .held(let pid) = holder else { return "no bot is running on \(journal)" }
        return "a bot is running on \(journal) (" + (pid.map { "pid \($0)" } ?? "pid unknown")
            + ", it holds \(OrderJournal.lockPath(for: journal)))"
    }

    /// The latest states, narrowed to an account and a configuration when given.
    static func states(_ journal: OrderJournal, account: String?, runKey: String?) throws -> [JournalRiskState] {
        do {
            return try journal.latestRiskStates().filter {
                (account == nil || $0.account == account) && (runKey == nil || $0.runKey == runKey)
            }
        } catch { throw CLIError("\(error)") }
    }
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

    @Option(name: .long, help: "The journal file.")
    var journal: String = "journal.sqlite"

    @Option(name: .long, help: "Only this account.")
    var account: String?

    @Option(name: .customLong("run-key"), help: "Only this run configuration (as shown).")
    var runKey: String?

    @Flag(name: .long, help: "JSON lines instead of text.")
    var json: Bool = false

    func run() throws {
        let file = try RiskCommand.open(journal)
        let states = try RiskCommand.states(file, account: account, runKey: runKey)
        let holder = try RiskCommand.holder(journal)
        var blocks = [json ? JSONLine.render(Self.object(holder)) : RiskCommand.runningText(holder, journal: journal)]
        for state in states {
            let trips: JournalRiskTrips
            do { trips = try file.riskTrips(account: state.account, runKey: state.runKey) } catch {
                throw CLIError("\(error)")
            }
            blocks.append(json ? JSONLine.render(Self.object(state, trips)) : Self.text(state, trips))
        }
        if states.isEmpty {
            let narrowed = account != nil || runKey != nil
            if !json { blocks.append("no risk state in \(journal)" + (narrowed ? " for that selection" : "")) }
        }
        print(blocks.joined(separator: json ? "\n" : "\n\n"))
    }

    static func dayText(_ state: JournalRiskState) -> String {
        guard !RiskReset.dayIsRebased(state) else { return "re-based: the next start's equity" }
        let (start, overflow) = state.day.multipliedReportingOverflow(by: Timestamp.nanosecondsPerDay)
        return overflow ? "day \(state.day)" : String(Timestamp(nanoseconds: start).description.prefix(10))
    }

    static func tripText(_ set: Bool, _ trip: JournalRiskTrip?) -> String {
        guard set else { return "no" }
        guard let trip else { return "HALTED" }
        return "HALTED since \(trip.time) (run \(trip.run.map(String.init) ?? "?"))"
    }

    static func text(_ state: JournalRiskState, _ trips: JournalRiskTrips) -> String {
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

    static func object(_ holder: JournalHolder) -> KeyValuePairs<String, JSONValue> {
        guard case .held(let pid) = holder else {
            return ["record": .string("bot"), "running": .bool(false), "pid": .null]
        }
        return ["record": .string("bot"), "running": .bool(true), "pid": pid.map { .integer(Int($0)) } ?? .null]
    }

    static func object(_ state: JournalRiskState, _ trips: JournalRiskTrips) -> KeyValuePairs<String, JSONValue> {
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
}
