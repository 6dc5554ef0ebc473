import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

/// What an outstanding request is for.
enum Purpose: Sendable, Equatable {
    case contractDetails(InstrumentID)
    /// A market rule of the qualified contracts (the start-up's, before the broker's state).
    case marketRule(Int)
    case startupBrokerState
    case beginRun
    case warmupTime
    /// The server's time, which decides the contract month each continuous future starts in.
    case frontMonthTime
    /// The contract details of the month a continuous future moved to.
    case rolledContract(InstrumentID)
    case warmup(InstrumentID)
    /// The warm-up's bars of the month a continuous future left at a roll inside the warm-up's window.
    case warmupMonthLeft(InstrumentID)
    /// The recent bars of the month a continuous future moved to, which measure the roll's gap.
    case rebaseBars(InstrumentID)
    /// A contract month's daily volumes, for the roll by volume.
    case rollVolume(InstrumentID, ContractMonth)
    case journalBeforeReconciliation
    case journalAfterReconciliation
    case resyncExecutions
    case resyncOpenOrders
    case resyncCompletedOrders
    case backfillTime
    case backfillBars(InstrumentID)
    /// The periodic execution sync, asked at this time.
    case executionSync(askedAt: Timestamp)
    /// Executions asked again in a narrower form after TWS did not end a list (`startup`: the start-up waits for
    /// them; else they are applied as they come; `LiveSessionCore+ExecutionRecovery.swift`).
    case narrowedExecutions(startup: Bool)
    case heartbeat
    case stopExecutions
    case stopOpenOrders
    case finalBrokerState
    case positionCheck
    /// The reconciliation gate's look at the broker's positions after a drop (`LiveSessionCore+BookGate.swift`).
    case gatePositions
    /// IB's margin figures, compared with the engine's (`LiveSessionCore+MarginCheck.swift`).
    case marginCheck
    /// A what-if preview before an entry is sent (`SessionSettings.whatIf`).
    case whatIf(EngineCommand)
    /// A step of a ticket session's order (`LiveSessionCore+Ticket.swift`).
    case ticket(TicketStep)
    /// A step of a ticket session's cancel (`LiveSessionCore+TicketCancel.swift`).
    case cancel(CancelStep)
    /// A step of a ticket session's modify (`LiveSessionCore+TicketModify.swift`).
    case modify(ModifyStep)
}

/// A continuous future's daily volumes asked for on a day (the roll by volume): the month held and the next.
struct VolumeCheck: Sendable {
    var day: Int64
    var held: ContractMonth
    var next: ContractMonth
    /// Contracts traded, by month and trading day, as the answers come.
    var volumes: [ContractMonth: [Int64: Int64]] = [:]
}

/// The start-up's progress.
struct Startup: Sendable {
    /// Contracts still to qualify.
    var qualifying: Set<InstrumentID> = []
    /// Each instrument's market rule (its SMART exchange's, else the first listed), from its contract details.
    var marketRules: [InstrumentID: Int] = [:]
    /// Market rules asked for and not yet answered.
    var rulesPending: Set<Int> = []
    /// The broker's state before anything is sent.
    var snapshot: BrokerSnapshot?
    /// The run's namespace is settled (allocated, given, or made up without a journal).
    var namespaceReady = false
    /// Warm-up requests outstanding, and the bars so far.
    var warmupPending = 0
    var warmupStarted = false
    var warmupBars: [(Timestamp, InstrumentID, Bar)] = []
    /// A continuous future's month left at a roll inside the warm-up's window: the month, its roll day, and its bars
    /// once answered (`LiveSessionCore+RollWarmup.swift`).
    var monthsLeft: [InstrumentID: (month: ContractMonth, rollDay: Int64, bars: [Bar])] = [:]
    var warmupCutShort = false
    /// The broker's state, held while its executions are asked again in a narrower form (TWS did not end the list):
    /// the start-up goes on with both once that answers or fails (`LiveSessionCore+ExecutionRecovery.swift`).
    var answersAwaitingExecutions: BrokerAnswers?
    /// The end of the warm-up's history (the server's time floored to a bar boundary); `nil`: the server's time is
    /// unknown and the last bar of each answer is taken as partial.
    var warmupEnd: Timestamp?
    /// The journal's state before the reconciliation (`nil` until read; read only with a journal).
    var journal: JournalRestartData?
    var journalPending = false
    /// The reconciliation's plan while its second journal read is outstanding.
    var restart: RestartPlan?
    /// Order messages wait until the restart reconciliation adopted what the broker holds.
    var defersOrders = false
}

