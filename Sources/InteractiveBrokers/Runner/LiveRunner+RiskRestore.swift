import Storage
import TradingEngine
import TradingModel

// The risk monitor's baseline and the day's order-efficiency counts across a restart: restored from the journal at
// start (`RiskStateRestore`, `OrderEfficiencyRestore`), journaled while running and at stop.
extension Session {
    /// After the cash restore: the risk baseline of the run before with the same `RunKey` into the engine (day
    /// start, peak, halts; `EngineCore.restore(risk:at:)`), logged, then journaled as this run's first row.
    mutating func restoreRiskState(_ journal: OrderJournal, key: RunKey, at now: Timestamp) {
        do {
            let saved = try journal.latestRiskState(account: account, runKey: key.fingerprint)
            engine.restore(risk: saved.map(RiskStateRestore.baseline), at: now)
            guard let baseline = engine.riskMonitor.baseline else { return }  // no equity rule configured
            let origin =
                saved.map { row in
                    "restored from " + (row.run.map { "run \($0)" } ?? "`ibtrader risk reset`")
                        + (row.day == baseline.day
                            ? " (same UTC day)"
                            : RiskReset.dayIsRebased(row)
                                ? " (day start re-based by the reset: the day starts here)"
                                : " (a new UTC day: the day starts here)")
                } ?? "fresh"
            let text =
                "risk baseline \(origin): day start \(baseline.dayStartEquity.centsDescription), peak "
                + "\(baseline.peakEquity.centsDescription), equity \(engine.portfolio.equity.centsDescription)"
            logger.notice("\(text)")
            try journal.recordEvent(.reconciliation, text, at: now)
            if let halts = RiskStateRestore.halts(baseline) {
                let alert = "entries halted after the restart: \(halts)"
                logger.warning("\(alert)")
                try journal.recordEvent(.reconciliation, alert, at: now)
            }
            if saved == nil, let other = try journal.latestRiskState(account: account, runKey: nil),
                other.runKey != key.fingerprint, let halts = RiskStateRestore.halts(RiskStateRestore.baseline(other))
            {
                let note =
                    "the account's latest risk state (configuration \(other.runKey), run "
                    + "\(other.run.map(String.init) ?? "?")) had halted entries (\(halts)); this configuration "
                    + "(\(key.fingerprint)) starts with its own, fresh baseline"
                logger.warning("\(note)")
                try journal.recordEvent(.reconciliation, note, at: now)
            }
            try journal.recordRiskState(
                RiskStateRestore.row(baseline, account: account, key: key, run: run?.number, at: now))
            journaledRisk = baseline
        } catch {
            logger.error("journal (risk baseline): \(error)")
        }
    }

    /// At start, before anything is sent: today's order-efficiency counts from the journal into the broker's guard.
    func restoreOrderEfficiency(_ broker: IBBroker) async {
        guard let journal = configuration.journal else { return }
        let day = time.now().dayNumber
        do {
            let counts = OrderEfficiencyRestore.merge(
                activity: try journal.orderActivity(onDay: day, account: account),
                saved: try journal.latestOrderEfficiency(account: account, day: day), day: day)
            guard counts.submitted + counts.modified + counts.cancelled + counts.executed > 0 else { return }
            await broker.restoreEfficiency(
                day: day, submitted: counts.submitted, modified: counts.modified, cancelled: counts.cancelled,
                executed: counts.executed)
            let summary = await broker.orderEfficiencySummary
            logger.notice("restored from the journal: \(summary)")
        } catch {
            logger.error("journal (order efficiency): \(error)")
        }
    }

    /// On the runner's tick and at stop: journals the risk baseline when a halt changed or the day turned (at once)
    /// or anything changed (`periodic`: the summary interval, stop), and the order-efficiency counts when
    /// `periodic` and changed.
    mutating func journalRestartState(_ broker: IBBroker, periodic: Bool) async {
        guard let journal = configuration.journal else { return }
        let now = time.now()
        let baseline = engine.riskMonitor.baseline
        if let baseline, RiskStateRestore.mustRecord(baseline, last: journaledRisk, periodic: periodic) {
            do {
                try journal.recordRiskState(
                    RiskStateRestore.row(baseline, account: account, key: runKey, run: run?.number, at: now))
                journaledRisk = baseline
            } catch {
                logger.error("journal (risk baseline): \(error)")
            }
        }
        guard periodic else { return }
        let efficiency = await broker.orderEfficiency
        guard efficiency.day != .min else { return }
        let row = JournalOrderEfficiency(
            time: now, account: account, day: efficiency.day, submitted: efficiency.submitted,
            modified: efficiency.modified, cancelled: efficiency.cancelled, executed: efficiency.executed)
        var comparable = row
        comparable.time = journaledEfficiency?.time ?? now
        guard comparable != journaledEfficiency else { return }
        do {
            try journal.recordOrderEfficiency(row)
            journaledEfficiency = row
        } catch {
            logger.error("journal (order efficiency): \(error)")
        }
    }
}
