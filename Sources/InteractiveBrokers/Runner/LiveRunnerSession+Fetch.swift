import Logging
import TWSClient
import TWSProtocol
import TradingModel

// Historical requests a stop does not wait for. The warm-up and the back-fill send one request per instrument (and
// per chunk); under IB's pacing (60 in 10 minutes) a large universe takes many minutes, and a stop asked for
// meanwhile (Ctrl-C, SIGTERM, `--duration`) must not wait for them: the requests are cancelled, what came is kept.
extension Session {
    /// One historical request of the warm-up or back-fill, with what to name in a warning.
    struct HistoricalFetch: Sendable {
        var id: InstrumentID
        var query: TWSHistoricalBarsQuery
        /// What failed, in a warning ("warm-up bars of AAPL").
        var what: String
    }

    /// Sends the requests one after another and returns each one's bars (failed ones are logged and left out).
    /// - Returns: `nil` when a stop was asked for first: the request under way is cancelled (at TWS too), the rest
    ///   are not sent.
    func fetchUnlessStopped(
        _ fetches: [HistoricalFetch], _ connection: TWSConnection
    ) async -> [(InstrumentID, [TWSBar])]? {
        let logger = self.logger
        let activity = self.activity
        let work: @Sendable () async -> [(InstrumentID, [TWSBar])] = {
            var fetched: [(InstrumentID, [TWSBar])] = []
            for fetch in fetches {
                if Task.isCancelled { break }
                do {
                    fetched.append((fetch.id, try await connection.historicalBars(fetch.query)))
                } catch {
                    if !Task.isCancelled { logger.warning("\(fetch.what) failed: \(error)") }
                }
                activity.mark(inbound: false)  // a paced fetch is progress, not a stuck loop (LoopWatchdog)
            }
            return fetched
        }
        guard let stopFlag else { return await work() }
        if stopFlag.isSet { return nil }
        return await withTaskGroup(of: [(InstrumentID, [TWSBar])]?.self) { group in
            group.addTask { await work() }
            group.addTask {
                await stopFlag.wait()
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
