import Logging
import JournalModel
import TradingEngine
import TradingModel

// What a restart restores beyond orders: the engine's cash (the configuration's checkpoint plus the fills since),
// the realized-P&L total, the risk baseline and the day's order-efficiency counts; and the baseline and counts
// journaled while running and at stop.
extension LiveSessionCore {
    /// After the positions are adopted: the cash the run before with the same `RunKey` had (its latest checkpoint
    /// plus the fills journaled after it, `CashRestore`), then its risk baseline, then a new keyed checkpoint at the
    /// journal's last fill. The first run of a key keeps the configured capital minus the adopted positions' cost.
    /// - Parameters:
    ///   - journal: the journal after the broker's executions were journaled (its fills).
    ///   - checkpoint: the journal before (its checkpoints and risk states).
    mutating func restoreCash(
        _ snapshot: BrokerSnapshot, journal: JournalRestartData, checkpoint: JournalRestartData, _ out: inout Actions
    ) {
        let key = settings.runKey
        let symbols = Set(ids.map { universe[$0].symbol })
        // The positions the engine took (the broker's, or the bot's own part of them) and only the fills that made
        // them: an external position and its fills are not the bot's cash.
        var positions: [Symbol: Quantity] = [:]
        var costs: [Symbol: Price] = [:]
        for id in ids where !engine.portfolio.position(for: id).isFlat {
            positions[universe[id].symbol] = engine.portfolio.position(for: id).quantity
            costs[universe[id].symbol] = snapshot.averageCosts[id] ?? engine.portfolio.position(for: id).averagePrice
        }
        let bot = run?.bot
        let fills =
            settings.adoptsExternalPositions
            ? journal.fills : journal.fills.filter { OwnedPositions.isOwn($0.orderRef?.rawValue, bot: bot) }
        let latest = checkpoint.latestCheckpointKey
        if let saved = checkpoint.cashCheckpoint {
            let adopted = engine.portfolio.cash
            let portfolio = engine.portfolio
            // The pairs' latest prices (the warm-up's); the run before's rate where a pair has none yet.
            let rates = portfolio.foreignRates.merging(saved.foreignRates) { now, before in now > 0 ? now : before }
            let outcome = CashRestore.restore(
                checkpoint: saved, fills: fills, account: account, universe: symbols, brokerPositions: positions,
                averageCosts: costs, accountCurrency: portfolio.conversion.accountCurrency, rates: rates)
            engine.restore(
                cash: outcome.cash, foreign: outcome.foreign, rates: rates, commissions: outcome.commissions, at: dataTime)
            for balance in portfolio.balances where balance.rate == 0 {
                let pair = portfolio.conversion.rateSource(of: balance.currency).map { universe.instruments[$0.instrument].symbol }
                let rate = rates[balance.currency] ?? 0
                reconciliationNote(
                    .warning,
                    "no price of \(pair?.rawValue ?? "\(balance.currency)'s pair") yet (none in the warm-up): \(balance.currency) "
                        + (rate > 0 ? "converts at the run before's rate, \(rate)," : "counts as nothing") + " until its first bar",
                    &out)
            }
            restoreSettlements(fills, symbols: symbols, &out)
            let foreign = engine.portfolio.balances.map { "\($0.cash.centsDescription) \($0.currency)" }
            let text =
                "engine cash \(engine.portfolio.cash.centsDescription)"
                + (foreign.isEmpty ? "" : " (\(engine.portfolio.homeCash.centsDescription) "
                    + "\(engine.portfolio.conversion.accountCurrency) and \(foreign.joined(separator: ", ")))")
                + " restored from the checkpoint of run "
                + "\(saved.run.map(String.init) ?? "?") and \(outcome.fillsApplied) fills journaled since "
                + "(configured capital minus the adopted positions would be \(adopted.centsDescription))"
            reconciliationNote(.notice, text, &out)
            for adjustment in outcome.adjustments { reconciliationNote(.warning, "cash restore: \(adjustment)", &out) }
            restoreRealizedPnL(&out)
            if let latest, latest.runKey != key.fingerprint {
                // Another strategy of the account journals here too, or the checkpoint predates run keys.
                let owner = latest.runKey.map { "another configuration (\($0))" } ?? "no configuration (pre-v3)"
                out.log(.info, "the account's latest cash checkpoint belongs to \(owner); restored this one's")
            }
        } else if let latest {
            let text =
                "run configuration changed: the account's cash checkpoints belong to "
                + "\(latest.runKey ?? "?") (run \(latest.run.map(String.init) ?? "?")), this run is "
                + "\(key.fingerprint); engine cash starts fresh at the configured capital minus the adopted "
                + "positions (\(engine.portfolio.cash.centsDescription)), daily-loss and drawdown baselines "
                + "start fresh"
            reconciliationNote(.warning, text, &out)
        }
        restoreRiskState(checkpoint, key: key, &out)
        let last = journal.fills.map(\.sequence).max() ?? 0
        var held: [Symbol: Quantity] = [:]
        for id in ids where !engine.portfolio.position(for: id).isFlat {
            held[universe[id].symbol] = engine.portfolio.position(for: id).quantity
        }
        let home = engine.portfolio.conversion.accountCurrency
        var commissions = CashRestore.fillCommissions(fills, upTo: last, account: account, universe: symbols)
        var saved = JournalCashCheckpoint(
            time: dataTime, account: account, run: run?.number, cash: engine.portfolio.homeCash,
            commissions: engine.portfolio.commissions, fillCheckpoint: last,
            fillCommissions: commissions.removeValue(forKey: home) ?? .zero, positions: held)
        if engine.portfolio.hasForeign {
            saved.foreignCash = engine.portfolio.foreignCash
            saved.foreignFillCommissions = commissions
            saved.foreignRates = engine.portfolio.foreignRates
        }
        out.append(.journal(.cashCheckpoint(saved, runKey: key.fingerprint)))
    }

