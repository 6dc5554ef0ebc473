/// What a market data refusal from TWS means, and what the bot does about it. Pure: the session core decides with
/// it (a refused bar feed stops the run; a refused quote line falls back to delayed data), in the session log and
/// replay.
///
/// The decision (docs/live-trading.md): a refused *tick* request (reqMktData) falls back to delayed data
/// (reqMarketDataType 3) when `data.delayedFallback` is on; refused *5-second real-time bars* — which have no
/// delayed form — stop the run with the reason and the way out, rather than trade on polled or 15-minute-old bars.
public enum MarketDataRefusal: Sendable, Equatable {
    /// No permission for live data; TWS says delayed data exists for it (10089, 10090, 10091) or may (354).
    case notSubscribed(code: Int, delayedAvailable: Bool)
    /// No permission and no delayed data either (10168 delayed not enabled, 10186 not available).
    case noDataAtAll(code: Int)
    /// Another session of this login takes the live data (10197).
    case competingSession
    /// TWS is already showing delayed data (10167): a notice, not a refusal.
    case showingDelayed
    /// The real-time bar query was refused (420: pacing or permission).
    case invalidRealTimeQuery

    /// Classifies an errMsg code; `nil` for codes that are not about market data permissions.
    public init?(code: Int) {
        switch code {
        case 354: self = .notSubscribed(code: code, delayedAvailable: true)
        case 10089, 10090, 10091: self = .notSubscribed(code: code, delayedAvailable: true)
        case 10168, 10186: self = .noDataAtAll(code: code)
        case 10197: self = .competingSession
        case 10167: self = .showingDelayed
        case 420: self = .invalidRealTimeQuery
        default: return nil
        }
    }

    /// Whether a tick request refused this way is worth retrying with delayed data (reqMarketDataType 3).
    public var fallsBackToDelayed: Bool {
        if case .notSubscribed(_, true) = self { return true }
        return false
    }

    /// Why a run stops when its 5-second bars are refused, with the way out.
    /// - Parameters:
    ///   - failure: how the subscription failed.
    ///   - delayedFallback: `data.delayedFallback` (said not to apply to bars).
    public static func stopReason(_ failure: SessionFailure, delayedFallback: Bool) -> String {
        guard case .rejected(let code, let error) = failure, let refusal = MarketDataRefusal(code: code) else {
            return "\(failure)"
        }
        let fallback =
            delayedFallback
            ? " data.delayedFallback does not apply: 5-second real-time bars have no delayed form, and the bot does not trade on 15-minute-old data."
            : ""
        switch refusal {
        case .notSubscribed(let code, _), .noDataAtAll(let code):
            return "5-second bars refused (\(code)): this login has no live market data permission for the instrument. "
                + "Subscribe to the exchange's data for API use in Client Portal (a paper account shares the live account's subscriptions), "
                + "or run against the simulator (--simulated).\(fallback) [\(error)]"
        case .competingSession:
            return "5-second bars refused (10197): another session of this login (TWS, the mobile app, another gateway) takes the live data; "
                + "log out of it or move the data subscription to this session. [\(error)]"
        case .invalidRealTimeQuery:
            return "5-second bars refused (420): no permission for real-time bars of the instrument, or too many requests.\(fallback) [\(error)]"
        case .showingDelayed:
            return "\(error)"
        }
    }
}
