import Logging
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

/// The live session's decisions, without I/O: `handle(input, at:)` takes what happened — a connection ready or
/// lost, an answer, a bar, an order message, a tick, a stop — and returns what to do, in order.
///
/// It decides the start-up (account check, contracts, the broker's state, the run's namespace, the warm-up, the
/// restart reconciliation), trading (bars and quotes into the engine, its commands through the `OrderDesk`, the
/// broker's messages back), outages (1100 / 1101 / 1102, a lost socket, reconnects with backoff, the
/// resynchronization and back-fill after them, the heartbeat, farms), and the stop (kill switch, cancels, drain,
/// final journal). The driver (`LiveRunner`) owns the socket and the journal and carries the actions out.
///
/// Time: `now` is the injected wall clock (timers, grace periods); the engine and the journal are stamped with data
/// time, the latest bar's (`dataTime`), which is wall time against a real gateway and replay time against the
/// simulator.
///
/// ```swift
/// var core = LiveSessionCore(strategy: MomentumRotation(config: c), settings: settings, now: clock())
/// for action in core.handle(.start, at: clock()) { … }   // .connect
/// for action in core.handle(.connected(connection), at: clock()) { … }
/// ```
public struct LiveSessionCore<S: Strategy>: Sendable {
    /// The run's settings.
    public let settings: SessionSettings
    let universe: Universe
    let ids: [InstrumentID]
    /// The engine: strategy, risk, orders, portfolio.
    public internal(set) var engine: EngineCore<S>
    /// Orders, their mapping and the day's order-efficiency counts.
    public internal(set) var desk: OrderDesk
    /// Where the session stands.
    public internal(set) var phase = SessionPhase.idle
    /// The account traded (known once connected).
    public internal(set) var account = ""
    /// The current connection's number and whether it is up.
    var generation = 0
    var connected = false
    /// When the first connection attempt started (the bound of `settings.gatewayWait`).
    var firstAttemptAt: Timestamp?
    var clientID = 0
    /// Second live broker orders (by permId) already alerted (`secondLiveOrder`).
    var alertedTwins: Set<Int64> = []
    /// The gateway's server version (the current connection's).
    var serverVersion = 0
    /// Data time: the latest bar's, stamped on engine events and journal rows.
    public internal(set) var dataTime: Timestamp
    /// Whether `dataTime` came from a bar yet (before, it is the clock at start: the first bar replaces it even when
    /// older, as a gateway replaying history sends).
    var dataTimeFromBars = false
    /// Each instrument's latest strategy bar (`data.barSize`) and 5-second source bar.
    var lastBarTime: [Timestamp]
    var lastSourceBarTime: [Timestamp]
    var lastClosed = Timestamp.zero
    /// The strategy's bars from the 5-second real-time bars (`data.barSize`; shared with the backtester).
    var aggregator: BarAggregator
    /// What the run did (the summary's counts).
    public internal(set) var counts = SessionCounts()
    var denialsLogged = 0
    /// Scale-downs already said (`logDenials`).
    var adjustmentsLogged = 0
    /// The denial being repeated (its cause said once, its repeats counted until another cause or the stop).
    var repeatedDenial: RepeatedDenial?
    var entryPauses: Set<EntryPause> = []
    /// The operator's pause, kill switch and flatten.
    var operatorState = OperatorState()
    var connectivity: ConnectivityMonitor
    var farms: FarmMonitor
    /// Each symbol's bar feed, watched for silence in trading hours (`LiveSessionCore+FeedWatch.swift`).
    var feedWatch: FeedWatch
    /// The hours the feed watch counts: the regular session (IB's `liquidHours`) even when the strategy trades
    /// pre-market and after-hours, where minutes without a trade are normal and a silence is no dead feed.
    var feedHours = SessionTimes()
    /// The gateway's clock at its last answer, and when that came (`marketNow`).
    var serverClock: (server: Timestamp, at: Timestamp)?
    var nextTag = 0
    /// What each outstanding request is for.
    var pending: [SessionTag: Purpose] = [:]
    var barFeed: SessionTag?
    /// The bar feed's slices: when every instrument's 5-second bar of a time is in (`.barsClosed`). Reset with each
    /// subscription; a session log from before 2026-11-27 carries the feed's own slices instead (`.engine` events).
    var slices = BarSliceAssembler(instruments: [])
    var feedNumber = 0
    var quoteFeed: SessionTag?
    var quoteFailures = 0
    var quoteRetryAt: Timestamp?
    /// Instruments whose trading is halted (TWS's HALTED tick), since when, and the exits held until it clears.
    var halts: [InstrumentID: (halt: TradingHalt, since: Timestamp)] = [:]
    var heldExits: [EngineCommand] = []
    /// Instruments whose quote line shows delayed data (the dashboard's market-data type).
    var delayedQuotes: Set<InstrumentID> = []
    /// The connection whose market data type this run switched to delayed after a refusal (a new connection starts
    /// live again, so the fallback may happen once more on it).
    var delayedFallbackGeneration: Int?
    /// The latest fills and connection events, for the operator (`SessionStatus.fills`, `.connection.history`).
    var recentFills: [SessionStatus.Fill] = []
    var connectionHistory: [SessionStatus.ConnectionEvent] = []
    /// Orders whose modification was journaled and sent, until the broker confirms or refuses it (a refusal puts the
    /// earlier terms back into the journal).
    var modificationsSent: Set<OrderID> = []
    /// Entries waiting for their what-if preview (by the entry's id), and those previewed and cleared to go.
    var awaitingPreview: [OrderID: SessionTag] = [:]
    var previewed: Set<OrderID> = []
    var startup = Startup()
    var recovery: Recovery?
    var stopping: Stopping?
    var reconnect = Reconnect()
    var heartbeat = HeartbeatState()
    var nextSummary: Timestamp
    /// When the summary is next logged (`SessionSettings.summaryLogInterval`).
    var nextSummaryLog: Timestamp
    var nextExecutionSync: Timestamp?
    /// The periodic execution sync reads the executions since this time (less `executionSyncOverlap`): the start-up's
    /// reconciliation, then the time the last answered sync was asked.
    var executionSyncFrom: Timestamp?
    var positionCheck = PositionCheckState()
    /// Positions that had a protective stop, watched for losing it (`LiveSessionCore+ProtectionWatch.swift`).
    var protection: [InstrumentID: ProtectionWatch] = [:]
    /// Closed (non-nil) from a drop until the broker's book is confirmed: no order goes out meanwhile.
    var bookGate: BookGate?
    var journalHealth = JournalHealth()
    var run: JournalRun?
    var journaledRisk: RiskBaseline?
    var journaledEfficiency: JournalOrderEfficiency?
    /// IB's base currency and the rates that differ from IB's (`LiveSessionCore+CurrencyCheck.swift`).
    var currencyCheck = CurrencyCheckState()
    /// Market and quote events that arrived while the session could not take them (a back-fill, a
    /// resynchronization): handled, in order, once it can.
    var deferredMarket: [SessionInput] = []
    /// Order messages that arrived during the start-up: applied after the restart reconciliation.
    var deferredOrders: [TWSOrderEvent] = []
    /// Book outputs to publish after the current input (a rejection re-enters the engine after the event that
    /// caused it, as a message from the broker would).
    var followUps: [OrderBookOutput] = []
    /// Each continuous future's position by contract month (the broker's at the start, then this run's fills): a
    /// position in a month other than the front one is rolled (`LiveSessionCore+Roll.swift`).
    var monthPositions: [InstrumentID: [ContractMonth: Quantity]] = [:]
    /// Each continuous future's front month by day (the roll rule, remembered between bars).
    var rollCursors: [InstrumentID: FrontMonthCursor] = [:]
    /// The trading day (`FutureSpec.tradingDay`) each continuous future's last roll was decided, and those whose roll
    /// did not complete that day (alerted once).
    var rollDecided: [InstrumentID: Int64] = [:]
    var rollStuck: Set<InstrumentID> = []
    /// With a continuous future in the universe: the strategy before any bar, and every bar it has seen since (its
    /// rolled months' moved to the month it trades now), which a roll re-warms it on (`LiveSessionCore+Roll.swift`).
    var rewarm: (fresh: S, history: [(InstrumentID, Bar)])?
    /// The roll's time of each continuous future whose new month's bars are asked for, to measure the gap.
    var rebasePending: [InstrumentID: Timestamp] = [:]
    /// The histories moved at this run's rolls, in order (the drift report's backtest moves them too).
    public internal(set) var historyRebases: [HistoryRebase] = []
    /// By volume (`EngineConfig.futuresRollByVolume`): each continuous future's volumes asked for today, and the month
    /// the volumes moved it to (never back).
    var volumeChecks: [InstrumentID: VolumeCheck] = [:]
    var volumeFronts: [InstrumentID: ContractMonth] = [:]
    /// Each continuous future's months in this run: the first (`after` zero), then each move, after the last strategy
    /// bar of the month left (the drift report's backtest rolls there).
    public internal(set) var monthMoves: [(instrument: InstrumentID, after: Timestamp, month: ContractMonth)] = []
    /// Why the run stopped.
    var stopReason: String?
    /// The time of the input being handled (for steps that continue a procedure).
    var inputTime: Timestamp
    /// A ticket session's order and its progress (`LiveSessionCore+Ticket.swift`), or its cancel
    /// (`LiveSessionCore+TicketCancel.swift`); both `nil` for a strategy's run.
    var ticketRun: TicketRun?
    var cancelRun: CancelRun?
    /// A ticket session's modify (`LiveSessionCore+TicketModify.swift`).
    var modifyRun: ModifyRun?

