import Foundation
import LiveSession
import Logging
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The driver's I/O: connections, requests, feeds and order groups. Each answer goes back into the inbox.
extension SessionDriver {
    /// Opens a connection: its run loop, then (once ready) its order messages, connection states and farm notices
    /// pumped into the inbox with its generation, then `.connected`. A 326 (client id in use) of the first
    /// connection before it is ready is retried on a fresh socket (`clientIDInUseRetry`).
    mutating func connect(on transport: any TWSTransport, _ group: inout DiscardingTaskGroup) {
        generation += 1
        let number = generation
        let (inbox, slots, logger) = (self.inbox, self.connections, self.logger)
        let configuration = self.configuration.connection
        let clock = self.configuration.clock
        let environment = TWSConnectionEnvironment(transport: transport, clock: clock.sleeper, logger: logger)
        let first = number == 1
        let crash = self.configuration.crashPoint
        group.addTask {
            var retry = TWSClientIDRetry(limit: configuration.clientIDInUseRetry)
            while true {
                let connection = TWSConnection(configuration: configuration, environment: environment)
                slots.set(number, connection)
                let outcome = await Self.serve(connection, generation: number, inbox: inbox, crash: crash)
                switch outcome {
                case .served:
                    return
                case .clientIDInUse where first:
                    // Before the session was ready: nothing was sent, so connecting again is safe.
                    guard let pause = retry.nextPause() else { fallthrough }
                    logger.notice("client id \(configuration.clientID) is in use (326); connecting again in \(pause)")
                    do { try await clock.sleep(for: pause) } catch { return }
                case .clientIDInUse:
                    inbox.yield(.connectFailed("\(TWSConnectionError.clientIDInUse(clientID: configuration.clientID))"))
                    return
                case .notReady(let reason, let unreachable):
                    inbox.yield(unreachable ? .gatewayUnreachable(reason) : .connectFailed(reason))
                    return
                }
            }
        }
    }

    /// How a connection attempt ended.
    private enum ServeOutcome: Sendable {
        /// It was ready and has closed since (`.connectionClosed` said so).
        case served
        /// 326 before it was ready.
        case clientIDInUse
        /// It never became ready (`unreachable`: nothing answered: refused, timed out, closed in the handshake).
        case notReady(String, unreachable: Bool)
    }

    /// Runs one connection: once ready, its order messages, states and farm notices go into the inbox with its
    /// generation, then `.connected`; returns when it is over.
    private static func serve(
        _ connection: TWSConnection, generation number: Int, inbox: SessionInbox, crash: CrashPoint?
    ) async -> ServeOutcome {
        await withTaskGroup(of: ServeOutcome?.self) { attempt in
            attempt.addTask {
                do { try await connection.run() } catch {
                    inbox.yield(.connectionClosed(generation: number, "\(error)"))
                    return nil
                }
                inbox.yield(.connectionClosed(generation: number, "the connection closed"))
                return nil
            }
            attempt.addTask {
                let info: TWSSessionInfo
                do { info = try await connection.waitUntilReady() } catch TWSConnectionError.clientIDInUse {
                    return .clientIDInUse
                } catch {
                    switch error as? TWSConnectionError {
                    case .refused, .timedOut, .closedByPeer: return .notReady("\(error)", unreachable: true)
                    default: return .notReady("\(error)", unreachable: false)
                    }
                }
                // Everything the connection hears goes into the inbox as it is read, in the order it was read:
                // first `.connected`, so no order event of this connection comes before the core knows it.
                let clientID = await connection.configuration.clientID
                let ended = AsyncStream<Void>.makeStream()
                await connection.listen(
                    receiver(generation: number, info: info, clientID: clientID, inbox: inbox, crash: crash, ended: ended.continuation))
                for await _ in ended.stream {}
                return .served
            }
            var outcome = ServeOutcome.served
            for await result in attempt {
                guard let result else { continue }
                outcome = result
                if case .served = result { continue }
                await connection.disconnect()  // never ready: end its run loop too
            }
            return outcome
        }
    }

