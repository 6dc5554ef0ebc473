import Foundation
import LiveSession
import Logging
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// The I/O around a `LiveSessionCore`: one loop takes the inputs in arrival order (answers, bars, order messages,
/// connection changes, ticks, stop requests), hands each to the core with the injected clock's time, and carries
/// the actions out in order — the socket (through `TWSConnection`), the journal, the feeds, the timers. It decides
/// nothing: every decision is the core's, so a session can be re-run offline from its recorded inputs.
struct SessionDriver<S: Strategy> {
    let configuration: LiveRunnerConfiguration
    let venue: SessionVenue
    let logger: Logger
    var core: LiveSessionCore<S>
    let inbox = SessionInbox()
    let tasks = SessionTasks()
    var journal: SessionJournal?
    /// The session log in the journal (`nil` without a journal, or when it could not be started).
    var recorder: SessionRecorder?
    let activity = InboundActivity()
    /// The current connection, and the ones being opened, by generation.
    var connection: TWSConnection?
    let connections = ConnectionSlots()
    var generation = 0
    var crashHits = 0
    /// Bar → order and journal-write times, for the operator (`SessionStatus.latency`).
    var latency = SessionStatus.Latency()
    /// When the bar being handled was taken from the inbox (`nil` while handling anything else).
    var barTakenAt: ContinuousClock.Instant?
    /// The last journal write failed (the next success is reported as `.journalWritable`).
    var journalFailing = false
    /// With ticks `whenDue`: the pending tick's timer and when it fires, and how many timers were made.
    var tickTimer: (tag: SessionTag, at: Timestamp)?
    var tickTimers = 0

    init(
        strategy: S, configuration: LiveRunnerConfiguration, venue: SessionVenue, logger: Logger,
        ticket: SessionTicket? = nil
    ) {
        self.configuration = configuration
        self.venue = venue
        self.logger = logger
        var settings = configuration.session
        settings.strategyName = RunKey(strategyType: S.self, symbols: [], capital: .zero).strategy
        settings.processID = ProcessInfo.processInfo.processIdentifier
        settings.journaled = configuration.journal != nil
        let startedAt = configuration.clock.now()
        core = LiveSessionCore(strategy: strategy, settings: settings, now: startedAt, ticket: ticket)
        journal = configuration.journal.map {
            SessionJournal(journal: $0, universe: Universe(symbols: configuration.session.symbols), logger: logger)
        }
        // A ticket session leaves no session log: `ibtrader replay` re-runs strategies.
        if let journal = configuration.journal, ticket == nil {
            recorder = SessionRecorder(
                journal: journal, settings: settings, strategy: configuration.strategyRecord,
                startedAt: startedAt, logger: logger)
        }
    }

    /// The session's clock (`configuration.clock`).
    private func now() -> Timestamp { configuration.clock.now() }

    /// Runs the session until the core finishes it.
    /// - Throws: `LiveRunnerError` when the run cannot start; a connection error of the first connect.
    mutating func run(stop: AsyncStream<String>?) async throws -> LiveRunSummary {
        let (inbox, clock) = (self.inbox, configuration.clock)
        let watchdog = LoopWatchdog.start(
            watching: activity, timeout: configuration.stuckLoopTimeout, observer: configuration.connectivityObserver,
            logger: logger)
        defer { watchdog?.stop() }
        let link = configuration.operatorLink
        link?.attach { inbox.yield($0) }
        defer { link?.detach() }
        // A discarding group: a finished task (a request, a timer) leaves nothing behind; a week of the sandbox makes
        // hundreds of thousands of them. Its tasks throw nothing (a cancelled wait just ends).
        let result = await withDiscardingTaskGroup(returning: Result<LiveRunSummary, any Error>.self) { group in
            if let stop {
                // Listened to from the start: a stop during the start-up ends its waits at once.
                group.addTask { for await reason in stop { inbox.yield(.stop(reason)) } }
            }
            if case .everySecond = configuration.ticks {
                group.addTask {
                    while !Task.isCancelled {
                        do { try await clock.sleep(for: .seconds(1)) } catch { return }
                        inbox.yield(.tick)
                    }
                }
            }
            if let duration = configuration.duration {
                group.addTask {
                    do { try await clock.sleep(for: duration) } catch { return }
                    inbox.yield(.stop("duration \(Heartbeat.text(duration)) elapsed"))
                }
            }
            var outcome: Result<LiveRunSummary, any Error>?
            inbox.yield(.start)
            var inputs = inbox.stream.makeAsyncIterator()
            // A stop `configuration.stopAfter` asks for, taken before any later input.
            var injected: SessionInput?
            while outcome == nil {
                let next: SessionInput?
                if let stop = injected {
                    (next, injected) = (stop, nil)
                } else {
                    next = await inputs.next()
                }
                guard let input = next else { break }
                activity.mark(inbound: input.isInbound)
                if case .connected(let ready) = input, let candidate = connections.take(ready.generation) {
                    connection = candidate
                }
                let time = now()
                if case .market = input { barTakenAt = .now } else { barTakenAt = nil }
                let phaseBefore = core.phase
                let actions = core.handle(input, at: time)
                let heldCancels = writeIntentsBeforeCancels(actions)
                for action in actions where outcome == nil {
                    if case .cancelOrder(let id) = action, heldCancels.contains(id) {
                        inbox.yield(.orderRequestFailed(
                            brokerOrderID: id, cancel: true,
                            "not sent: the journal failed the intent of the order it makes way for"))
                        continue
                    }
                    outcome = await perform(action, &group)
                }
                // Recorded once the actions are out, in batches (`SessionRecorder`): an order is not held back by the
                // replay record (the intent row written before the send is what a restart needs). A crash leaves
                // the session log short of its last second or two, which replay reports as its end.
                switch recorder?.record(input, at: time, actions: actions) {
                case .written: journalOutcome(nil)
                // A failed record of a `.journalFailed` is not reported again: on a full disk each report would lead
                // to the next, a busy loop.
                case .failed(let failure) where !input.isJournalFailure: journalOutcome(failure)
                case .held, .failed, nil: break
                }
                if case .whenDue = configuration.ticks, outcome == nil { scheduleTick(after: input, at: time, &group) }
                if let link {
                    if input.changesStatus { link.publish(await status(at: time), at: time) }
                    link.alert(OperatorAlert.alerts(of: input, actions: actions, phaseBefore: phaseBefore, phaseAfter: core.phase, at: time))
                }
                if outcome == nil, let reason = configuration.stopAfter?(input, actions) { injected = .stop(reason) }
            }
            if let failure = recorder?.flush() { logger.warning("journal: the end of the session log: \(failure)") }
            // A connection the caller opened is the caller's to close.
            if case .transport = venue {
                if let connection { await connection.disconnect() }
                for candidate in connections.takeAll() { await candidate.disconnect() }
            }
            inbox.finish()
            tasks.cancelAll()
            group.cancelAll()
            return outcome ?? .failure(LiveRunnerError.startup("the session's inputs ended"))
        }
        return try result.get()
    }

