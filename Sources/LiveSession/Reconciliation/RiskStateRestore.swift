import JournalModel
import TradingEngine
import TradingModel

/// The risk monitor's baseline across a restart: journal rows ⇄ `RiskBaseline`, and what the log says. Pure.
///
/// **Decision.** The runner journals the monitor's day start, peak and halt flags (`JournalRiskState`, keyed by
/// account and `RunKey`): at once when a halt trips or the UTC day turns (checked on the 1-second tick), otherwise
/// every summary interval when anything changed, right after each start-up restore, and at stop. The equity
/// itself is not derivable from fills alone (it marks open positions), so the baseline is recorded rather than
/// recomputed. A restart hands the latest row to `RiskMonitor.restore`: on the same UTC day (the monitor's own day
/// rule) the day start and the daily-loss halt carry over; on another day the day starts at the restored equity;
/// the peak and the drawdown and rapid-loss halts always carry over. A kill -9 loses at most one summary interval
/// of peak increases (the halt then trips a little later) and at most one second of a fresh trip — which the
/// restore re-trips anyway when the restored equity is still past the limit.
public enum RiskStateRestore {
    /// The baseline a journal row holds.
    public static func baseline(_ row: JournalRiskState) -> RiskBaseline {
        RiskBaseline(
            day: row.day, dayStartEquity: row.dayStartEquity, peakEquity: row.peakEquity,
            dailyLossBreached: row.dailyLossBreached, drawdownHalted: row.drawdownHalted,
            rapidLossHalted: row.rapidLossHalted)
    }

    /// The journal row of a baseline.
    public static func row(
        _ baseline: RiskBaseline, account: String, key: RunKey, run: Int64?, at time: Timestamp
    ) -> JournalRiskState {
        JournalRiskState(
            time: time, account: account, runKey: key.fingerprint, run: run, day: baseline.day,
            dayStartEquity: baseline.dayStartEquity, peakEquity: baseline.peakEquity,
            dailyLossBreached: baseline.dailyLossBreached, drawdownHalted: baseline.drawdownHalted,
            rapidLossHalted: baseline.rapidLossHalted)
    }

    /// Whether a new baseline must be journaled now rather than at the next summary: a halt changed or the day
    /// turned (a restart must not miss either); `periodic`: anything changed.
    public static func mustRecord(_ current: RiskBaseline?, last: RiskBaseline?, periodic: Bool) -> Bool {
        guard let current else { return false }
        guard let last else { return true }
        if current.day != last.day || current.dailyLossBreached != last.dailyLossBreached
            || current.drawdownHalted != last.drawdownHalted || current.rapidLossHalted != last.rapidLossHalted
        {
            return true
        }
        return periodic && current != last
    }

    /// The halts set, for the log ("daily loss, drawdown"), or `nil` when none.
    public static func halts(_ baseline: RiskBaseline) -> String? {
        var names: [String] = []
        if baseline.dailyLossBreached { names.append("daily loss (until the UTC day ends)") }
        if baseline.drawdownHalted { names.append("drawdown") }
        if baseline.rapidLossHalted { names.append("rapid loss") }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }
}

/// Today's order-efficiency counts after a restart. Pure.
///
/// **Decision.** Each count is the larger of what the journal's rows show for the UTC day (orders marked
/// submitted, orders that reached `canceled`, orders with a fill: `OrderJournal.orderActivity`) and the counts
/// the run before journaled (every summary interval and at stop). Both can only miss actions, never invent them,
/// so the larger is the better lower bound; modifications are only in the journaled counts. Rows of another day
/// are ignored: the guard counts per UTC day of the broker's clock.
public enum OrderEfficiencyRestore {
    /// The merged counts.
    public static func merge(
        activity: JournalOrderActivity, saved: JournalOrderEfficiency?, day: Int64
    ) -> (submitted: Int, modified: Int, cancelled: Int, executed: Int) {
        let same = saved.flatMap { $0.day == day ? $0 : nil }
        return (
            max(activity.submitted, same?.submitted ?? 0), same?.modified ?? 0,
            max(activity.cancelled, same?.cancelled ?? 0), max(activity.executed, same?.executed ?? 0)
        )
    }
}
