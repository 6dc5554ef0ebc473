import Foundation
import LiveSession
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

extension ManualTrading {
    /// Asks TWS for its what-if preview of an order (placeOrder with `whatIf`) in a ticket session of the core: the
    /// order's start-up, pricing, tick check and risk check, then the preview (margin before, change and after,
    /// equity with loan, commission) instead of the order. TWS answers with one `openOrder` and keeps no order;
    /// nothing is journaled. A risk denial is reported beside the preview.
    /// - Parameters:
    ///   - ticket: the validated order (a bracket's entry alone is previewed).
    ///   - context: the connection, its session, and the settings.
    /// - Throws: `ManualTradingError` for the account rule, an unknown contract, an off-tick price, I/O.
    public static func previewOrder(
        _ ticket: ManualOrderTicket,
        on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings)
    ) async throws(ManualTradingError) -> ManualWhatIfResult {
        let settings = context.settings
        let (ticket, marketTime) = try await atMarketTime(ticket, on: context)
        var preview = SessionTicket(previewing: ticket, risk: settings.risk, timeout: TimeSpan(settings.timeout))
        preview.killSwitchEngaged = settings.killSwitchEngaged
        preview.commissionReserve = settings.commissionReserve
        preview.marketTime = marketTime
        guard let result = try await runTicket(preview, symbol: ticket.symbol, on: context).preview else {
            throw .request("the preview's session ended without a result")
        }
        return result
    }
}
