import Foundation
import LiveSession
import Storage
import TWSClient
import TWSProtocol
import TradingModel

/// `HistoricalBarSource` over a TWS connection: one reqHistoricalData per chunk, with an explicit UTC end
/// (`yyyyMMdd-HH:mm:ss`) and epoch-second dates (formatDate 2), so no bar is ever read in a local time zone.
///
/// Daily and longer bars come back as `yyyyMMdd` and are stored at midnight UTC of that date; intraday bars at
/// their epoch second (IB labels a bar with its start).
public struct TWSHistoricalBarSource: HistoricalBarSource {
    /// The connection.
    let connection: TWSConnection
    /// Qualified contracts by the symbol the user typed.
    let contracts: [Symbol: TWSContract]

    /// A source over `connection` for these qualified contracts.
    public init(connection: TWSConnection, contracts: [Symbol: TWSContract]) {
        self.connection = connection
        self.contracts = contracts
    }

    public func bars(for request: HistoricalChunkRequest) async throws(HistoricalSourceError) -> [Bar] {
        guard let contract = contracts[request.series.symbol] else {
            throw .failed("\(request.series.symbol) was not qualified")
        }
        var query = TWSHistoricalBarsQuery(
            contract: contract, duration: request.duration, barSize: request.series.barSize.text)
        query.endDateTime = TWSTimeParser.utcText(request.end)
        query.whatToShow = request.series.whatToShow
        query.useRTH = request.series.regularHoursOnly
        query.formatDate = 2
        let wire: [TWSBar]
        do throws(TWSRequestError) {
            wire = try await connection.historicalBars(query)
        } catch {
            throw Self.classify(error)
        }
        return try Self.bars(from: wire)
    }

    /// 162 "pacing violation" → wait and retry; 162 "returned no data" → an empty chunk; anything else stops.
    static func classify(_ error: TWSRequestError) -> HistoricalSourceError {
        if case .rejected(let notice) = error, notice.code == 162 {
            let text = notice.message.lowercased()
            if text.contains("pacing violation") { return .pacingViolation(notice.message) }
            if text.contains("returned no data") || text.contains("no data") { return .noData }
        }
        return .failed("\(error)")
    }

    /// Converts wire bars; a date or number that cannot be read exactly is an error, never a default.
    static func bars(from wire: [TWSBar]) throws(HistoricalSourceError) -> [Bar] {
        var bars: [Bar] = []
        bars.reserveCapacity(wire.count)
        for bar in wire {
            guard let time = barTime(bar.date) else { throw .failed("unreadable bar date '\(bar.date)'") }
            let prices = [bar.open, bar.high, bar.low, bar.close]
            guard prices.allSatisfy({ $0.isFinite && abs($0) < 90_000_000 }) else {
                throw .failed("unreadable prices in the bar of \(bar.date)")
            }
            var volume = Quantity.zero
            if let v = bar.volume, v > 0 {
                guard let q = Quantity("\(v)") else {
                    throw .failed("unreadable volume '\(v)' in the bar of \(bar.date)")
                }
                volume = q
            }
            bars.append(
                Bar(
                    timestamp: time, open: Price(approximately: bar.open), high: Price(approximately: bar.high),
                    low: Price(approximately: bar.low), close: Price(approximately: bar.close), volume: volume))
        }
        return bars.sorted { $0.timestamp < $1.timestamp }
    }

    /// `yyyyMMdd` (midnight UTC), epoch seconds, or `yyyyMMdd HH:mm:ss[ ZONE]` (no zone: UTC; a named zone such as
    /// `US/Eastern` is converted with its offset on that date, DST included): the live session's parser, so a date
    /// outside 1970…2200 or an impossible day is `nil`, never a trap.
    static func barTime(_ text: String) -> Timestamp? {
        try? TWSTimeParser.timestamp(text)
    }
}
