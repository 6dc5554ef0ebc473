/// A historical-bars query: everything of reqHistoricalData except the request id.
///
/// ```swift
/// let query = TWSHistoricalBarsQuery(contract: aapl, duration: "1 D", barSize: "5 mins")
/// let bars = try await connection.historicalBars(query)
/// ```
public struct TWSHistoricalBarsQuery: Sendable, Equatable, Hashable, Codable {
    /// The contract.
    public var contract: TWSContract
    /// End of the period, e.g. `20250115 16:00:00 US/Eastern`; empty for now (required for keep-up-to-date).
    public var endDateTime: String = ""
    /// Length of the period, e.g. `1 D`, `2 W`, `1 Y`.
    public var duration: String
    /// Bar size, e.g. `5 secs`, `1 min`, `1 day`.
    public var barSize: String
    /// `TRADES`, `MIDPOINT`, `BID`, `ASK`, `BID_ASK`, … (`BID_ASK` counts double for pacing).
    public var whatToShow: String = "TRADES"
    /// Regular trading hours only.
    public var useRTH: Bool = true
    /// 1: `yyyyMMdd HH:mm:ss` text, 2: epoch seconds.
    public var formatDate: Int = 1

    /// Creates a query.
    public init(contract: TWSContract, duration: String, barSize: String) {
        self.contract = contract
        self.duration = duration
        self.barSize = barSize
    }
}
