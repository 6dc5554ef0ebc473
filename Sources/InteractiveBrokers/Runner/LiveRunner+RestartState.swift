import Foundation
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

// What a restart restores beyond orders: the run's orderRef namespace and the engine's cash.
extension Session {
    /// The orderRef namespace of this run. With a journal: `IBT:R<run>:`, the run number allocated by the journal
    /// above every earlier run of it and above every run number the broker still shows in open or completed
    /// orders and executions (so a new or lost journal cannot reuse a namespace either). Without one:
    /// `IBT:T<epoch ms>-<pid>:`. A prefix other than the default `IBT:` in the configuration is used as given.
    /// - Throws: `LiveRunnerError.startup` when the broker or the journal cannot be asked.
    mutating func allocateNamespace(_ connection: TWSConnection) async throws -> OrderReference {
        guard configuration.reference.prefix == OrderReference.base else { return configuration.reference }
        guard let journal = configuration.journal else {
            let reference = OrderReference.unjournaledRun(
                epochMilliseconds: Int64(Date().timeIntervalSince1970 * 1000),
                processID: ProcessInfo.processInfo.processIdentifier)
            logger.info("orderRef namespace \(reference.prefix) (no journal)")
            return reference
        }
        var refs: [String] = []
        do {
            refs += try await connection.allOpenOrders().map(\.order.orderRef)
            refs += try await connection.completedOrderList().map(\.order.orderRef)
            refs += try await connection.executions().map(\.execution.orderRef)
        } catch {
            throw LiveRunnerError.startup("orders and executions for the run's orderRef namespace: \(error)")
        }
        let floor = RunNamespace.highestRun(in: refs) + 1
        let run: JournalRun
        do { run = try journal.beginRun(at: time.now(), account: account, floor: floor) } catch {
            throw LiveRunnerError.startup("journal: \(error)")
        }
        self.run = run
        let reference = OrderReference.run(run.number)
        logger.info("run \(run.number): orderRefs \(reference.prefix)…")
        try? journal.recordEvent(.lifecycle, "run \(run.number) started: orderRefs \(reference.prefix)", at: time.now())
        return reference
    }

    /// The run configuration's key for cash checkpoints and risk baselines (`RunKey`).
    var runKey: RunKey {
        RunKey(strategyType: S.self, symbols: configuration.symbols, capital: configuration.engine.initialCash)
    }

    /// After the positions are adopted (`restorePositions`, which pays for them from the configured capital): sets
    /// the engine's cash to what the run before with the same `RunKey` had — that key's latest journal checkpoint
    /// plus the fills journaled after it (`CashRestore`) — then its risk baseline (`restoreRiskState`), then writes
    /// a new keyed checkpoint of the engine's cash at the journal's last fill, so the next restart starts from
    /// here. The first run of a key (a first run, or a changed strategy, universe or capital: said in the log and
    /// the journal) keeps the configured capital minus the adopted positions' cost and fresh risk baselines.
    mutating func restoreCash(_ snapshot: BrokerSnapshot) {
        guard let journal = configuration.journal else { return }
        let key = runKey
        let symbols = Set(ids.map { universe[$0].symbol })
        var positions: [Symbol: Quantity] = [:]
        var costs: [Symbol: Price] = [:]
        for (id, quantity) in snapshot.positions where id.index >= 0 && id.index < universe.count {
            positions[universe[id].symbol] = quantity
            if let cost = snapshot.averageCosts[id] { costs[universe[id].symbol] = cost }
        }
        do {
            let fills = try journal.fills()
            let now = time.now()
            let latest = try journal.latestCashCheckpointKey(account: account)
            if let checkpoint = try journal.latestCashCheckpoint(account: account, runKey: key.fingerprint) {
                let adopted = engine.portfolio.cash
                let outcome = CashRestore.restore(
                    checkpoint: checkpoint, fills: fills, account: account, universe: symbols,
                    brokerPositions: positions, averageCosts: costs)
                engine.restore(cash: outcome.cash, commissions: outcome.commissions, at: now)
                let text =
                    "engine cash \(outcome.cash.centsDescription) restored from the checkpoint of run "
                    + "\(checkpoint.run.map(String.init) ?? "?") and \(outcome.fillsApplied) fills journaled since "
                    + "(configured capital minus the adopted positions would be \(adopted.centsDescription))"
                logger.notice("\(text)")
                try journal.recordEvent(.reconciliation, text, at: now)
                for adjustment in outcome.adjustments {
                    logger.warning("cash restore: \(adjustment)")
                    try journal.recordEvent(.reconciliation, "cash restore: \(adjustment)", at: now)
                }
                restoreRealizedPnL(journal, at: now)  // LiveRunner+RealizedPnL.swift
                if let latest, latest.runKey != key.fingerprint {
                    // Another strategy of the account journals here too, or the checkpoint predates run keys.
                    let owner = latest.runKey.map { "another configuration (\($0))" } ?? "no configuration (pre-v3)"
                    logger.info("the account's latest cash checkpoint belongs to \(owner); restored this one's")
                }
            } else if let latest {
                let text =
                    "run configuration changed: the account's cash checkpoints belong to "
                    + "\(latest.runKey ?? "?") (run \(latest.run.map(String.init) ?? "?")), this run is "
                    + "\(key.fingerprint); engine cash starts fresh at the configured capital minus the adopted "
                    + "positions (\(engine.portfolio.cash.centsDescription)), daily-loss and drawdown baselines "
                    + "start fresh"
                logger.warning("\(text)")
                try journal.recordEvent(.reconciliation, text, at: now)
            }
            restoreRiskState(journal, key: key, at: now)  // LiveRunner+RiskRestore.swift
            let last = fills.map(\.sequence).max() ?? 0
            var held: [Symbol: Quantity] = [:]
            for id in ids where !engine.portfolio.position(for: id).isFlat {
                held[universe[id].symbol] = engine.portfolio.position(for: id).quantity
            }
            try journal.recordCashCheckpoint(
                JournalCashCheckpoint(
                    time: now, account: account, run: run?.number, cash: engine.portfolio.cash,
                    commissions: engine.portfolio.commissions, fillCheckpoint: last,
                    fillCommissions: CashRestore.fillCommissions(
                        fills, upTo: last, account: account, universe: symbols),
                    positions: held),
                runKey: key.fingerprint)
        } catch {
            logger.error("journal (engine cash): \(error)")
        }
    }
}
