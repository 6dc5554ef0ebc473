import TWSProtocol

/// The `fail-quotes` fault: quote lines (reqMktData) that fail while the connection stays up.
extension GatewayState {
    /// TWS's text for 10168.
    public static let delayedNotEnabledText = "Requested market data is not subscribed. Delayed market data is not enabled."

    /// Ends every open reqMktData line with error 10168 and arms the refusal of the next `refusals` requests.
    public mutating func failQuotes(refusals: Int) -> [GatewayAction] {
        pendingFaults.refuseMarketData = max(0, refusals)
        var out: [GatewayAction] = []
        for connection in sessions.keys.sorted() {
            guard let lines = sessions[connection]?.marketLines.keys.sorted() else { continue }
            for requestID in lines {
                out.append(.send(connection, .error(TWSErrorMessage(
                    requestID: requestID, code: 10168, message: Self.delayedNotEnabledText))))
            }
            sessions[connection]?.marketLines.removeAll()
        }
        return out
    }

    /// A reqMktData refused by an armed `fail-quotes` (`nil`: served as usual).
    mutating func refuseMarketDataFault(_ requestID: Int, connection: ConnectionID) -> [GatewayAction]? {
        guard pendingFaults.refuseMarketData > 0 else { return nil }
        pendingFaults.refuseMarketData -= 1
        return [.send(connection, .error(TWSErrorMessage(
            requestID: requestID, code: 10168, message: Self.delayedNotEnabledText)))]
    }
}
