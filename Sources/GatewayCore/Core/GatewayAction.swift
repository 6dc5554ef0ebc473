import TWSProtocol

/// Identifies one accepted socket (not the TWS clientId).
public typealias ConnectionID = Int

/// What the pure core asks the server edge to do.
public enum GatewayAction: Sendable, Equatable {
    /// Send a message on a connection.
    case send(ConnectionID, TWSResponse)
    /// Close a connection (after sending what came before).
    case close(ConnectionID)
}

/// Errors and texts the simulator sends, in TWS's spelling.
enum TWSErrorText {
    static let noSecurityDefinition = "No security definition has been found for the request"
    static let clientIDInUse = "Unable to connect as the client id is already in use. Retry with a unique client id."
    static let orderCanceled = "Order Canceled - reason:"
    static let pacingViolation = "Historical Market Data Service error message:Pacing violation"
    static let delayed = "Requested market data is not subscribed. Displaying delayed market data."
    static let notSubscribed = "Requested market data is not subscribed. Check API status by selecting the Account "
        + "menu then under Management choose Market Data Subscription Manager and/or Subscribe."
    static func rejected(_ reason: String) -> String { "Order rejected - reason:" + reason }
}
