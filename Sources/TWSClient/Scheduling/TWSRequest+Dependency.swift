import TWSProtocol

extension TWSRequest {
    /// The request or order this message belongs to, so its cancel is never sent before it.
    var dependency: OutboundDependency? {
        switch self {
        case .placeOrder(let orderID, _, _), .cancelOrder(let orderID, _):
            return .order(orderID)
        case .globalCancel:
            return .allOrders
        case .contractDetails(let requestID, _), .cancelMarketData(let requestID), .cancelRealTimeBars(let requestID),
            .cancelHistoricalData(let requestID), .accountSummary(let requestID, _, _),
            .cancelAccountSummary(let requestID), .executions(let requestID, _), .pnl(let requestID, _, _),
            .cancelPnL(let requestID), .pnlSingle(let requestID, _, _, _), .cancelPnLSingle(let requestID),
            .accountUpdatesMulti(let requestID, _, _, _):
            return .request(requestID)
        case .marketData(let request):
            return .request(request.requestID)
        case .realTimeBars(let request):
            return .request(request.requestID)
        case .historicalData(let request):
            return .request(request.requestID)
        case .positions, .cancelPositions:
            return .topic("positions")
        case .accountUpdates(_, let account):
            return .topic("accountUpdates:\(account)")
        case .startAPI, .requestIDs, .currentTime, .currentTimeInMillis, .managedAccounts, .marketDataType,
            .openOrders, .allOpenOrders, .autoOpenOrders, .completedOrders, .marketRule:
            return nil
        }
    }
}