    /// T+N: the proceeds of the run before's sales that have not settled yet (its sells within the last
    /// `settlementDays` business days, from the journal) are unsettled again, as the broker still holds them. A
    /// future's sale has no proceeds to settle (its price is never paid).
    private mutating func restoreSettlements(_ fills: [JournalFill], symbols: Set<Symbol>, _ out: inout Actions) {
        guard engine.portfolio.settlementDays > 0 else { return }
        let sales = fills.filter {
            $0.side == .sell && symbols.contains($0.symbol) && ($0.account ?? account) == account
                && InstrumentKind(symbol: $0.symbol).paysNotional
        }
            .map { fill in
                // Proceeds in another currency count at its latest rate, as a fill's do (`Portfolio.apply`).
                let rate = universe.id(of: fill.symbol).map { engine.portfolio.rate(for: $0) } ?? 1
                let proceeds = Money(price: fill.price, quantity: fill.quantity) - (fill.commission ?? .zero)
                return (time: fill.time, proceeds: proceeds.converted(at: rate))
            }
        let unsettled = engine.restoreSettlements(sales: sales, at: dataTime)
        guard unsettled.units != 0 else { return }
        reconciliationNote(
            .notice,
            "unsettled proceeds \(unsettled.centsDescription) restored (sales of the last "
                + "\(engine.portfolio.settlementDays) business days, T+\(engine.portfolio.settlementDays)): settled cash "
                + "\(engine.portfolio.settledCash.centsDescription)", &out)
    }

    /// The realized-P&L total the restored books imply (`EngineCore.restoreRealizedPnL`), logged and journaled.
    private mutating func restoreRealizedPnL(_ out: inout Actions) {
        let total = engine.restoreRealizedPnL()
        let text =
            "realized P&L \(total.centsDescription) before commissions (commissions "
            + "\(engine.portfolio.commissions.centsDescription)) "
            + "restored: cash + the positions at their average cost − the configured capital + commissions"
        reconciliationNote(.notice, text, &out)
    }

    /// The risk baseline of the run before with the same `RunKey` into the engine (day start, peak, halts), logged,
    /// then journaled as this run's first row.
    private mutating func restoreRiskState(_ journal: JournalRestartData, key: RunKey, _ out: inout Actions) {
        let saved = journal.riskState
        engine.restore(risk: saved.map(RiskStateRestore.baseline), at: dataTime)
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
        reconciliationNote(.notice, text, &out)
        if let halts = RiskStateRestore.halts(baseline) {
            reconciliationNote(.warning, "entries halted after the restart: \(halts)", &out)
        }
        if saved == nil, let other = journal.latestRiskState, other.runKey != key.fingerprint,
            let halts = RiskStateRestore.halts(RiskStateRestore.baseline(other))
        {
            let note =
                "the account's latest risk state (configuration \(other.runKey), run "
                + "\(other.run.map(String.init) ?? "?")) had halted entries (\(halts)); this configuration "
                + "(\(key.fingerprint)) starts with its own, fresh baseline"
            reconciliationNote(.warning, note, &out)
        }
        out.append(.journal(.riskState(RiskStateRestore.row(baseline, account: account, key: key, run: run?.number, at: dataTime))))
        journaledRisk = baseline
    }

    /// Today's order-efficiency counts from the journal into the desk, before anything is sent.
    mutating func restoreOrderEfficiency(_ journal: JournalRestartData, _ out: inout Actions) {
        let day = dataTime.dayNumber
        let counts = OrderEfficiencyRestore.merge(activity: journal.orderActivity, saved: journal.orderEfficiency, day: day)
        guard counts.submitted + counts.modified + counts.cancelled + counts.executed > 0 else { return }
        desk.restoreEfficiency(day: day, counts: counts)
        out.log(.notice, "restored from the journal: \(desk.efficiency.summary)")
    }