    /// What a connection hears, into the inbox with its generation: first `.connected` (so no order event of the
    /// connection comes before the core knows it), then its order messages, states, farm notices and IB's desupport
    /// warning (2172) as they are read.
    private static func receiver(
        generation number: Int, info: TWSSessionInfo, clientID: Int, inbox: SessionInbox, crash: CrashPoint?,
        ended: AsyncStream<Void>.Continuation
    ) -> TWSReceiver<TWSConnectionEvent> {
        let fills = Counter()
        return TWSReceiver(
            receive: { event in
                switch event {
                case .listening(let state, let farms):
                    inbox.yield(
                        .connected(SessionConnection(generation: number, info: info, farms: farms, clientID: clientID)))
                    inbox.yield(.connectivity(generation: number, state))
                case .order(let event):
                    if case .execution = event { reachFillCrashPoint(crash, fills: fills.next()) }
                    inbox.yield(.orderEvent(generation: number, event))
                case .state(let state):
                    inbox.yield(.connectivity(generation: number, state))
                case .notice(let notice):
                    if let report = TWSFarmReport(notice) {
                        inbox.yield(.farm(generation: number, report))
                    } else if let warning = TWSDesupportWarning(notice) {
                        inbox.yield(.desupport(generation: number, warning))
                    }
                }
            },
            end: { error in
                inbox.yield(.connectionClosed(generation: number, error.map { "\($0)" } ?? "order events ended"))
                ended.finish()
            })
    }

    /// Listens on a connection the caller opened and keeps (`SessionVenue.connection`) until the run ends: the same
    /// inputs as a connection of its own, its order ids taken from where the connection's stand now (an earlier
    /// session on it may have used some since the handshake).
    mutating func adopt(_ adopted: TWSConnection, info: TWSSessionInfo, _ group: inout DiscardingTaskGroup) {
        generation += 1
        let number = generation
        let (inbox, crash) = (self.inbox, configuration.crashPoint)
        connections.set(number, adopted)
        group.addTask {
            var info = info
            if let next = try? await adopted.nextOrderID() { info.nextValidOrderID = next }
            let clientID = await adopted.configuration.clientID
            let ended = AsyncStream<Void>.makeStream()
            let listening = await adopted.listen(
                Self.receiver(generation: number, info: info, clientID: clientID, inbox: inbox, crash: crash, ended: ended.continuation))
            await withTaskCancellationHandler {
                for await _ in ended.stream {}
            } onCancel: {
                listening.cancel()
                ended.continuation.finish()
            }
        }
    }

