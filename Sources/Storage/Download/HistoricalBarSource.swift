import TradingModel

/// Where a download gets its bars: TWS in `ibtrader data download`, a fake in tests.
public protocol HistoricalBarSource: Sendable {
    /// The bars of one request, oldest first, with UTC timestamps (daily bars at midnight UTC of their date).
    /// - Throws: `HistoricalSourceError`.
    func bars(for request: HistoricalChunkRequest) async throws(HistoricalSourceError) -> [Bar]
}