    /// Creates a core.
    /// - Parameters:
    ///   - strategy: the strategy.
    ///   - settings: the run's settings.
    ///   - now: the wall clock at start (data time starts here until the first bar).
    ///   - ticket: a ticket session's one order (`SessionTicket`): the run carries it out and ends; the strategy is
    ///     not called.
    public init(strategy: S, settings: SessionSettings, now: Timestamp, ticket: SessionTicket? = nil) {
        self.settings = settings
        var universe = Universe(symbols: settings.symbols)
        for (symbol, sector) in settings.sectors ?? [:] {
            if let id = universe.id(of: symbol) { universe.setSector(sector, for: id) }
        }
        self.universe = universe
        ids = (0..<universe.count).map { InstrumentID(index: $0) }
        engine = EngineCore(universe: universe, strategy: strategy, config: settings.engine)
        var options = WireOrderOptions(
            outsideRegularTradingHours: settings.outsideRegularTradingHours, reference: settings.reference)
        options.includeOvernight = settings.includeOvernight
        desk = OrderDesk(
            contracts: ContractBook(universe: universe), options: options,
            commissionWait: settings.commissionWait, efficiencyLimit: settings.orderEfficiency)
        if ids.contains(where: desk.contracts.isContinuous) { rewarm = (strategy, []) }
        dataTime = now
        inputTime = now
        lastBarTime = Array(repeating: .zero, count: universe.count)
        lastSourceBarTime = lastBarTime
        aggregator = BarAggregator(
            size: BarSize(settings.warmupBarSize) ?? BarSize("5 secs")!, sourceLength: .seconds(5),
            tradingDays: universe.instruments.map { TradingDay(symbol: $0.symbol) })
        connectivity = ConnectivityMonitor(
            gracePeriod: settings.resilience.gracePeriod, schedule: settings.resilience.resetSchedule)
        farms = FarmMonitor(gracePeriod: settings.resilience.gracePeriod, schedule: settings.resilience.resetSchedule)
        feedWatch = FeedWatch(limit: settings.resilience.deadFeedAfter, instruments: universe.count)
        nextSummary = now + settings.summaryInterval
        nextSummaryLog = now + settings.summaryLogEvery
        switch ticket?.job {
        case .place(let order, let key)?:
            ticketRun = TicketRun(ticket!, order: order, key: key, reference: settings.reference)
        case .preview(let order)?:
            ticketRun = TicketRun(ticket!, order: order, key: "what-if", reference: settings.reference)
            ticketRun?.preview = true
        case .cancel(let target)?:
            cancelRun = CancelRun(target: target, timeout: ticket!.timeout)
            cancelRun?.otherClients = ticket!.cancelsOtherClients
        case .modify(let orderID, let modification)?:
            modifyRun = ModifyRun(ticket!, orderID: orderID, modification: modification)
        case nil:
            break
        }
    }

