import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

/// A number the core gives a request, a subscription or an order group, so their answers find their way back.
public struct SessionTag: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The number.
    public var rawValue: Int
    /// Creates a tag.
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (lhs: SessionTag, rhs: SessionTag) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// Everything that happens to a live session, in the order it happened: the core's only inputs.
public enum SessionInput: Sendable, Equatable, Codable {
    /// The run begins: the first connection is opened.
    case start
    /// A connection is ready (the driver numbers its connections: `generation`).
    case connected(SessionConnection)
    /// A connection attempt failed.
    case connectFailed(String)
    /// A connection attempt found nothing answering (refused, timed out, closed during the handshake): TWS / IB
    /// Gateway may still be starting.
    case gatewayUnreachable(String)
    /// The connection of that generation closed (the socket, or its order events ended).
    case connectionClosed(generation: Int, String)
    /// TWS's connection to IB changed (1100 lost, 1101 / 1102 restored) on that generation.
    case connectivity(generation: Int, TWSConnectionState)
    /// A data farm's state (2103–2108, 2157, 2158) on that generation.
    case farm(generation: Int, TWSFarmReport)
    /// IB's warning that the gateway's build will be desupported (2172), on that generation: an ALERT repeated daily
    /// until its date (`DesupportWatch`).
    case desupport(generation: Int, TWSDesupportWarning)
    /// The answer to a request.
    case answer(SessionTag, SessionAnswer)
    /// A request that failed.
    case failed(SessionTag, SessionFailure)
    /// A bar feed's event (bars, closed slices, notices).
    case market(SessionTag, IBMarketDataEvent)
    /// A bar feed failed (`connectionUp`: the socket was still up when it did). The core reads the failure: a 10225
    /// (a bust event) asks for a new subscription; a refusal stops the run with the way out (`MarketDataRefusal`).
    case marketFailed(SessionTag, SessionFailure, connectionUp: Bool)
    /// A bar feed ended, its failure read by the driver (session logs written before `marketFailed`).
    case marketEnded(SessionTag, String, connectionUp: Bool)
    /// A bar feed that TWS deactivated, read by the driver (session logs written before `marketFailed`).
    case marketInterrupted(SessionTag, String)
    /// A quote feed's event.
    case quotes(SessionTag, IBQuoteEvent)
    /// A quote feed ended without a failure, or failed as the driver read it (session logs written before
    /// `quotesFailed`).
    case quotesEnded(SessionTag, String, connectionUp: Bool)
    /// A quote feed failed (`connectionUp`: the socket was still up when it did). The core reads the failure: a line
    /// refused for lack of live permission falls back to delayed data once (`data.delayedFallback`); anything else is
    /// retried with backoff.
    case quotesFailed(SessionTag, SessionFailure, connectionUp: Bool)
    /// An order message of that generation's connection.
    case orderEvent(generation: Int, TWSOrderEvent)
    /// An order group was not sent (its journal write or the send failed).
    case placeFailed(OrderGroup, String)
    /// A cancel or modify could not be sent.
    case orderRequestFailed(brokerOrderID: Int, cancel: Bool, String)
    /// A journal write failed.
    case journalFailed(String)
    /// A journal write succeeded after failed ones (the driver reports the first success after a failure).
    case journalWritable
    /// The clock's tick (every second, and when the core asked for a wake-up).
    case tick
    /// Stop (a signal, `--duration`, the operator); a second stop is a fast stop.
    case stop(String)
    /// An operator's control (pause, resume, kill, flatten); answered with `.reply`.
    case control(OperatorControl)
}

/// A ready connection as the core sees it.
public struct SessionConnection: Sendable, Equatable, Codable {
    /// The driver's number of the connection (1 is the first).
    public var generation: Int
    /// The handshake's result.
    public var info: TWSSessionInfo
    /// The data farms' states TWS reported at connect.
    public var farms: [TWSFarmReport]
    /// This connection's client id.
    public var clientID: Int

