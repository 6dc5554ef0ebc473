import Logging
import Storage
import TradingEngine
import TradingModel

// The bar bookkeeping of a session: which live events are new, and what is logged after an event.
extension Session {
    /// Whether a live engine event is new (bars already seen — warm-up overlap, a resubscription after a
    /// reconnect — are skipped); a new bar advances the runner's time.
    mutating func accept(_ event: EngineEvent) -> Bool {
        switch event {
        case .bar(let id, let bar):
            if bar.timestamp <= lastBarTime[id.index] { return false }
            lastBarTime[id.index] = bar.timestamp
            bars += 1
            time.advance(to: bar.timestamp)
        case .barsClosed(let closed):
            if closed <= lastClosed { return false }
            lastClosed = closed
        default:
            break
        }
        return true
    }

    /// After an event and its commands: the observer, then any new risk denials logged (and journaled).
    /// - Parameter quiet: denials at `info` (a back-fill, where the strategy acts on history) instead of `warning`.
    mutating func finish(_ event: EngineEvent, quiet: Bool) {
        configuration.engineEventObserver?(event, engine.orders.openOrderCount)
        let denials = engine.denials
        while denialsLogged < denials.count {
            let record = denials[denialsLogged]
            logger.log(
                level: quiet ? .info : .warning,
                "risk denial: order \(record.orderID) \(universe[record.instrument].symbol): \(record.denial)")
            if let journal = configuration.journal {
                try? journal.recordEvent(.riskDenial, "\(record.orderID): \(record.denial)", at: record.time)
            }
            denialsLogged += 1
        }
    }

    /// The log line of a command, written after it was carried out.
    func log(_ command: EngineCommand, failure: IBBrokerError?) {
        switch command {
        case .submit(let order):
            logger.info("submit \(order.side) \(order.quantity) \(universe[order.instrument].symbol) \(order.type) (\(order.clientOrderID))")
        case .submitBracket(let parent, let children):
            logger.info("submit bracket \(parent.side) \(parent.quantity) \(universe[parent.instrument].symbol) with \(children.count) children")
        case .cancel(let id):
            logger.info("cancel order \(id)")
        case .modify(let id, let change, _):
            logger.info("modify order \(id): \(change)")
        }
        if let failure { logger.error("command failed: \(failure)") }
    }
}