    /// What one input leads to, in order.
    public mutating func handle(_ input: SessionInput, at now: Timestamp) -> [SessionAction] {
        var out = Actions()
        if case .finished = phase { return [] }
        inputTime = now
        take(input, at: now, &out)
        publishFollowUps(at: now, &out)
        if operatorState.flatten != nil {
            continueFlatten(at: now, &out)
            publishFollowUps(at: now, &out)
        }
        if stopping != nil {
            continueStop(at: now, &out)
            publishFollowUps(at: now, &out)
        }
        return out.list
    }

    private mutating func take(_ input: SessionInput, at now: Timestamp, _ out: inout Actions) {
        switch input {
        case .start:
            guard case .idle = phase else { return }
            phase = .connecting
            reconnect.attempting = true
            reconnect.delay = settings.reconnectDelay
            firstAttemptAt = now
            out.append(.connect)
        case .connected(let connection):
            connected(connection, at: now, &out)
        case .connectFailed(let reason):
            connectFailed(reason, at: now, &out)
        case .gatewayUnreachable(let reason):
            gatewayUnreachable(reason, at: now, &out)
        case .connectionClosed(let number, let reason):
            guard number == generation, connected else { return }
            if ticketRun != nil, case .running = phase { return ticketConnectionLost(reason, &out) }
            if cancelRun != nil, case .running = phase { return cancelConnectionLost(reason, &out) }
            if modifyRun != nil, case .running = phase { return modifyConnectionLost(reason, &out) }
            lost(reason, at: now, &out)
        case .connectivity(let number, let state):
            guard number == generation, connected else { return }
            heard(at: now)
            connectivityChanged(state, at: now, &out)
        case .farm(let number, let report):
            guard number == generation else { return }
            heard(at: now)
            farmReported(report, at: now, &out)
        case .desupport(let number, let warning):
            guard number == generation else { return }
            heard(at: now)
            desupportWarned(warning, at: now, &out)
        case .answer(let tag, let answer):
            guard let purpose = pending.removeValue(forKey: tag) else { return }
            if let sent = heartbeat.timed.removeValue(forKey: tag) { heartbeat.roundTrip = (now - sent, now) }
            answered(purpose, answer, at: now, &out)
        case .failed(let tag, let failure):
            guard let purpose = pending.removeValue(forKey: tag) else { return }
            heartbeat.timed[tag] = nil
            failed(purpose, failure, at: now, &out)
        case .market(let tag, _), .quotes(let tag, _):
            guard tag == barFeed || tag == quoteFeed else { return }
            heard(at: now)
            marketInput(input, at: now, &out)
        case .marketFailed(let tag, let failure, let connectionUp):
            guard tag == barFeed else { return }
            barFeedFailed(failure, connectionUp: connectionUp, at: now, &out)
        case .marketEnded(let tag, let reason, let connectionUp):
            guard tag == barFeed else { return }
            barFeedEnded(reason, connectionUp: connectionUp, at: now, &out)
        case .marketInterrupted(let tag, let reason):
            guard tag == barFeed else { return }
            barFeedInterrupted(reason, at: now, &out)
        case .quotesEnded(let tag, let reason, let connectionUp):
            guard tag == quoteFeed else { return }
            quoteFeedEnded(reason, connectionUp: connectionUp, at: now, &out)
        case .quotesFailed(let tag, let failure, let connectionUp):
            guard tag == quoteFeed else { return }
            quoteFeedFailed(failure, connectionUp: connectionUp, at: now, &out)
        case .orderEvent(let number, let event):
            guard number == generation else { return }
            heard(at: now)
            // A cancel's session follows the broker's list of open orders, not orders of its own.
            if cancelRun != nil { return cancelOrderEvent(event, &out) }
            if modifyRun != nil { return modifyOrderEvent(event, &out) }
            if startup.defersOrders {
                deferredOrders.append(event)
            } else {
                orderEvent(event, &out)
            }
        case .placeFailed(let group, let reason):
            followUps += desk.placeFailed(group, reason: reason, at: dataTime)
        case .orderRequestFailed(let id, let cancel, let reason):
            followUps += desk.requestFailed(brokerOrderID: id, cancel: cancel, reason: reason, at: dataTime)
        case .journalFailed(let reason):
            journalFailed(reason, &out)
        case .journalWritable:
            journalWritable(&out)
        case .tick:
            if ticketRun != nil { return ticketTick(at: now, &out) }
            if cancelRun != nil { return cancelTick(at: now, &out) }
            if modifyRun != nil { return modifyTick(at: now, &out) }
            tick(at: now, &out)
        case .stop(let reason):
            stop(reason, at: now, &out)
        case .control(let request):
            control(request, at: now, &out)
        }
    }

