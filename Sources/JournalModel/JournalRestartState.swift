import TradingModel

/// The risk monitor's state as the live runner journals it, so a restart on the same UTC day keeps the daily-loss
/// start, the drawdown high-water mark and any tripped halt (`RiskBaseline` in `TradingEngine`).
///
/// Keyed by account and run key (`RunKey` in `InteractiveBrokers`: strategy, universe, starting capital), like the
/// keyed cash checkpoints: another configuration's equity is in another basis.
public struct JournalRiskState: Hashable, Sendable, Codable {
    /// Journal order (assigned by the journal).
    public var sequence: Int64 = 0
    /// When it was written.
    public var time: Timestamp
    /// The IB account.
    public var account: String
    /// The run configuration's key.
    public var runKey: String
    /// The journal run that wrote it.
    public var run: Int64?
    /// The UTC day (`Timestamp.dayNumber`) the day start belongs to.
    public var day: Int64
    /// The first equity of that day.
    public var dayStartEquity: Money
    /// The highest equity seen.
    public var peakEquity: Money
    /// Entries blocked for the rest of `day`.
    public var dailyLossBreached: Bool
    /// Entries halted by drawdown.
    public var drawdownHalted: Bool
    /// Entries halted by a rapid loss.
    public var rapidLossHalted: Bool

    /// Creates a row.
    public init(
        time: Timestamp, account: String, runKey: String, run: Int64? = nil, day: Int64, dayStartEquity: Money,
        peakEquity: Money, dailyLossBreached: Bool = false, drawdownHalted: Bool = false,
        rapidLossHalted: Bool = false
    ) {
        self.time = time
        self.account = account
        self.runKey = runKey
        self.run = run
        self.day = day
        self.dayStartEquity = dayStartEquity
        self.peakEquity = peakEquity
        self.dailyLossBreached = dailyLossBreached
        self.drawdownHalted = drawdownHalted
        self.rapidLossHalted = rapidLossHalted
    }
}

/// A day's order-efficiency counts of an account as the live runner last knew them (`OrderEfficiencyGuard`),
/// journaled every summary interval and at stop; a restart takes the larger of these and what the journal's
/// intents, statuses and fills show.
public struct JournalOrderEfficiency: Hashable, Sendable, Codable {
    /// When it was written.
    public var time: Timestamp
    /// The IB account (IBKR judges the ratio per account).
    public var account: String
    /// The UTC day counted.
    public var day: Int64
    /// Orders submitted.
    public var submitted: Int
    /// Modifications sent.
    public var modified: Int
    /// Cancels sent.
    public var cancelled: Int
    /// Orders with at least one execution.
    public var executed: Int

    /// Creates a row.
    public init(
        time: Timestamp, account: String, day: Int64, submitted: Int, modified: Int, cancelled: Int, executed: Int
    ) {
        self.time = time
        self.account = account
        self.day = day
        self.submitted = submitted
        self.modified = modified
        self.cancelled = cancelled
        self.executed = executed
    }
}

/// What the journal's own rows show of a day's order activity (`OrderJournal.orderActivity(onDay:account:)`).
public struct JournalOrderActivity: Hashable, Sendable, Codable {
    /// Orders marked submitted (sent to the broker) that day.
    public var submitted: Int
    /// Orders that reached `canceled` that day (broker-side cancels and abandoned intents too: the strict side).
    public var cancelled: Int
    /// Orders with a fill that day (an order counts once).
    public var executed: Int

    /// Creates counts.
    public init(submitted: Int = 0, cancelled: Int = 0, executed: Int = 0) {
        self.submitted = submitted
        self.cancelled = cancelled
        self.executed = executed
    }
}