    /// With ticks `whenDue`: after a tick, the next one when the core has work; after any other input, a second
    /// later (when the wall clock's tick would come) unless one is due sooner. One timer is pending at a time.
    private mutating func scheduleTick(
        after input: SessionInput, at time: Timestamp, _ group: inout DiscardingTaskGroup
    ) {
        if case .tick = input, let pending = tickTimer, pending.at <= time { tickTimer = nil }
        let due = if case .tick = input { core.nextTickDue(after: time) } else { time + .seconds(1) }
        if let pending = tickTimer {
            guard due < pending.at else { return }
            tasks.cancel(pending.tag)
        }
        // Tags below zero are the driver's own (the core's count up from one), one per timer so a cancelled timer's
        // end never removes its successor's signal.
        tickTimers += 1
        let tag = SessionTag(-tickTimers)
        tickTimer = (tag, due)
        let (inbox, clock, delay) = (self.inbox, configuration.clock, due - time)
        spawn(tag, &group) {
            do { try await clock.sleep(for: .nanoseconds(delay.nanoseconds)) } catch { return }
            inbox.yield(.tick)
        }
    }

    /// The core's snapshot with the runner's part: the connection's budgets and the measured latencies.
    private func status(at time: Timestamp) async -> SessionStatus {
        var status = core.status(at: time)
        if let budgets = await connection?.budgets { status.budgets.connection = budgets }
        status.latency = latency
        return status
    }

    /// Tells the core how a journal write went: every failure, and the first success after failures.
    mutating func journalOutcome(_ failure: String?) {
        if let failure {
            journalFailing = true
            inbox.yield(.journalFailed(failure))
        } else if journalFailing {
            journalFailing = false
            inbox.yield(.journalWritable)
        }
    }

    /// Runs a journal write and times it (`latency.journalWrite`).
    mutating func timedJournal<T>(_ write: () -> T) -> T {
        let start = ContinuousClock.now
        defer { record(.journalWrite, seconds: (ContinuousClock.now - start).secondsValue) }
        return write()
    }

    /// A decision that cancels a working order to make way for a new one (a rotation cancels the protective stop,
    /// then sells) must not cancel it when the new order cannot go out: the new orders' intents of the batch are
    /// written before any cancel in it is sent; if that write fails, the batch's cancels are held back (the stop stays
    /// working, the exit is refused as a journal failure). Returns the broker ids whose cancels are held.
    mutating func writeIntentsBeforeCancels(_ actions: [SessionAction]) -> Set<Int> {
        guard let journal, let firstCancel = actions.firstIndex(where: { if case .cancelOrder = $0 { true } else { false } })
        else { return [] }
        let groups = actions[firstCancel...].compactMap { if case .place(let group) = $0 { group } else { nil } }
        guard !groups.isEmpty else { return [] }
        for group in groups {
            guard let failure = timedJournal({ journal.writeIntents(group.intents, at: group.time) }) else { continue }
            journalOutcome(failure)
            return Set(actions.compactMap { if case .cancelOrder(let id) = $0 { id } else { nil } })
        }
        return []
    }