    /// On the tick and at stop: the risk baseline when a halt changed or the day turned (at once) or anything
    /// changed (`periodic`), and the order-efficiency counts when `periodic` and changed.
    mutating func journalRestartState(periodic: Bool, _ out: inout Actions) {
        guard settings.journaled else { return }
        if let baseline = engine.riskMonitor.baseline,
            RiskStateRestore.mustRecord(baseline, last: journaledRisk, periodic: periodic)
        {
            out.append(
                .journal(
                    .riskState(
                        RiskStateRestore.row(
                            baseline, account: account, key: settings.runKey, run: run?.number, at: dataTime))))
            journaledRisk = baseline
        }
        guard periodic else { return }
        let efficiency = desk.efficiency
        guard efficiency.day != .min else { return }
        let row = JournalOrderEfficiency(
            time: dataTime, account: account, day: efficiency.day, submitted: efficiency.submitted,
            modified: efficiency.modified, cancelled: efficiency.cancelled, executed: efficiency.executed)
        var comparable = row
        comparable.time = journaledEfficiency?.time ?? dataTime
        guard comparable != journaledEfficiency else { return }
        out.append(.journal(.orderEfficiency(row)))
        journaledEfficiency = row
    }

    /// A line of the restart that is logged and journaled as a `reconciliation` event.
    func reconciliationNote(_ level: Logger.Level, _ text: String, _ out: inout Actions) {
        out.log(level, text)
        out.append(journalEvent(.reconciliation, text))
    }

    /// Orders of ours open at the broker that no journal intent knows: rebuilt from the wire, restored into the
    /// engine and followed under their orderRef like adopted known orders, journaled as intents, then kept
    /// (`adopt`) or cancelled (`cancel`). Orders whose terms cannot be rebuilt are left alone.
    mutating func handleUnknownOrders(_ restart: RestartPlan, snapshot: BrokerSnapshot, _ out: inout Actions) {
        for stray in restart.plan.unknownOpenOrders {
            guard var request = stray.request, request.instrument.index < universe.count else {
                out.log(
                    .warning,
                    "unknown order of ours \(stray.orderRef) (id \(stray.brokerOrderID)): terms not rebuilt (instrument outside the universe or unsupported); left alone")
                continue
            }
            request.clientOrderID = ClientOrderID(stray.orderRef)
            var seen: Set<String> = []
            let executions = snapshot.executions.filter {
                ($0.orderRef == stray.orderRef || (stray.permID != 0 && $0.permID == stray.permID))
                    && seen.insert($0.executionID).inserted
            }
            let filled = executions.reduce(Quantity.zero) { $0 + $1.quantity }
            guard filled < request.quantity,
                let order = engine.restore(
                    order: RestoredOrder(
                        request: request, stage: .working, filledQuantity: filled,
                        averageFillPrice: Self.averagePrice(executions.map { ($0.price, $0.quantity) }, filled: filled)),
                    at: dataTime)
            else { continue }
            do throws(IBMappingError) {
                try desk.adopt(
                    order, brokerOrderID: stray.brokerOrderID, permID: stray.permID, orderRef: stray.orderRef,
                    appliedExecutions: executions.map(\.executionID), at: dataTime)
            } catch {
                out.log(.error, "could not follow unknown order \(stray.orderRef): \(error)")
                continue
            }
            let symbol = universe[request.instrument].symbol
            let terms = "\(request.side) \(request.quantity) \(symbol) \(request.type) \(request.timeInForce)"
            let action = settings.unknownOrders == .adopt ? "adopted" : "cancelling it"
            let text =
                "\(stray.orderRef): open at the broker (id \(stray.brokerOrderID), client \(stray.clientID)), unknown "
                + "to the journal, rebuilt as \(terms) with \(filled) filled: \(action)"
            out.log(.warning, "reconciliation: \(text)")
            if settings.journaled {
                out.append(
                    .journal(
                        .intent(
                            JournalIntent(
                                orderRef: ClientOrderID(stray.orderRef), symbol: symbol, request: request,
                                createdAt: dataTime))))
                var update = JournalStatusUpdate(orderRef: ClientOrderID(stray.orderRef), state: order.state, time: dataTime)
                update.brokerOrderID = Int64(stray.brokerOrderID)
                update.permID = stray.permID
                update.message = "unknown order adopted at start"
                out.append(.journal(.status(update)))
                out.append(journalEvent(.reconciliation, text))
            }
            if settings.unknownOrders == .cancel { carryOut(.cancel(order.id), &out) }
        }
    }
}