    /// A request to TWS (in a task of its own, cancellable by its tag) or to the journal (at once).
    func performRequest(
        _ tag: SessionTag, _ request: SessionRequest, _ group: inout DiscardingTaskGroup
    ) {
        let inbox = self.inbox
        switch request {
        case .journalRestart(let account, let runKey, let day):
            guard let journal else {
                inbox.yield(.failed(tag, .unanswered("no journal")))
                return
            }
            do {
                inbox.yield(.answer(tag, .journalRestart(try journal.restartData(account: account, runKey: runKey, day: day))))
            } catch {
                inbox.yield(.failed(tag, .unanswered("\(error)")))
            }
            return
        case .journaledRefs(let refs):
            guard let journal else {
                inbox.yield(.answer(tag, .journaledRefs([])))
                return
            }
            do {
                let known = try refs.filter { try journal.journal.order(ClientOrderID($0)) != nil }
                inbox.yield(.answer(tag, .journaledRefs(known)))
            } catch {
                inbox.yield(.failed(tag, .unanswered("\(error)")))
            }
            return
        case .beginRun(let account, let floor, let time):
            guard let journal else {
                inbox.yield(.failed(tag, .unanswered("no journal")))
                return
            }
            do {
                inbox.yield(.answer(tag, .run(try journal.journal.beginRun(at: time, account: account, floor: floor))))
            } catch {
                inbox.yield(.failed(tag, .unanswered("\(error)")))
            }
            return
        default:
            break
        }
        guard let connection else {
            inbox.yield(.failed(tag, .unanswered("not connected")))
            return
        }
        let history = configuration.barStore.map { StoredHistory(store: $0, logger: logger) }
        spawn(tag, &group) {
            do throws(TWSRequestError) {
                let answer: SessionAnswer
                switch request {
                case .contractDetails(let contract): answer = .contractDetails(try await connection.contractDetails(contract))
                case .historicalBars(let query):
                    if let history {
                        answer = .bars(try await history.bars(query, on: connection))
                    } else {
                        answer = .bars(try await connection.historicalBars(query))
                    }
                case .brokerState:
                    answer = .brokerState(try await Self.brokerAnswers(on: connection))
                case .executions: answer = try await Self.executions(TWSExecutionFilter(), on: connection)
                case .executionsSince(let time):
                    var filter = TWSExecutionFilter()
                    filter.time = TWSTimeParser.utcText(time)
                    answer = try await Self.executions(filter, on: connection)
                case .executionsOf(let account, let symbol, let since):
                    var filter = TWSExecutionFilter()
                    filter.accountCode = account
                    filter.symbol = symbol ?? ""
                    filter.time = since.map(TWSTimeParser.utcText) ?? ""
                    answer = try await Self.executions(filter, on: connection)
                case .openOrders: answer = .openOrders(try await connection.allOpenOrders())
                case .completedOrders: answer = .completedOrders(try await connection.completedOrderList())
                case .serverTime: answer = .serverTime(try await connection.currentTime())
                case .positions: answer = .positions(try await connection.positions())
                case .accountValues:
                    let values = try await connection.accountSummary(tags: MarginCheck.request)
                    let account = configuration.session.account ?? values.first?.account
                    answer = .accountValues(
                        CurrencyCheck.values(values.filter { $0.account == account }.map { ($0.tag, $0.value, $0.currency) }))
                case .whatIf(let order, let contract):
                    answer = .orderPreview(try await connection.whatIf(order, contract: contract))
                case .marketRule(let rule): answer = .marketRule(try await connection.marketRule(rule))
                case .snapshot(let contract):
                    // Delayed where live is not subscribed (IB sends live data when it is).
                    try? await connection.setMarketDataType(.delayed)
                    let snapshot = try await connection.marketDataSnapshot(contract: contract)
                    answer = .snapshot(
                        Dictionary(snapshot.prices.map { ($0.key.rawValue, $0.value) }, uniquingKeysWith: { first, _ in first }))
                case .dailyPnL(let account, let within):
                    answer = .dailyPnL(
                        await connection.firstPnL(account: account, within: .nanoseconds(within.nanoseconds))?.daily)
                case .journalRestart, .beginRun, .journaledRefs: return
                }
                inbox.yield(.answer(tag, answer))
            } catch {
                if case .rejected(let notice) = error {
                    inbox.yield(.failed(tag, .rejected(code: notice.code, "\(error)")))
                } else {
                    inbox.yield(.failed(tag, .unanswered("\(error)")))
                }
            }
        }
    }

    /// The broker's state. The executions and the completed orders never fail it (the core goes on without what TWS
    /// did not finish, `BrokerAnswers.shortfalls`); the open orders and the positions, which nothing can be traded
    /// without, do.
    static func brokerAnswers(on connection: TWSConnection) async throws(TWSRequestError) -> BrokerAnswers {
        let open = try await connection.allOpenOrders()
        var shortfalls: [BrokerAnswers.Shortfall] = []
        var executions: [TWSExecutionReport] = []
        let wait = await executionsWait(on: connection)
        do throws(TWSRequestError) {
            let list = try await connection.executions(filter: TWSExecutionFilter(), within: wait)
            executions = list.reports
            if !list.isComplete {
                shortfalls.append(BrokerAnswers.Shortfall(
                    .executions, reason: "no execDetailsEnd within \(wait.components.seconds) s, "
                        + "\(list.reports.count) executions arrived"))
            }
        } catch {
            guard error.leavesConnectionUp else { throw error }
            shortfalls.append(BrokerAnswers.Shortfall(.executions, reason: "\(error)"))
        }
        let positions = try await connection.positions()
        var completed: [TWSCompletedOrder] = []
        do throws(TWSRequestError) {
            completed = try await connection.completedOrderList()
        } catch {
            guard error.leavesConnectionUp else { throw error }
            shortfalls.append(BrokerAnswers.Shortfall(.completedOrders, reason: "\(error)"))
        }
        var answers = BrokerAnswers(
            openOrders: open, executions: executions, positions: positions, completedOrders: completed)
        answers.shortfalls = shortfalls
        return answers
    }