/// A recovery after an outage: steps carried out one after the other; market events wait meanwhile.
struct Recovery: Sendable {
    enum Step: Sendable, Equatable {
        case resynchronize
        /// `since`: back-fill from this bar time rather than the last closed slice (a silent symbol's last bar).
        case backfill(after: String, since: Timestamp? = nil)
        case subscribe(newFeed: Bool)
    }

    var steps: [Step]
    /// The step under way, if one waits for answers.
    var current: Step?
    var resync = Resync()
    var backfill: Backfill?
}

/// A resynchronization's answers (executions and every client's open orders).
struct Resync: Sendable {
    var executions: [TWSExecutionReport]?
    var openOrders: [TWSOpenOrder]?
    /// The orders that ended today: how an order missing from the open orders ended (`[]` when they could not be
    /// had: such an order is then reported, not guessed at).
    var completedOrders: [TWSCompletedOrder]?
    var failed = false
    /// The highest TWS order id sent when the open orders were asked for.
    var cutoff = 0
}

/// A back-fill's progress (up to three rounds, since time passes while paced requests wait).
struct Backfill: Sendable {
    var outage: String
    var round = 0
    var covered: Timestamp
    var plan: BackfillPlan?
    var outstanding = 0
    var fetched: [(InstrumentID, Bar)] = []
    var fed = 0
    var denied = 0
    var first: Timestamp?
    var last: Timestamp?
    var planned = false
    var cutShort = false
}

/// The stop's progress.
struct Stopping: Sendable {
    enum Step: Sendable, Equatable {
        case resynchronizing
        case draining(until: Timestamp)
        case snapshot
    }

    var reason: String
    var step: Step
    var resync = Resync()
    var fast = false
    /// When the stop began, and when it finishes whatever the broker has answered (`SessionSettings.stopLimit`).
    var started: Timestamp
    var deadline: Timestamp?
    /// The latest the drain waits for the answers to orders in flight (`LiveSessionCore.stopSettleLimit`), and whether
    /// its wait was said.
    var settleBy: Timestamp?
    var saidWaiting = false
    /// The stop's flatten (`orders.flattenOnExit`, or the operator's under way when the stop came).
    var flatten: FlattenState?
}

/// Reconnecting with backoff.
struct Reconnect: Sendable {
    /// A connection attempt is under way.
    var attempting = false
    /// When the next attempt starts.
    var at: Timestamp?
    /// The delay after the next failure.
    var delay: TimeSpan = .zero
    /// Why the connection was lost.
    var reason = ""
}

/// The health probe's state.
struct HeartbeatState: Sendable {
    /// When the connection last sent anything.
    var lastHeard: Timestamp?
    /// The probe under way: its tag, deadline and the silence that started it.
    var probe: (tag: SessionTag, deadline: Timestamp, silence: TimeSpan)?
    /// Small requests whose answer times the gateway (reqCurrentTime, reqPositions), by tag: when each was sent.
    var timed: [SessionTag: Timestamp] = [:]
    /// The latest such round trip, and when it was measured (the dashboard's).
    var roundTrip: (span: TimeSpan, at: Timestamp)?
}

/// The reconciler's plan with what the journal knew of each intent.
struct RestartPlan: Sendable {
    var plan: ReconciliationPlan
    var intents: [JournaledIntent]
}

/// Why new entries are paused (the engine refuses new orders while any reason holds; working orders stay).
/// In order of weight: an order refused while several hold says the first.
enum EntryPause: Hashable, Sendable, CaseIterable {
    /// The operator's kill switch (or a flatten): no new orders until resume.
    case operatorKill
    /// The journal failed a write: nothing new is sent until it works again.
    case journal
    /// The engine's positions differ from the broker's (`health.positionMismatch: pause`): an exit sized on the
    /// engine's position could open the opposite one at the broker.
    case positionMismatch
    /// The connection to IB is down longer than the grace period.
    case connectivity
    /// Bars missed during an outage are being replayed.
    case backfill

    /// What an order refused for it says (`nil`: the kill switch's own words).
    var refusal: String? {
        switch self {
        case .operatorKill: nil
        case .journal: "trading paused: the journal cannot be written"
        case .positionMismatch: "trading paused: the broker's positions differ from the bot's"
        case .connectivity: "trading paused: the connection to IB is down"
        case .backfill: "not sent: decided on bars back-filled after an outage"
        }
    }
}