    // MARK: - Shared steps

    /// A new tag for a request, subscription or group.
    mutating func tag() -> SessionTag {
        nextTag += 1
        return SessionTag(nextTag)
    }

    /// Sends a request and remembers what it is for.
    mutating func request(_ request: SessionRequest, for purpose: Purpose, _ out: inout Actions) -> SessionTag {
        let tag = tag()
        pending[tag] = purpose
        switch purpose {
        case .heartbeat, .positionCheck, .gatePositions, .warmupTime, .backfillTime:
            if heartbeat.timed.count > 64 { heartbeat.timed.removeAll() }  // answers lost with a connection
            heartbeat.timed[tag] = inputTime
        default: break
        }
        out.append(.request(tag, request))
        return tag
    }

    /// Evidence that the gateway answers (the heartbeat's).
    mutating func heard(at now: Timestamp) { heartbeat.lastHeard = now }

    /// Turns one pause reason on or off; the engine refuses new orders while any holds.
    mutating func setEntryPause(_ reason: EntryPause, _ on: Bool) {
        if on { entryPauses.insert(reason) } else { entryPauses.remove(reason) }
        // The refusals name the weightiest reason; the operator's kill switch says itself.
        let why = EntryPause.allCases.first { entryPauses.contains($0) }
        // A stop's kill switch outlasts every pause (a connection back during the stop lifts none of it).
        engine.pauseEntries(!entryPauses.isEmpty || stopping != nil, reason: why?.refusal)
    }

