import JournalModel
import LiveSession
import Logging
import Storage
import TradingModel

/// The driver's journal: carries the core's `JournalWrite`s out on the `OrderJournal`, reads what a restart needs,
/// and says what failed (the core stops sending new orders on a failed write).
struct SessionJournal: Sendable {
    /// The journal file.
    let journal: OrderJournal
    /// The symbol of each instrument (the journal stores symbols).
    let universe: Universe
    let logger: Logger
    /// The execIds known to be journaled: the broker's execution list writes only new ones.
    var journaledExecutions = JournaledExecutions()
    /// When the WAL was last checkpointed (the core asks on every tick).
    private var checkpointPace = ProcessPace()

    init(journal: OrderJournal, universe: Universe, logger: Logger) {
        self.journal = journal
        self.universe = universe
        self.logger = logger
    }

    /// The intents adapter, stamping rows with `time` (the core's data time).
    private func intents(at time: Timestamp) -> OrderJournalIntents {
        OrderJournalIntents(journal: journal, universe: universe, clock: { time })
    }

    /// Journals a group's intents (before the send, and again as sent or rejected).
    /// - Returns: the failure, or `nil`.
    func writeIntents(_ group: [JournaledIntent], at time: Timestamp) -> String? {
        do {
            try intents(at: time).write(group)
            return nil
        } catch {
            logger.error("journal: \(error)")
            return "\(error)"
        }
    }

    /// Carries one write out.
    /// - Returns: the failure, or `nil`.
    mutating func write(_ write: JournalWrite) -> String? {
        do {
            switch write {
            case .status(let update):
                _ = try journal.recordStatus(update)
            case .execution(let execution, let commission):
                if case .conflict(let text) = try intents(at: execution.time).recordFill(execution, commission: commission) {
                    logger.critical("ALERT: journal: \(text)")
                }
            case .commission(let executionID, let commission, let time):
                try intents(at: time).recordCommission(executionID: executionID, commission, at: time)
            case .executions(let snapshot, let time):
                let added = try journaledExecutions.record(executions(snapshot, at: time), into: journal, at: time)
                if added > 0 { logger.info("journaled \(added) executions from the broker's list") }
                for text in journaledExecutions.conflicts { logger.critical("ALERT: journal: \(text)") }
            case .event(let kind, let message, let time):
                try journal.recordEvent(kind, message, at: time)
            case .positions(let positions, let time):
                try journal.recordPositions(positions, at: time)
            case .intent(let intent):
                try journal.recordIntent(intent)
            case .modification(let change):
                try journal.recordModification(change)
            case .cashCheckpoint(let checkpoint, let runKey):
                try journal.recordCashCheckpoint(checkpoint, runKey: runKey)
            case .riskState(let state):
                try journal.recordRiskState(state)
            case .orderEfficiency(let counts):
                try journal.recordOrderEfficiency(counts)
            case .checkpoint:
                guard journal.checkpoints == .manual else { return nil }
                guard checkpointPace.isDue else { return nil }
                checkpointPace.mark()
                do { try journal.checkpoint() } catch {
                    // A checkpoint that fails is retried on the next tick; the writes themselves are in the WAL.
                    logger.warning("journal checkpoint: \(error)")
                }
            }
            return nil
        } catch {
            logger.error("journal: \(error)")
            return "\(error)"
        }
    }

    /// The broker's executions as journal rows, with their commissions.
    private func executions(_ snapshot: BrokerSnapshot, at now: Timestamp) -> [OrderJournal.Execution] {
        snapshot.executions.map { execution in
            let index = execution.instrument.index
            let symbol = index >= 0 && index < universe.count ? universe[execution.instrument].symbol : "?"
            var fill = JournalFill(
                execID: execution.executionID, symbol: symbol, side: execution.side, quantity: execution.quantity,
                price: execution.price, time: execution.time)
            fill.orderRef = execution.orderRef.isEmpty ? nil : ClientOrderID(execution.orderRef)
            fill.brokerOrderID = Int64(execution.brokerOrderID)
            fill.permID = execution.permID
            fill.account = execution.account
            fill.contract = execution.contract
            // insertFill joins commissions recorded earlier; a known one is joined right after its fill.
            let commission = snapshot.commissions[execution.executionID].map {
                JournalCommission(execID: execution.executionID, commission: $0, time: now)
            }
            return OrderJournal.Execution(fill: fill, commission: commission)
        }
    }

    /// What a restart needs, in one read.
    func restartData(account: String, runKey: String, day: Int64) throws -> JournalRestartData {
        var data = JournalRestartData()
        data.orders = try journal.orders()
        data.fills = try journal.fills()
        data.latestPositions = try journal.latestPositions()?.positions ?? []
        data.latestCheckpointKey = try journal.latestCashCheckpointKey(account: account).map {
            JournalCheckpointKey(runKey: $0.runKey, run: $0.run)
        }
        data.cashCheckpoint = try journal.latestCashCheckpoint(account: account, runKey: runKey)
        data.riskState = try journal.latestRiskState(account: account, runKey: runKey)
        data.latestRiskState = try journal.latestRiskState(account: account, runKey: nil)
        data.orderActivity = try journal.orderActivity(onDay: day, account: account)
        data.orderEfficiency = try journal.latestOrderEfficiency(account: account, day: day)
        data.uncleanStop = Self.uncleanStop(try journal.events(kind: .lifecycle))
        return data
    }

    /// The last run of the journal when no stop follows its start (`run 3 (started 2026-11-24T09:30:00Z)`).
    static func uncleanStop(_ events: [JournalEvent]) -> String? {
        guard let start = events.lastIndex(where: { $0.message.hasPrefix("run ") && $0.message.contains(" started") })
        else { return nil }
        let stopped = events[(start + 1)...].contains { $0.message.hasPrefix("stopped") || $0.message.hasPrefix("fast stop") }
        guard !stopped else { return nil }
        let run = events[start].message.prefix { $0 != ":" }.replacingOccurrences(of: " started", with: "")
        return "\(run) (started \(events[start].time))"
    }
}
