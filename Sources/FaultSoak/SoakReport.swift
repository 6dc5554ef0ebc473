import Foundation
import TradingModel

/// What a soak measured.
public struct SoakReport: Sendable {
    /// Wall time of the whole soak, the bot's simulated time (the soak runs in virtual time), and the replay time the
    /// simulator moved.
    public var wallSeconds = 0.0
    public var simulatedSeconds = 0.0
    public var replaySeconds = 0.0
    /// Until the bot first traded, and its last stop.
    public var startupSeconds = 0.0
    public var stopSeconds = 0.0
    /// Nights (and weekends and holidays) the replay jumped over (`SoakSettings.skipNights`).
    public var nights = 0
    /// Faults applied, by command.
    public var faults: [String: Int] = [:]
    /// Bot runs (a restart after a position-mismatch ALERT starts a new one) and reconnects within them.
    public var botRuns = 0
    public var reconnects = 0
    /// Gateway processes (one more per `restart-fresh`).
    public var gatewayProcesses = 0
    /// New orders that reached the simulator, its executions, and the fills in the bot's journal.
    public var orders = 0
    public var executions = 0
    public var journaledFills = 0
    /// Simulator executions not in the journal, and journaled execIds the simulator never made.
    public var lostFills: [String] = []
    public var phantomFills: [String] = []
    /// Executions a gateway took with it when it was replaced during a loss of connectivity, before any report of them
    /// reached a client (not lost fills: no client could have had them).
    public var unreportedExecutions = 0
    /// Modifications of working orders that reached the simulator (the strategy's reprices of resting orders).
    public var modifications = 0
    /// Second live broker orders the `twin-order` faults made, those the bot caught (an ALERT journaled for the
    /// permId), and those that filled shares before they ended.
    public var twinOrders = 0
    public var twinsCaught = 0
    public var twinsFilled = 0
    /// Orders refused as "kill switch engaged" (journaled risk denials) although the soak never engages the kill
    /// switch: a pause (connection down, bars back-filled, books differing) that misnamed itself to the operator.
    public var killSwitchClaims = 0
    /// orderRefs placed more than once at the simulator.
    public var duplicateOrders: [String: Int] = [:]
    /// Engine against simulator positions, sampled.
    public var mismatches = MismatchFigures()
    public var samples = 0
    /// The reconciliation interval the differences are held to (seconds).
    public var interval = 0.0
    /// Engine and simulator positions after the bot stopped (`nil`: they agree).
    public var finalDifference: String?
    /// Jobs the virtual loop ran, and how often it waited for something outside the simulation (0: the run was closed,
    /// so it repeats exactly).
    public var loopJobs = 0
    public var outsideWaits = 0
    /// The engine's positions when the last bot run stopped.
    public var finalEnginePositions: [Symbol: Double] = [:]
    /// Symbols found with a dead feed (`stall-feed`, or a hung gateway's silence), each time, and how often a symbol's
    /// bars came back after one.
    public var deadFeeds = 0
    public var feedsRecovered = 0
    /// Positions the bot opened by mistake: a short at the broker, which the long-only soak never means to hold (a
    /// sale of more than the broker held), each symbol's first.
    public var mistakenPositions: [String] = []
    /// ALERTs that a gap in the bars was longer than `data.maxBackfill` (a night or a weekend is no such gap).
    public var gapAlerts = 0
    /// The bot's critical ALERT lines, by kind.
    public var criticalAlerts: [String: Int] = [:]
    /// Critical ALERTs no fault of the soak can cause, so each is a fault of the bot: a journal that failed a write
    /// (the soak's disk never fails) and an execId conflict (the simulator never reuses one).
    public var unexpectedAlerts: Int { (criticalAlerts["journal"] ?? 0) + (criticalAlerts["execution conflict"] ?? 0) }
    /// Operator text (the bot's log lines at info and above, its alerts, the journal's events) with a Swift type or
    /// enum dump in it, at most 20 (`OperatorText.leak`).
    public var operatorTextLeaks: [String] = []
    /// How many lines, alerts and events were scanned.
    public var operatorTextScanned = 0