    /// One latency: into the page's histogram and to the observer (`/metrics`).
    mutating func record(_ kind: LatencyKind, seconds: Double) {
        switch kind {
        case .barToOrder: latency.barToOrder.record(seconds: seconds)
        case .journalWrite: latency.journalWrite.record(seconds: seconds)
        }
        configuration.latencyObserver?(kind, seconds)
    }

    /// Carries one action out. Returns the run's outcome once the core finished (or failed) it.
    private mutating func perform(
        _ action: SessionAction, _ group: inout DiscardingTaskGroup
    ) async -> Result<LiveRunSummary, any Error>? {
        switch action {
        case .connect:
            switch venue {
            case .transport(let transport): connect(on: transport, &group)
            case .connection(let adopted, let info): adopt(adopted, info: info, &group)
            }
        case .disconnect(let reason):
            logger.debug("disconnecting: \(reason)")
            if case .transport = venue { await connection?.disconnect() }
            connection = nil
        case .request(let tag, let request):
            performRequest(tag, request, &group)
        case .cancel(let tag):
            tasks.cancel(tag)
        case .subscribeBars(let tag, let subscription, let contracts):
            subscribeBars(tag, subscription, contracts, &group)
        case .subscribeQuotes(let tag, let instruments, let contracts):
            subscribeQuotes(tag, instruments, contracts, &group)
        case .setMarketDataType(let type):
            do { try await connection?.setMarketDataType(type) } catch {
                logger.warning("market data type \(type) not set: \(error)")
            }
        case .place(let group):
            await place(group)
        case .cancelOrder(let id):
            do {
                guard let connection else { throw TWSRequestError.notConnected }
                try await connection.cancelOrder(id)
            } catch {
                inbox.yield(.orderRequestFailed(brokerOrderID: id, cancel: true, "\(error)"))
            }
        case .globalCancel:
            do {
                guard let connection else { throw TWSRequestError.notConnected }
                try await connection.globalCancel()
            } catch {
                logger.error("global cancel not sent: \(error)")
            }
        case .modifyOrder(let id, let terms, let contract):
            do {
                guard let connection else { throw TWSRequestError.notConnected }
                try await connection.modifyOrder(id: id, order: terms, contract: contract)
            } catch {
                inbox.yield(.orderRequestFailed(brokerOrderID: id, cancel: false, "\(error)"))
            }
        case .journal(let write):
            let start = ContinuousClock.now
            if journal != nil {
                let failure = journal?.write(write)
                // A checkpoint's failure is only warned about (the writes are in the WAL), and the broker's execution
                // list may have nothing new to write: neither shows that the journal takes writes again.
                if failure != nil || write.provesWritable { journalOutcome(failure) }
                record(.journalWrite, seconds: (.now - start).secondsValue)
            }
        case .log(let level, let text):
            logger.log(level: level, "\(text)")
        case .milestone(.runner(let milestone)):
            configuration.observer?(milestone)
        case .milestone(.connectivity(let milestone)):
            configuration.connectivityObserver?(milestone)
        case .engineEvent(let event, let inFlight):
            configuration.engineEventObserver?(event, inFlight)
        case .wakeUp(let at):
            let delay = at - now()
            let (inbox, clock) = (self.inbox, configuration.clock)
            group.addTask {
                if delay > .zero {
                    do { try await clock.sleep(for: .nanoseconds(delay.nanoseconds)) } catch { return }
                }
                inbox.yield(.tick)
            }
        case .reply(let reply):
            configuration.operatorLink?.answer(reply)
        case .finish(let summary):
            if let journal, journal.journal.checkpoints == .manual {
                do { try journal.journal.checkpoint() } catch { logger.warning("journal checkpoint: \(error)") }
            }
            return .success(summary)
        case .fail(let error):
            return .failure(error)
        }
        return nil
    }
}

/// Where a session's connections come from.
enum SessionVenue: Sendable {
    /// Connections it opens itself, over this transport (TCP, or the simulator's in-process venue).
    case transport(any TWSTransport)
    /// One connection the caller opened, is ready and keeps (`ibtrader order`'s): never reconnected or closed here.
    case connection(TWSConnection, TWSSessionInfo)
}

extension JournalWrite {
    /// Whether a write that returned without an error wrote a row (and so shows the journal takes writes).
    var provesWritable: Bool {
        switch self {
        case .checkpoint, .executions: false
        default: true
        }
    }
}

extension SessionInput {
    /// Inputs after which the operator's snapshot is taken again (at least once a second, with the tick).
    var changesStatus: Bool {
        switch self {
        case .tick, .control, .orderEvent, .connected, .connectionClosed, .connectivity, .start, .stop: true
        default: false
        }
    }

    /// A journal write failed.
    var isJournalFailure: Bool { if case .journalFailed = self { true } else { false } }

    /// Whether this input came from the connection (the watchdog's evidence that the gateway talks).
    var isInbound: Bool {
        switch self {
        case .market, .quotes, .orderEvent, .connectivity, .farm, .answer: true
        default: false
        }
    }
}
