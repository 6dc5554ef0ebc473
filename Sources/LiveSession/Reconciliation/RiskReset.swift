import JournalModel
import TradingModel

/// A halt the risk monitor trips and the journal persists across restarts (`RiskMonitor`, `JournalRiskState`).
public enum RiskHalt: String, CaseIterable, Sendable, Hashable {
    /// Entries blocked for the rest of the UTC day (`risk.maxDailyLossPercent`).
    case dailyLoss = "daily-loss"
    /// Entries halted for good (`risk.maxDrawdownPercent`).
    case drawdown
    /// Entries halted for good (`risk.rapidLossPercent` within `risk.rapidLossWindow`).
    case rapidLoss = "rapid-loss"

    /// Whether a journal row has this halt set.
    public func isSet(in row: JournalRiskState) -> Bool {
        switch self {
        case .dailyLoss: row.dailyLossBreached
        case .drawdown: row.drawdownHalted
        case .rapidLoss: row.rapidLossHalted
        }
    }
}

/// What `ibtrader risk reset` is asked to clear.
public struct RiskResetRequest: Hashable, Sendable {
    /// The halts to clear (those not set are ignored).
    public var halts: Set<RiskHalt>
    /// Re-base the drawdown rule's high-water mark even without a drawdown halt.
    public var highWaterMark: Bool

    /// Creates a request.
    public init(halts: Set<RiskHalt>, highWaterMark: Bool = false) {
        self.halts = halts
        self.highWaterMark = highWaterMark
    }
}

/// What a reset changes: the latest row and the row to journal after it.
public struct RiskResetPlan: Hashable, Sendable {
    /// The latest persisted state.
    public var before: JournalRiskState
    /// The state journaled by the reset (read by the next start like any row).
    public var after: JournalRiskState
    /// One phrase per change, for the prompt, the output and the journal event.
    public var changes: [String]
}

/// Clearing persisted halts on purpose. Pure.
///
/// **Decision.** A reset is a new `risk_state` row (the next start reads the latest row, as for any restart) plus a
/// `lifecycle` journal event naming who reset what; nothing is deleted, so the history stays. A cleared halt must
/// not trip again at the next start just because the equity is still below the old baseline, so its baseline is
/// re-based to the equity the next start restores:
/// - daily loss: the flag is cleared and the row's day becomes `rebasedDay` (no UTC day), which `RiskMonitor.restore`
///   treats like another day: today starts at the restored equity, so the full daily limit applies from there;
/// - drawdown: the flag is cleared and the high-water mark becomes zero ("none"): `RiskMonitor.restore` takes the
///   higher of the saved peak and the restored equity, so the peak starts at that equity;
/// - rapid loss: the flag is cleared (its trailing window restarts at every start anyway);
/// - `--high-water-mark` alone re-bases the peak the same way and leaves every halt as it is.
/// The engine is not involved: the command works on the journal of a stopped bot. A running bot keeps its halts in
/// memory and journals its own state again, so it must be stopped first (`runningRun` tells).
public enum RiskReset {
    /// The day of a row whose day start is to be taken from the next start's equity.
    public static let rebasedDay = Int64.min

    /// The reset of `row`, or `nil` when the request finds nothing to reset in it.
    /// - Parameters:
    ///   - request: what to clear.
    ///   - row: the latest persisted state of one account and configuration.
    ///   - time: when the reset is made (the row's time).
    public static func plan(_ request: RiskResetRequest, for row: JournalRiskState, at time: Timestamp) -> RiskResetPlan? {
        var after = row
        after.sequence = 0
        after.time = time
        after.run = nil  // written by the command, not a run
        var changes: [String] = []
        for halt in RiskHalt.allCases where request.halts.contains(halt) && halt.isSet(in: row) {
            switch halt {
            case .dailyLoss:
                after.dailyLossBreached = false
                after.day = rebasedDay
                changes.append(
                    "daily-loss halt cleared; the day start (\(row.dayStartEquity.centsDescription)) is re-based to "
                        + "the equity at the next start")
            case .drawdown:
                after.drawdownHalted = false
                changes.append("drawdown halt cleared")
            case .rapidLoss:
                after.rapidLossHalted = false
                changes.append("rapid-loss halt cleared")
            }
        }
        let clearsDrawdown = request.halts.contains(.drawdown) && row.drawdownHalted
        if (clearsDrawdown || request.highWaterMark), row.peakEquity != .zero {
            after.peakEquity = .zero
            changes.append(
                "high-water mark \(row.peakEquity.centsDescription) re-based to the equity at the next start")
        }
        return changes.isEmpty ? nil : RiskResetPlan(before: row, after: after, changes: changes)
    }

    /// The journal event of a reset.
    /// - Parameters:
    ///   - plan: the reset.
    ///   - operator: who ran it (user, host).
    public static func eventText(_ plan: RiskResetPlan, by operator: String) -> String {
        "risk reset by \(`operator`) (ibtrader risk reset): account \(plan.before.account), configuration "
            + "\(plan.before.runKey) (state of run \(plan.before.run.map(String.init) ?? "?")): "
            + plan.changes.joined(separator: "; ")
    }

    /// The run whose start the journal's lifecycle events show without a stop after it (still running, or killed),
    /// or `nil` when the latest run stopped (or none started).
    /// - Parameter lifecycle: the journal's `lifecycle` event messages, oldest first.
    public static func runningRun(lifecycle: [String]) -> Int64? {
        for message in lifecycle.reversed() {
            if message.hasPrefix("stopped: ") { return nil }
            if message.hasPrefix("run "), let number = Int64(message.dropFirst(4).prefix { $0.isNumber }),
                message.dropFirst(4).drop(while: { $0.isNumber }).hasPrefix(" started")
            {
                return number
            }
        }
        return nil
    }

    /// Whether a row's day start waits for the next start's equity (written by a reset).
    public static func dayIsRebased(_ row: JournalRiskState) -> Bool { row.day == rebasedDay }

    /// Whether a row's high-water mark waits for the next start's equity (written by a reset).
    public static func peakIsRebased(_ row: JournalRiskState) -> Bool { row.peakEquity == .zero }
}
