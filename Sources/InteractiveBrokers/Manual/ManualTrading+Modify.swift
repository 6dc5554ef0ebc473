import Foundation
import JournalModel
import LiveSession
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

extension ManualTrading {
    /// Modifies a working order of this client in a ticket session of the core (`LiveSessionCore+TicketModify.swift`):
    /// placeOrder again with the same order id and the changed terms, as the bot's order desk modifies
    /// (`OrderMapping.modified`).
    ///
    /// Order of work: account rule (a live account needs confirmation) → the order at the broker (reqAllOpenOrders;
    /// only the client that placed it can modify it) → the change checked against its type, new prices against its
    /// contract's tick → the engine's risk rules on the order as modified, exactly as `placeOrder` checks a new order
    /// (denial: journaled as a `risk-denial` event, nothing sent) → journal: a note with the old and new terms and, for
    /// a journaled orderRef, a `pendingReplace` status, before anything is sent → placeOrder with the same id → wait
    /// until TWS echoes the new terms (openOrder) or refuses (errMsg for the id; the order then keeps its old terms) →
    /// the outcome journaled.
    /// - Parameters:
    ///   - orderID: TWS's order id (of this connection's client id).
    ///   - modification: the validated change.
    ///   - context: the connection, its session, and the settings.
    /// - Returns: the result (denials and rejections are results).
    /// - Throws: `ManualTradingError` for the account rule, an order not found or of another client, a change that
    ///   does not fit the order, I/O.
    public static func modifyOrder(
        _ orderID: Int, modification: ManualModification,
        on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings)
    ) async throws(ManualTradingError) -> ManualModifyResult {
        let settings = context.settings
        var ticket = SessionTicket(
            modifying: orderID, with: modification, risk: settings.risk, timeout: TimeSpan(settings.timeout))
        ticket.killSwitchEngaged = settings.killSwitchEngaged
        ticket.commissionReserve = settings.commissionReserve
        // The order may be a future's: its contract month's roll day is compared with the gateway's time.
        ticket.marketTime = (try? await context.connection.currentTime()).map { Timestamp(seconds: $0) }
        guard let result = try await runTicket(ticket, symbol: nil, on: context).modify else {
            throw .request("the modify's session ended without a result")
        }
        return result
    }
}