    public init() {}

    /// Whether the soak met its bar: no lost fill, no duplicate order, no difference unalerted for longer than one
    /// interval, no position opened by mistake, every second live order caught before it filled, no refusal that
    /// blames a kill switch nobody engaged, no ALERT that the journal failed or an execId conflicted, and the books
    /// agree at the end.
    public var passed: Bool {
        lostFills.isEmpty && phantomFills.isEmpty && duplicateOrders.isEmpty && mismatches.unalertedTooLong == 0
            && finalDifference == nil && mistakenPositions.isEmpty && twinsCaught == twinOrders && twinsFilled == 0
            && killSwitchClaims == 0 && unexpectedAlerts == 0
    }

    /// The figures as lines.
    public var lines: [String] {
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        let faultText = faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let alertText = criticalAlerts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        var lines = [
            "soak: \(f(simulatedSeconds)) s simulated in \(f(wallSeconds)) s wall (start-up \(f(startupSeconds)) s, stop \(f(stopSeconds)) s), \(f(replaySeconds / 3600)) h of replay\(nights > 0 ? " over \(nights + 1) trading days" : ""); \(botRuns) bot runs, \(reconnects) reconnects, \(gatewayProcesses) gateway processes",
            "faults applied: \(faultText)",
            "virtual loop: \(loopJobs) jobs, \(outsideWaits) waits for the outside",
            "orders placed: \(orders), simulator executions: \(executions), journaled fills: \(journaledFills)",
            "lost fills: \(lostFills.count)\(lostFills.isEmpty ? "" : " (\(lostFills.prefix(5).joined(separator: ", ")))")"
                + (phantomFills.isEmpty ? "" : "; journaled but never executed: \(phantomFills.count)")
                + (unreportedExecutions == 0 ? "" : "; \(unreportedExecutions) made during a 1100 outage went with their gateway unreported (no client could have them)"),
            "modifications that reached the broker: \(modifications); second live orders (twin-order): \(twinOrders), "
                + "caught by the bot: \(twinsCaught), filled before caught: \(twinsFilled)",
            "orders refused as \"kill switch engaged\" (the soak never engages it): \(killSwitchClaims)",
            "duplicate orders: \(duplicateOrders.count)\(duplicateOrders.isEmpty ? "" : " (\(duplicateOrders.keys.sorted().prefix(5).joined(separator: ", ")))")",
            "position differences (\(samples) samples): \(mismatches.lasting) lasting ≥ the brief limit (\(mismatches.afterFreshRestart) after a gateway lost its state), "
                + "\(mismatches.alerted) alerted; \(mismatches.brief) brief (fills on their way, longest \(f(mismatches.longestBrief)) s)",
            "unalerted longer than one reconciliation interval (\(f(interval)) s): \(mismatches.unalertedTooLong); longest unalerted: \(f(mismatches.longestUnalerted)) s; longest difference: \(f(mismatches.longest)) s",
            "position-mismatch ALERTs: \(mismatches.alerts) (\(mismatches.alertsWithoutDifference) without a sampled difference, \(mismatches.unexplainedAlerts) not after a gateway lost its state); critical ALERT lines: \(alertText.isEmpty ? "none" : alertText)",
            "positions opened by mistake (a short at the broker; the soak trades long only): \(mistakenPositions.count)"
                + (mistakenPositions.isEmpty ? "" : " (\(mistakenPositions.prefix(5).joined(separator: ", ")))"),
            "gaps too long to back-fill (ALERTs): \(gapAlerts)",
            "dead feeds found: \(deadFeeds) (a symbol each; a hung gateway silences them all), bars back after one: \(feedsRecovered)",
            "books at the end: \(finalDifference ?? "agree")",
            "operator text: \(operatorTextScanned) log lines, alerts and journal events scanned, \(operatorTextLeaks.count) with Swift type names",
        ]
        lines += operatorTextLeaks.map { "  \($0)" }
        lines += mismatches.worst.map { "  unalerted: \($0)" }
        return lines
    }
}
