import Logging
import LiveSession
import TWSClient
import TWSProtocol

/// Market data with the delayed fallback of `data.delayedFallback`: a tick request refused for lack of live
/// permission (354, 10089, 10090, 10091) switches the connection to delayed data (reqMarketDataType 3, which TWS
/// answers with live data where the login has it) and asks once more, saying so in the log.
///
/// Only tick data has a delayed form; 5-second real-time bars do not (see `MarketDataRefusal.stopReason`).
///
/// ```swift
/// let (snapshot, delayed) = try await DelayedFallback.snapshot(connection, contract: contract, allowed: true, logger: logger)
/// ```
public enum DelayedFallback {
    /// One snapshot (reqMktData, snapshot on), falling back to delayed data when refused.
    /// - Parameters:
    ///   - connection: a ready connection.
    ///   - contract: the contract.
    ///   - allowed: `data.delayedFallback`; `false` rethrows the refusal.
    ///   - logger: told of the fallback (notice level).
    /// - Returns: the snapshot and whether the fallback was used.
    /// - Throws: `TWSRequestError`: the refusal when no fallback applies, or the delayed request's error.
    public static func snapshot(
        _ connection: TWSConnection, contract: TWSContract, allowed: Bool, logger: Logger
    ) async throws(TWSRequestError) -> (snapshot: TWSMarketSnapshot, delayed: Bool) {
        do {
            return (try await connection.marketDataSnapshot(contract: contract), false)
        } catch {
            guard allowed, let refusal = MarketDataRefusal.of(error), refusal.fallsBackToDelayed else { throw error }
            logger.notice(
                "market data of \(contract.symbol) refused (\(error.code ?? 0)): no live permission; falling back to delayed data (reqMarketDataType 3)")
            try await connection.setMarketDataType(.delayed)
            return (try await connection.marketDataSnapshot(contract: contract), true)
        }
    }
}
