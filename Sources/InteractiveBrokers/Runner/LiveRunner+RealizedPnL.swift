import Storage
import TradingEngine
import TradingModel

// The engine's realized-P&L total across a restart (docs/live-trading.md, start-up step 5).
extension Session {
    /// After the cash restore of a known configuration: the realized-P&L total the restored books imply
    /// (`EngineCore.restoreRealizedPnL`), logged and journaled.
    ///
    /// **Decision.** Derived, not persisted: cash (the checkpoint plus every fill journaled since, each journaled by
    /// execId as it arrives), the commission total and the positions at the broker's average cost are what a
    /// restart already restores after a clean stop or a `kill -9`, and realized = cash + cost basis − starting
    /// capital + commissions holds for average-cost books. A value saved with the checkpoints would lag by the
    /// fills after the last checkpoint (a restart writes one; a kill -9 loses nothing here).
    mutating func restoreRealizedPnL(_ journal: OrderJournal, at now: Timestamp) {
        let total = engine.restoreRealizedPnL()
        let text =
            "realized P&L \(total.centsDescription) before commissions (commissions "
            + "\(engine.portfolio.commissions.centsDescription)) "
            + "restored: cash + the positions at their average cost − the configured capital + commissions"
        logger.notice("\(text)")
        do { try journal.recordEvent(.reconciliation, text, at: now) } catch {
            logger.error("journal (realized P&L): \(error)")
        }
    }
}
