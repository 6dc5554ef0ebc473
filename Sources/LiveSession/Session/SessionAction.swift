import Logging
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

/// What the core asks the driver to do, in order. The driver only does I/O: it carries each action out and feeds
/// what comes of it back as `SessionInput`s.
public enum SessionAction: Sendable, Equatable, Codable {
    /// Open a new connection (its readiness comes back as `.connected` or `.connectFailed`).
    case connect
    /// Close the current connection (a gateway that stopped answering).
    case disconnect(String)
    /// Send a request; its answer comes back as `.answer` or `.failed` with the tag.
    case request(SessionTag, SessionRequest)
    /// Cancel a request or end a subscription.
    case cancel(SessionTag)
    /// Subscribe 5-second bars; events come back as `.market` with the tag.
    case subscribeBars(SessionTag, RealTimeBarSubscription, ContractBook)
    /// Subscribe quotes (reqMktData); events come back as `.quotes` with the tag.
    case subscribeQuotes(SessionTag, [InstrumentID], ContractBook)
    /// reqMarketDataType.
    case setMarketDataType(TWSMarketDataType)
    /// Journal the group's intents, then send its orders, then journal them as sent; a failure comes back as
    /// `.placeFailed`.
    case place(OrderGroup)
    /// cancelOrder; a failure to send it comes back as `.orderRequestFailed`.
    case cancelOrder(brokerOrderID: Int)
    /// reqGlobalCancel: every open order of the account, of every client and TWS.
    case globalCancel
    /// placeOrder again with new terms.
    case modifyOrder(brokerOrderID: Int, TWSOrder, TWSContract)
    /// Write to the journal; a failure comes back as `.journalFailed`.
    case journal(JournalWrite)
    /// A log record.
    case log(Logger.Level, String)
    /// A milestone for observers (a status display, a test).
    case milestone(SessionMilestone)
    /// An engine event handled (after its commands), with the engine's orders in flight (`OrderManager.inFlightCount`):
    /// for observers.
    case engineEvent(EngineEvent, ordersInFlight: Int)
    /// Tick at this time (besides the regular ticks).
    case wakeUp(at: Timestamp)
    /// The answer to an operator's control.
    case reply(OperatorReply)
    /// The run is over.
    case finish(LiveRunSummary)
    /// The run cannot start or go on.
    case fail(LiveRunnerError)
}

/// A request whose answer the core waits for.
public enum SessionRequest: Sendable, Equatable, Codable {
    /// contractDetails of a contract.
    case contractDetails(TWSContract)
    /// TWS's what-if preview of an order (placeOrder with `whatIf`; nothing is placed).
    case whatIf(TWSOrder, TWSContract)
    /// Historical bars.
    case historicalBars(TWSHistoricalBarsQuery)
    /// The broker's state: reqAllOpenOrders, reqCompletedOrders, reqExecutions, reqPositions. The executions and the
    /// completed orders never fail it: what TWS did not finish is named in the answer (`BrokerAnswers.shortfalls`).
    case brokerState
    /// reqExecutions.
    case executions
    /// reqExecutions of the executions at or after a time (the filter's `time`, sent as UTC): the periodic sync's
    /// look-back, so it reads the last minutes' executions instead of the whole day's every 30 seconds.
    case executionsSince(Timestamp)
    /// reqExecutions narrowed to an account, and a symbol and a lower time bound when given (sent as UTC): the form
    /// asked again after TWS did not end a list (`LiveSessionCore+ExecutionRecovery.swift`), and a ticket's own read.
    case executionsOf(account: String, symbol: String?, since: Timestamp?)
    /// reqAllOpenOrders.
    case openOrders
    /// reqCompletedOrders: the orders that ended today, with the state they ended in.
    case completedOrders
    /// reqCurrentTime.
    case serverTime
    /// reqPositions: the account's positions.
    case positions
    /// reqAccountSummary of the margin figures (`LiveSessionCore+MarginCheck.swift`).
    case accountValues
    /// reqMarketRule: a market rule's price increments (the start-up's, for order prices on the tick).
    case marketRule(Int)
    /// A snapshot of a contract's quote (reqMktData with snapshot, delayed where live is not subscribed): a manual
    /// order's reference price.
    case snapshot(TWSContract)
    /// The account's first P&L update (reqPnL), waited for up to `within` (TWS sends P&L only for accounts it
    /// tracks): a manual order's daily-loss check.
    case dailyPnL(account: String, within: TimeSpan)
    /// The journal's restart data for this account and configuration, on the day given (UTC day number).
    case journalRestart(account: String, runKey: String, day: Int64)
    /// A new run in the journal, numbered above `floor`.
    case beginRun(account: String, floor: Int64, at: Timestamp)
    /// Which of these orderRefs the journal knows (a manual cancel journals only those).
    case journaledRefs([String])
}

extension SessionRequest {
    /// How long an execution request waits for execDetailsEnd before what arrived is answered as cut short
    /// (`SessionAnswer.executionsCutShort`), or the connection's request timeout when that is shorter. TWS ends an
    /// execution list within a second or two; it may never end one whose filter is all blank.
    public static let executionsWait = TimeSpan.seconds(15)
}

/// A write to the order journal.
public enum JournalWrite: Sendable, Equatable, Codable {
    /// A status change of an intent.
    case status(JournalStatusUpdate)
    /// An execution as it arrived (by execId), with its commission when known.
    case execution(BrokerExecution, commission: Money?)
    /// A commission report, joined to its execution by execId.
    case commission(executionID: String, Money, at: Timestamp)
    /// The broker's execution list: each execution journaled once, with its commission.
    case executions(BrokerSnapshot, at: Timestamp)
    /// A free-form event.
    case event(JournalEventKind, String, at: Timestamp)
    /// The broker's positions.
    case positions([JournalPosition], at: Timestamp)
    /// An intent (an unknown order adopted at start).
    case intent(JournalIntent)
    /// A modification, before it is sent: the intent's new terms and its count of modifications.
    case modification(JournalModification)
    /// The engine's cash at a fill, for the next restart.
    case cashCheckpoint(JournalCashCheckpoint, runKey: String)
    /// The risk monitor's baseline.
    case riskState(JournalRiskState)
    /// Today's order-efficiency counts.
    case orderEfficiency(JournalOrderEfficiency)
    /// A WAL checkpoint of a manual journal (the 1-second tick).
    case checkpoint
}

/// What observers are told.
public enum SessionMilestone: Sendable, Equatable, Codable {
    /// Subscribed, reconnected.
    case runner(LiveRunnerMilestone)
    /// Pauses, resynchronizations, back-fills, health.
    case connectivity(ConnectivityMilestone)
}