    /// One engine event, then its commands, then the observers, then any new risk denials.
    mutating func step(_ event: EngineEvent, _ out: inout Actions) {
        if case .bar(let id, let bar) = event { rewarm?.history.append((id, bar)) }
        let before = engine.riskMonitor.status
        let commands = engine.handle(event)
        let after = engine.riskMonitor.status
        if after.maintenanceMarginBreached != before.maintenanceMarginBreached { maintenanceMarginChanged(&out) }
        if after.dailyLossBreached != before.dailyLossBreached || after.drawdownHalted != before.drawdownHalted
            || after.rapidLossHalted != before.rapidLossHalted
        {
            riskHaltChanged(from: before, &out)
        }
        for command in commands { carryOut(command, &out) }
        out.append(.engineEvent(event, ordersInFlight: engine.orders.inFlightCount))
        logDenials(quiet: entryPauses.contains(.backfill) || operatorState.paused || operatorState.killed, &out)
    }

    /// The margin rule's maintenance requirement went above equity (reduce-only) or was met again.
    mutating func maintenanceMarginChanged(_ out: inout Actions) {
        let required = engine.maintenanceMarginRequirement.centsDescription
        let equity = engine.portfolio.equity.centsDescription
        if engine.riskMonitor.status.maintenanceMarginBreached {
            out.log(
                .critical,
                "ALERT: maintenance margin \(required) above equity \(equity): reduce-only (no new entries) until it "
                    + "is met again; reduce positions or add funds")
        } else {
            out.log(.notice, "maintenance margin \(required) met again (equity \(equity)): entries resume")
        }
    }

