import Foundation
import Logging
import Storage
import TradingEngine
import TradingModel

/// What the runner's event loop and the synchronous bar path (`LiveBarPath`) share: the engine and the bar
/// bookkeeping.
///
/// Why a class behind a lock: the loop owns it between its `await`s, and the bar path takes it for a whole bar on the
/// connection's actor while the loop waits (`RunnerInbox.claim`). The lock is recursive because the bar path holds it
/// for the bar while the helpers below take it again; `Session` reaches every field through it, one access at a time.
final class SessionCore<S: Strategy>: @unchecked Sendable {
    let lock = NSRecursiveLock()
    var engine: EngineCore<S>
    /// The latest bar time per instrument (bars already seen are skipped).
    var lastBarTime: [Timestamp]
    /// The latest closed slice.
    var lastClosed = Timestamp.zero
    /// Live bars handled.
    var bars = 0
    /// Of those, handled on arrival by the synchronous bar path.
    var barsOnArrival = 0
    /// Engine commands carried out.
    var commands = 0
    /// Risk denials logged so far (`engine.denials` grows; new ones are logged once).
    var denialsLogged = 0
    /// Rehearsals run (`LiveBarPath.rehearse`); also picks the instrument of the next one.
    var rehearsals = 0
    /// The last rehearsed bar frame per instrument index: encoding it is the gateway's work, not the bot's, so a
    /// rehearsal encodes a bar once and only decodes it again.
    var rehearsalFrames: [Int: RehearsalFrame] = [:]
    /// Bars handled on arrival that sent orders: bytes received (by the kernel where known) → order frame handed
    /// to the kernel.
    var tickToOrder = TickToOrderLatency()
    /// The same bars from the bot's read of their bytes.
    var readToOrder = TickToOrderLatency()
    /// The same bars' kernel receive time → the bot's read (only where the kernel's time is known).
    var socketWait = TickToOrderLatency()
    /// The same bars' previous empty read → their read: a bound on how long the bytes waited for the bot.
    var pollDelay = TickToOrderLatency()

    init(engine: EngineCore<S>, instruments: Int) {
        self.engine = engine
        lastBarTime = Array(repeating: .zero, count: instruments)
    }

    /// Whether a live engine event is new (bars already seen — warm-up overlap, a resubscription after a
    /// reconnect — are skipped); a new bar advances the runner's time.
    func accept(_ event: EngineEvent, time: RunnerTime) -> Bool {
        lock.withLock {
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
    }

    /// After an event and its commands: the observer, then any new risk denials logged (and journaled).
    /// - Parameter quiet: denials at `info` (a back-fill, where the strategy acts on history) instead of `warning`.
    func finish(
        _ event: EngineEvent, observer: (@Sendable (EngineEvent, Int) -> Void)?, journal: OrderJournal?,
        universe: Universe, logger: Logger, quiet: Bool
    ) {
        lock.withLock {
            observer?(event, engine.orders.openOrderCount)
            let denials = engine.denials
            while denialsLogged < denials.count {
                let record = denials[denialsLogged]
                logger.log(
                    level: quiet ? .info : .warning,
                    "risk denial: order \(record.orderID) \(universe[record.instrument].symbol): \(record.denial)")
                if let journal {
                    try? journal.recordEvent(.riskDenial, "\(record.orderID): \(record.denial)", at: record.time)
                }
                denialsLogged += 1
            }
        }
    }

    /// The log line of a command, written after it was carried out (at the default info level its formatting and
    /// the write would otherwise sit between the bar and the order frame).
    static func log(_ command: EngineCommand, failure: IBBrokerError?, universe: Universe, logger: Logger) {
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

// The session's view of the core: each access under the core's lock (never across an `await`).
extension Session {
    var engine: EngineCore<S> {
        _read {
            core.lock.lock()
            defer { core.lock.unlock() }
            yield core.engine
        }
        nonmutating _modify {
            core.lock.lock()
            defer { core.lock.unlock() }
            yield &core.engine
        }
    }

    var lastBarTime: [Timestamp] {
        get { core.lock.withLock { core.lastBarTime } }
        nonmutating set { core.lock.withLock { core.lastBarTime = newValue } }
    }

    var lastClosed: Timestamp {
        get { core.lock.withLock { core.lastClosed } }
        nonmutating set { core.lock.withLock { core.lastClosed = newValue } }
    }

    var bars: Int {
        get { core.lock.withLock { core.bars } }
        nonmutating set { core.lock.withLock { core.bars = newValue } }
    }

    var commands: Int {
        get { core.lock.withLock { core.commands } }
        nonmutating set { core.lock.withLock { core.commands = newValue } }
    }

    var denialsLogged: Int {
        get { core.lock.withLock { core.denialsLogged } }
        nonmutating set { core.lock.withLock { core.denialsLogged = newValue } }
    }
}