    /// reqExecutions, waiting at most `SessionRequest.executionsWait` (or the request timeout, if shorter) for its end:
    /// what arrived, as cut short when the end did not come.
    static func executions(
        _ filter: TWSExecutionFilter, on connection: TWSConnection
    ) async throws(TWSRequestError) -> SessionAnswer {
        let wait = await executionsWait(on: connection)
        let list = try await connection.executions(filter: filter, within: wait)
        guard list.isComplete else {
            return .executionsCutShort(list.reports, waited: TimeSpan(wait))
        }
        return .executions(list.reports)
    }

    /// How long an execution request waits for its end.
    static func executionsWait(on connection: TWSConnection) async -> Duration {
        let longest = Duration.nanoseconds(SessionRequest.executionsWait.nanoseconds)
        guard let timeout = await connection.configuration.requestTimeout else { return longest }
        return min(timeout, longest)
    }

    /// 5-second bars until cancelled, each into the inbox as the connection reads it (the core closes the slices); a
    /// failure comes back with whether the socket was still up.
    func subscribeBars(
        _ tag: SessionTag, _ subscription: RealTimeBarSubscription, _ contracts: ContractBook,
        _ group: inout DiscardingTaskGroup
    ) {
        guard let connection else { return }
        let inbox = self.inbox
        spawn(tag, &group) {
            let lines = ReceiverLines()
            var subscriptions: [TWSSubscription] = []
            do {
                for id in subscription.instruments {
                    let contract = try contracts.contract(for: id)
                    subscriptions.append(
                        try await connection.realTimeBars(
                            contract: contract,
                            whatToShow: SessionSettings.whatToShow(subscription.whatToShow, for: contract),
                            useRTH: subscription.useRegularTradingHours,
                            into: lines.receiver { inbox.yield(.market(tag, Self.barEvent($0, for: id))) }))
                }
                // Until a line fails, every line ended, or the core cancels the subscription (this task's end).
                try await lines.wait(for: subscriptions)
            } catch {
                ReceiverLines.cancel(subscriptions)
                guard !Task.isCancelled else { return }
                // What the failure means (a 10225 to subscribe again, a refusal to stop) is the core's to say.
                inbox.yield(
                    .marketFailed(tag, Self.subscriptionFailure(error), connectionUp: await connection.session != nil))
            }
        }
    }

    /// One subscription's item as the core takes it: the bar (mapped, never defaulted), or a notice.
    static func barEvent(_ item: SubscriptionItem<TWSRealTimeBar>, for id: InstrumentID) -> IBMarketDataEvent {
        switch item {
        case .data(let wire):
            do throws(IBMappingError) {
                return .bar(id, try BarMapping.bar(wire))
            } catch {
                return .malformedBar(id, error)
            }
        case .notice(let notice):
            return .notice(id, notice)
        }
    }

    /// Quotes (reqMktData) until cancelled; the feed's end comes back with whether the socket was still up, its
    /// failure as the core reads it (a refusal is the core's to fall back from).
    func subscribeQuotes(
        _ tag: SessionTag, _ instruments: [InstrumentID], _ contracts: ContractBook,
        _ group: inout DiscardingTaskGroup
    ) {
        guard let connection else { return }
        let inbox = self.inbox
        let clock = configuration.clock.now
        spawn(tag, &group) {
            let feed = IBQuoteFeed(connection: connection, contracts: contracts, instruments: instruments, clock: clock)
            let end: QuoteFeedEnd
            do {
                try await feed.run { inbox.yield(.quotes(tag, $0)) }
                end = .ended
            } catch {
                end = .failed(Self.subscriptionFailure(error))
            }
            guard !Task.isCancelled else { return }
            let connectionUp = await connection.session != nil
            switch end {
            case .failed(let failure): inbox.yield(.quotesFailed(tag, failure, connectionUp: connectionUp))
            case .ended: inbox.yield(.quotesEnded(tag, "the quote lines ended", connectionUp: connectionUp))
            }
        }
    }

