import Foundation
import Logging
import LiveSession
import Storage
import TWSClient
import TWSProtocol
import TradingModel

/// The warm-up's (and back-fill's) historical bars with a local bar store in front of IB (`data.store`): the bars
/// the store holds for the request's span are read from it, IB is asked only for those after the store's last bar,
/// and what IB sends is added to the store, so the next start asks for less. The session core sees one answer, as
/// if IB had sent it all (its log, and so `replay`, are unchanged).
///
/// The store is used for TRADES bars with an explicit end (the warm-up's and back-fill's), when its bars reach back
/// to the start of the span (a few days' slack for weekends and holidays); otherwise IB is asked for everything, and
/// the answer still goes into the store.
struct StoredHistory: Sendable {
    let store: BarStore
    let logger: Logger

    /// How far after the span's start the store's first bar may be and still count as covering it.
    static let slack: TimeSpan = .days(4)

    /// The bars of `query`: the store's, then IB's after them.
    func bars(_ query: TWSHistoricalBarsQuery, on connection: TWSConnection) async throws(TWSRequestError) -> [TWSBar] {
        guard query.whatToShow.uppercased() == "TRADES", let size = BarSize(query.barSize),
            let duration = HistoricalDuration(query.duration),
            let end = try? TWSTimeParser.timestamp(query.endDateTime), !query.contract.symbol.isEmpty
        else { return try await connection.historicalBars(query) }
        let symbol = Symbol(query.contract.symbol)
        let start = end - duration.span
        let stored = (try? store.bars(symbol: symbol, barSize: size, in: start..<end)) ?? []
        guard let first = stored.first, let last = stored.last, first.timestamp <= start + Self.slack else {
            let fetched = try await connection.historicalBars(query)
            save(fetched, symbol: symbol, size: size)
            return fetched
        }
        let missing = end.nanoseconds - (last.timestamp.nanoseconds + size.nominalSeconds * Timestamp.nanosecondsPerSecond)
        var fetched: [TWSBar] = []
        if missing > 0 {
            var tail = query
            tail.duration = Self.duration(covering: missing / Timestamp.nanosecondsPerSecond, size: size)
            fetched = try await connection.historicalBars(tail).filter { bar in
                (try? TWSTimeParser.timestamp(bar.date)).map { $0 > last.timestamp } ?? false
            }
            save(fetched, symbol: symbol, size: size)
        }
        let asked =
            missing > 0
            ? "\(Self.duration(covering: missing / Timestamp.nanosecondsPerSecond, size: size)) asked for instead of \(query.duration)"
            : "none asked for"
        logger.info(
            "\(symbol): \(stored.count) bars of \(query.barSize) from the bar store, \(fetched.count) from IB (\(asked))")
        return stored.map { Self.wire($0, size: size) } + fetched
    }

    /// IB's duration for the seconds after the store's last bar: seconds up to a day, else whole days (rounded up).
    static func duration(covering seconds: Int64, size: BarSize) -> String {
        let needed = max(seconds, size.nominalSeconds)
        if needed <= 86_400, !size.isDailyOrLonger { return "\(needed) S" }
        return "\((needed + 86_399) / 86_400) D"
    }

    /// A stored bar as TWS would send it (epoch seconds; a daily bar's date as `yyyyMMdd`).
    static func wire(_ bar: Bar, size: BarSize) -> TWSBar {
        let seconds = bar.timestamp.nanoseconds / Timestamp.nanosecondsPerSecond
        let date: String
        if size.isDailyOrLonger {
            let (y, m, d) = bar.timestamp.civilDate
            date = String(format: "%04d%02d%02d", y, m, d)
        } else {
            date = String(seconds)
        }
        return TWSBar(
            date: date, open: bar.open.doubleValue, high: bar.high.doubleValue, low: bar.low.doubleValue,
            close: bar.close.doubleValue, volume: Decimal(string: bar.volume.description), wap: nil, barCount: 0)
    }

    /// IB's bars into the store; a bar that does not map is left out (the core reports it), a failed write logged.
    private func save(_ bars: [TWSBar], symbol: Symbol, size: BarSize) {
        let mapped = bars.compactMap { try? BarMapping.bar($0) }
        guard !mapped.isEmpty else { return }
        do { try store.upsert(mapped, symbol: symbol, barSize: size) } catch {
            logger.warning("bar store \(store.path): \(error) (the warm-up goes on without saving)")
        }
    }
}
