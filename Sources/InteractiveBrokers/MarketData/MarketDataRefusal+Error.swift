import LiveSession
import TWSClient

extension MarketDataRefusal {
    /// The refusal of an error, when it is one.
    public static func of(_ error: any Error) -> MarketDataRefusal? {
        guard let error = error as? TWSRequestError, case .rejected(let notice) = error else { return nil }
        return MarketDataRefusal(code: notice.code)
    }
}