    /// A risk halt (daily loss, drawdown, rapid loss) began or, for the daily loss at a new day, ended: an ALERT
    /// (kind `risk`) that says what no longer trades and until when.
    mutating func riskHaltChanged(from before: RiskMonitor.Status, _ out: inout Actions) {
        let now = engine.riskMonitor.status
        let risk = engine.config.risk
        let equity = engine.portfolio.equity.centsDescription
        func began(_ was: Bool, _ halted: Bool, _ what: String, _ until: String) {
            guard halted, !was else { return }
            out.log(.critical, "ALERT: risk halt: \(what) reached at equity \(equity): no new entries \(until); exits go on")
        }
        began(before.dailyLossBreached, now.dailyLossBreached, "daily loss limit (\(risk.maxDailyLossPercent.map { "\($0) %" } ?? "set"))", "until the next day")
        began(before.drawdownHalted, now.drawdownHalted, "drawdown limit (\(risk.maxDrawdownPercent.map { "\($0) %" } ?? "set"))", "until `ibtrader risk reset`")
        began(before.rapidLossHalted, now.rapidLossHalted, "rapid loss limit (\(risk.rapidLossPercent.map { "\($0) %" } ?? "set"))", "until `ibtrader risk reset`")
        if before.dailyLossBreached, !now.dailyLossBreached {
            out.log(.notice, "risk halt over: a new day, the daily loss limit starts again at equity \(equity)")
        }
    }

    /// Logs (and journals) risk denials the engine made since the last look.
    private mutating func publishFollowUps(at now: Timestamp, _ out: inout Actions) {
        var rounds = 0
        while !followUps.isEmpty, rounds < 100 {
            let outputs = followUps
            followUps = []
            publish(outputs, &out)
            rounds += 1
        }
    }
}

/// Where a session stands.
public enum SessionPhase: Sendable, Equatable {
    /// Not started.
    case idle
    /// The first connection is being made.
    case connecting
    /// Connected: the start-up's steps (contracts, broker state, warm-up, reconciliation) are under way.
    case starting
    /// Trading.
    case running
    /// Connection lost; reconnecting with backoff.
    case reconnecting
    /// Stopping: kill switch, cancels, drain, final journal.
    case stopping
    /// Over.
    case finished
}

/// The counts of a run.
public struct SessionCounts: Sendable, Equatable {
    /// The strategy's bars (`data.barSize`) the engine took live.
    public var bars = 0
    /// The 5-second real-time bars they were built from.
    public var sourceBars = 0
    public var fills = 0
    public var commands = 0
    public var quotes = 0
    public var warmupBars = 0
    public var denialsAtStart = 0
    public var reconnects = 0
    public var resubscriptions = 0
    public var resynchronizations = 0
    public var backfilledBars = 0
    /// Checks of the positions against the broker's answered.
    public var positionChecks = 0
    /// Trading halts seen (HALTED ticks that halted a symbol).
    public var halts = 0
    /// Dead feeds found (`FeedWatch`): each a resubscription and a back-fill.
    public var deadFeeds = 0
}

/// Actions being collected for one input.
struct Actions {
    var list: [SessionAction] = []
    mutating func append(_ action: SessionAction) { list.append(action) }
    mutating func log(_ level: Logger.Level, _ text: String) { list.append(.log(level, text)) }
}