    /// Creates a connection.
    public init(generation: Int, info: TWSSessionInfo, farms: [TWSFarmReport] = [], clientID: Int) {
        self.generation = generation
        self.info = info
        self.farms = farms
        self.clientID = clientID
    }
}

/// The answer to a `SessionRequest`.
public enum SessionAnswer: Sendable, Equatable, Codable {
    /// contractDetails.
    case contractDetails([TWSContractDetails])
    /// historicalData.
    case bars([TWSBar])
    /// The broker's state: open orders of every client, completed orders, executions, positions.
    case brokerState(BrokerAnswers)
    /// reqExecutions.
    case executions([TWSExecutionReport])
    /// reqExecutions whose execDetailsEnd did not come within `SessionRequest.executionsWait` (or a request timeout):
    /// the executions that arrived, which may not be all (`LiveSessionCore+ExecutionRecovery.swift`).
    case executionsCutShort([TWSExecutionReport], waited: TimeSpan)
    /// reqAllOpenOrders.
    case openOrders([TWSOpenOrder])
    /// reqCompletedOrders.
    case completedOrders([TWSCompletedOrder])
    /// reqCurrentTime (epoch seconds).
    case serverTime(Int64)
    /// reqPositions.
    case positions([TWSPosition])
    /// What the journal knows for a restart.
    case journalRestart(JournalRestartData)
    /// The run the journal allocated.
    case run(JournalRun)
    /// A what-if preview: the order state TWS answered with.
    case orderPreview(TWSOrderState)
    /// reqAccountSummary: the run's account's values by tag (`NetLiquidation`, `InitMarginReq`, …), as text.
    case accountValues([String: String])
    /// reqMarketRule: the rule's bands, by rising low edge.
    case marketRule([TWSPriceIncrement])
    /// A quote snapshot: prices by tick type number (BID 1, ASK 2, LAST 4, CLOSE 9, their delayed 66, 67, 68, 75).
    case snapshot([Int: Double])
    /// The account's daily P&L, `nil` when TWS sent none in time.
    case dailyPnL(Double?)
    /// The orderRefs the journal knows, of those asked about.
    case journaledRefs([String])
}

/// Why a request failed.
public enum SessionFailure: Sendable, Equatable, Codable, CustomStringConvertible {
    /// TWS answered with an error (the gateway is alive).
    case rejected(code: Int, String)
    /// No answer: timed out, cancelled, not connected, the connection closed, or a local failure.
    case unanswered(String)

    public var description: String {
        switch self {
        case .rejected(_, let text): text
        case .unanswered(let text): text
        }
    }
}

/// What the journal knows that a restart needs, read in one go at start.
public struct JournalRestartData: Sendable, Equatable, Codable {
    /// Every intent with its state.
    public var orders: [JournalOrder] = []
    /// Every fill.
    public var fills: [JournalFill] = []
    /// The latest position snapshot.
    public var latestPositions: [JournalPosition] = []
    /// The account's latest cash checkpoint's configuration and run (whatever its key).
    public var latestCheckpointKey: JournalCheckpointKey?
    /// This configuration's latest cash checkpoint.
    public var cashCheckpoint: JournalCashCheckpoint?
    /// This configuration's latest risk state.
    public var riskState: JournalRiskState?
    /// The account's latest risk state of any configuration.
    public var latestRiskState: JournalRiskState?
    /// Today's order activity and saved order-efficiency counts.
    public var orderActivity = JournalOrderActivity()
    public var orderEfficiency: JournalOrderEfficiency?
    /// The journal's last run when it has no stop event (a crash, `kill -9`, a power loss): what to tell the
    /// operator (`nil`: it stopped cleanly, or there was none).
    public var uncleanStop: String?

    /// Creates empty data.
    public init() {}
}

/// The configuration (run key) and run of a cash checkpoint.
public struct JournalCheckpointKey: Sendable, Hashable, Codable {
    public var runKey: String?
    public var run: Int64?
    /// Creates a key.
    public init(runKey: String?, run: Int64?) {
        self.runKey = runKey
        self.run = run
    }
}