    /// A subscription's failure as the core reads it: TWS's refusal with its code, else what went wrong.
    static func subscriptionFailure(_ error: any Error) -> SessionFailure {
        if case TWSRequestError.rejected(let notice) = error {
            return .rejected(code: notice.code, "\(notice.code) \(notice.message)")
        }
        return .unanswered("\(error)")
    }

    /// How a quote feed's lines ended.
    private enum QuoteFeedEnd: Sendable {
        case ended
        case failed(SessionFailure)
    }

    /// Runs `work` in a task of the run's group until it ends or `cancel(tag)` ends it.
    func spawn(
        _ tag: SessionTag, _ group: inout DiscardingTaskGroup,
        _ work: @escaping @Sendable () async -> Void
    ) {
        let signal = tasks.register(tag)
        let tasks = self.tasks
        group.addTask {
            await withTaskGroup(of: Void.self) { inner in
                inner.addTask { await work() }
                inner.addTask { for await _ in signal {} }
                await inner.next()
                inner.cancelAll()
            }
            tasks.remove(tag)
        }
    }

    /// An order group: its intents journaled, then its orders sent, then journaled as sent. Nothing is sent
    /// unless its intents are on disk.
    mutating func place(_ group: OrderGroup) async {
        if let journal {
            let failure = timedJournal({ journal.writeIntents(group.intents, at: group.time) })
            journalOutcome(failure)
            if let failure {
                inbox.yield(.placeFailed(group, "journal write failed, order not sent: \(failure)"))
                return
            }
        }
        reachCrashPoint(.afterIntentJournaled)
        do {
            guard let connection else { throw TWSRequestError.notConnected }
            // Written to the socket before this returns (unless the rate limiter holds it).
            let handedOver = try await connection.submitOrders(
                group.placements, contract: group.contract, legContracts: group.legContracts)
            // The bar → order time ends when the order was handed to the socket: not when this task resumes (the
            // order's first answers may be read in between), nor after the journal's "sent" below.
            if let barTakenAt { record(.barToOrder, seconds: ((handedOver ?? .now) - barTakenAt).secondsValue) }
        } catch {
            // Nothing of the group was transmitted: the intents are dead, so a restart must not send them.
            _ = journal?.writeIntents(
                group.intents.map { var intent = $0; intent.lastKnownState = .rejected; return intent }, at: group.time)
            inbox.yield(.placeFailed(group, "\(error)"))
            return
        }
        if configuration.crashPoint?.location == .afterSubmit {
            // Test only: the broker answers first, so the crash leaves an order it holds and an intent not `sent`.
            try? await configuration.clock.sleep(for: .milliseconds(500))
        }
        reachCrashPoint(.afterSubmit)
        let sent = group.intents.map { var intent = $0; intent.lastKnownState = .sent; return intent }
        if let journal { journalOutcome(timedJournal({ journal.writeIntents(sent, at: group.time) })) }
    }

    /// Exits the process at once when `location` is reached for the configured time (test only, `CrashPoint`).
    mutating func reachCrashPoint(_ location: CrashPoint.Location) {
        guard let point = configuration.crashPoint, point.location == location else { return }
        crashHits += 1
        guard crashHits == point.occurrence else { return }
        Self.exit(at: point)
    }

    static func reachFillCrashPoint(_ point: CrashPoint?, fills: Int) {
        guard let point, point.location == .afterFill, fills == point.occurrence else { return }
        exit(at: point)
    }

    private static func exit(at point: CrashPoint) {
        FileHandle.standardError.write(Data("\(CrashPoint.environmentVariable): exiting at \(point)\n".utf8))
        _exit(CrashPoint.exitStatus)
    }
}

extension TWSRequestError {
    /// Whether the request failed on its own, the connection still up (TWS refused it, or it timed out): a part that
    /// can be done without is then left out, where a closed connection or a cancelled run ends the whole answer.
    var leavesConnectionUp: Bool {
        switch self {
        case .rejected, .timedOut, .invalidRequest: true
        case .notConnected, .connectionClosed, .cancelled: false
        }
    }
}
