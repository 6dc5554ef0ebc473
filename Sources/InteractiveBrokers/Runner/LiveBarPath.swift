import Logging
import Storage
import TWSClient
import TradingEngine
import TradingModel

/// The synchronous bar → order path: a bar handled where the connection routes it, on the connection's actor — the
/// engine's step, the intents journaled, the orders tracked and their frames written to the socket — with no task
/// wake-up or actor hop between the bar's frame and the orders' (docs/live-trading.md, Latency).
///
/// It only acts while the event loop waits with nothing queued (`RunnerInbox.claim`): the bar is then the loop's
/// next input anyway, so the order of events is the loop's. Otherwise (the loop is busy, e.g. suspended in a broker
/// call, a back-fill or a reconnect) the bar is queued for the loop as before. It runs exactly the loop's steps
/// (`SessionCore.accept`, `EngineCore.handle`, `IBBroker.executeNow`, `SessionCore.finish`).
final class LiveBarPath<S: Strategy>: Sendable {
    struct Context: Sendable {
        var universe: Universe
        var logger: Logger
        var journal: OrderJournal?
        var observer: (@Sendable (EngineEvent, Int) -> Void)?
        var time: RunnerTime
        var activity: InboundActivity
    }

    let core: SessionCore<S>
    private let inbox: RunnerInbox
    let broker: IBBroker
    let connection: TWSConnection
    private let context: Context
    private let enabled: Bool

    /// - Parameter enabled: `false`: every event is queued for the loop.
    init(
        core: SessionCore<S>, inbox: RunnerInbox, broker: IBBroker, connection: TWSConnection, context: Context,
        enabled: Bool
    ) {
        self.core = core
        self.inbox = inbox
        self.broker = broker
        self.connection = connection
        self.context = context
        self.enabled = enabled
    }

    /// Takes a feed event (`IBMarketDataFeed`'s `deliver`, called on the connection's actor as the bar is routed).
    func deliver(_ event: IBMarketDataEvent) {
        guard enabled, let engineEvent = event.engineEvent else {
            inbox.yield(.market(event))
            return
        }
        core.lock.lock()
        defer { core.lock.unlock() }
        guard inbox.claim() else {
            inbox.yield(.market(event))
            return
        }
        defer { inbox.release() }
        context.activity.mark(inbound: true)  // as the loop marks its inputs (heartbeat and watchdog evidence)
        let wire = connection.wireClock
        let receivedAt = connection.routedChunkReadStamps
        let sendsBefore = wire?.lastSendStarted ?? 0
        guard core.accept(engineEvent, time: context.time) else { return }
        if case .bar = engineEvent { core.barsOnArrival += 1 }
        let commands = core.engine.handle(engineEvent)
        var sent: [IBBroker.SentGroup] = []
        var failures: [IBBrokerError?] = []
        for command in commands {
            core.commands += 1
            // The feed calls `deliver` from the connection's routing, so this is the connection's actor.
            let outcome = connection.assumeIsolated { connection in
                Result { () throws(IBBrokerError) -> IBBroker.SentGroup? in
                    try broker.executeNow(command, on: connection)
                }
            }
            switch outcome {
            case .success(let group):
                if let group { sent.append(group) }
                failures.append(nil)
            case .failure(let error):
                failures.append(error)
            }
        }
        if let wire, receivedAt.read > 0, !sent.isEmpty {
            // The bar's bytes received → the last of its order frames handed to the kernel here (frames the rate
            // limiter holds are not waited for; a bar none of whose frames left is not counted).
            let handed = wire.lastSendStarted
            if handed != sendsBefore, handed >= receivedAt.read {
                core.readToOrder.record(nanoseconds: handed - receivedAt.read)
                // From the kernel's receive time where the transport has it (busy-poll on Linux): a bar whose bytes
                // waited in the socket while the thread was busy counts the wait.
                let stamped = (1...receivedAt.read).contains(receivedAt.arrived)
                let arrived = stamped ? receivedAt.arrived : receivedAt.read
                core.tickToOrder.record(nanoseconds: handed - arrived)
                if stamped { core.socketWait.record(nanoseconds: receivedAt.read - arrived) }
                if (1...receivedAt.read).contains(receivedAt.emptyReadStarted) {
                    core.pollDelay.record(nanoseconds: receivedAt.read - receivedAt.emptyReadStarted)
                }
            }
        }
        // Everything of the bar left: now the bookkeeping (journal `sent` marks, log lines, denials).
        for group in sent { broker.noteSent(group) }
        for (command, failure) in zip(commands, failures) {
            SessionCore<S>.log(command, failure: failure, universe: context.universe, logger: context.logger)
        }
        core.finish(
            engineEvent, observer: context.observer, journal: context.journal, universe: context.universe,
            logger: context.logger, quiet: false)
    }
}
