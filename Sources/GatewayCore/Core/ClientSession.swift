import TWSProtocol
import TradingModel

/// One connected API client and its subscriptions. Dropped with the socket; account and orders are not.
struct ClientSession: Sendable {
    /// A streaming market data line.
    struct MarketLine: Sendable {
        var instrument: InstrumentID
        var delayed: Bool
        var rtVolume: Bool
        var last: SimulatedQuote?
        /// The day's complete bars, folded once for the line's session statistics.
        var day = SessionDay()
    }

    /// A historical request kept up to date.
    struct HistoryUpdates: Sendable {
        var instrument: InstrumentID
        var query: HistoricalQuery
        var lastSent: TWSBar?
    }

    /// A real-time bars subscription.
    struct RealTimeBars: Sendable {
        var instrument: InstrumentID
        /// A 5-second query (parsed once) whose `makeBar` gives each bar.
        var query: HistoricalQuery
        /// Stalled by the `stall-feed` fault: open, and silent.
        var silent = false
    }

    let connection: ConnectionID
    let clientID: Int
    let serverVersion: Int
    var marketDataType = 1
    var marketLines: [Int: MarketLine] = [:]
    var historyUpdates: [Int: HistoryUpdates] = [:]
    var realTimeBars: [Int: RealTimeBars] = [:]
    /// The account reqAccountUpdates subscribed to (one at a time, as in TWS).
    var accountUpdates: String?
    var positions = false
    var accountSummaries: [Int: [String]] = [:]
    /// reqPnL subscriptions: their accounts by request id.
    var pnl: [Int: String] = [:]
    /// reqPnLSingle subscriptions: account and instrument by request id.
    var pnlSingle: [Int: (account: String, instrument: InstrumentID)] = [:]
    /// Historical requests by wall time (seconds) and signature, for the pacing rules.
    var historyLog: [(time: Double, signature: String, contract: String)] = []
}
