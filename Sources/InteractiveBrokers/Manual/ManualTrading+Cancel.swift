import Foundation
import JournalModel
import LiveSession
import Storage
import TradingModel
import TWSClient
import TWSProtocol

extension ManualTrading {
    /// Every open order of the account (reqAllOpenOrders: all clients and TWS).
    /// - Throws: `ManualTradingError`.
    public static func openOrders(
        on connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings
    ) async throws(ManualTradingError) -> [ManualOpenOrder] {
        let account = try account(info, settings: settings)
        do {
            return try await connection.allOpenOrders().map(ManualOpenOrder.init)
                .filter { $0.account.isEmpty || $0.account == account }
                .sorted { ($0.permID, $0.orderID) < ($1.permID, $1.orderID) }
        } catch {
            throw .request("\(error)")
        }
    }

    /// Cancels one order (cancelOrder) in a ticket session, and waits until TWS no longer lists it: this client's, or
    /// another API client's (TWS accepts that on the same login) unless `settings.cancelOtherClients` is off.
    /// The journal gets a note (naming the client that placed it), and the order's state when its orderRef is journaled.
    /// - Throws: `ManualTradingError.orderNotFound`, `.otherClient`, `.ambiguousOrderID`, `.account`, `.request`,
    ///   `.journal`.
    public static func cancel(
        _ target: ManualCancelTarget, on connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings
    ) async throws(ManualTradingError) -> ManualCancelResult {
        try await cancelling(target, on: (connection, info, settings))
    }

    /// Cancels every open order of the account, of every client and TWS (reqGlobalCancel), in a ticket session, and
    /// waits until TWS lists none of them.
    /// - Throws: `ManualTradingError.account`, `.request`, `.journal`.
    public static func cancelAll(
        on connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings
    ) async throws(ManualTradingError) -> ManualCancelResult {
        try await cancelling(nil, on: (connection, info, settings))
    }

    private static func cancelling(
        _ target: ManualCancelTarget?, on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings)
    ) async throws(ManualTradingError) -> ManualCancelResult {
        var ticket = SessionTicket(cancelling: target, timeout: TimeSpan(context.settings.timeout))
        ticket.cancelsOtherClients = context.settings.cancelOtherClients
        guard let result = try await runTicket(ticket, symbol: nil, on: context).cancel else {
            throw .request("the cancel's session ended without a result")
        }
        return result
    }
}
