import TWSProtocol

extension InboundClassifier {
    /// Routes a decoded response; the same disposition `classify(_:serverVersion:)` reads from its payload
    /// (`InboundClassifierTests` checks both agree on every vector).
    /// - Parameters:
    ///   - response: the decoded message.
    ///   - serverVersion: the negotiated version (historicalData ends itself below 196).
    /// - Returns: what the connection does with it.
    static func disposition(of response: TWSResponse, serverVersion: Int) -> InboundDisposition {
        switch response {
        case .tickPrice(let tick): return .data(.request(tick.requestID))
        case .tickSize(let id, _, _), .tickString(let id, _, _), .tickGeneric(let id, _, _),
            .tickRequestParameters(let id, _, _, _), .marketDataType(let id, _), .realTimeBar(let id, _),
            .accountSummary(let id, _, _, _, _), .contractDetails(let id, _), .historicalDataUpdate(let id, _),
            .pnl(let id, _, _, _):
            return .data(.request(id))
        case .pnlSingle(let pnl): return .data(.request(pnl.requestID))
        case .tickSnapshotEnd(let id), .executionDetailsEnd(let id), .accountSummaryEnd(let id),
            .contractDetailsEnd(let id), .accountUpdateMultiEnd(let id), .historicalDataEnd(let id, _, _):
            return .end(.request(id))
        case .historicalData(let id, _, _, _):
            let key = RouteKey.request(id)
            return serverVersion >= TWSServerVersion.historicalDataEnd ? .data(key) : .dataThenEnd(key)
        case .currentTime: return .data(.currentTime)
        case .currentTimeInMillis: return .data(.currentTimeInMillis)
        case .openOrderEnd: return .end(.openOrders)
        case .completedOrder: return .data(.completedOrders)
        case .completedOrdersEnd: return .end(.completedOrders)
        case .position: return .data(.positions)
        case .positionEnd: return .end(.positions)
        case .accountValue, .portfolioValue, .accountTime: return .data(.accountUpdates)
        case .accountDownloadEnd: return .end(.accountUpdates)
        case .marketRule(let ruleID, _): return .data(.marketRule(ruleID))
        case .nextValidID(let orderID): return .nextValidID(orderID)
        case .managedAccounts(let list):
            return .managedAccounts(list.split(separator: ",").map(String.init).filter { !$0.isEmpty })
        case .error(let message): return .error(notice(message))
        case .orderStatus(let status): return .orderEvent(orderID: status.orderID, isOpenOrder: false)
        case .openOrder(let order): return .orderEvent(orderID: order.order.orderID, isOpenOrder: true)
        case .executionDetails(let id, _, _): return .execution(requestID: id)
        case .commissionReport: return .commissionReport
        }
    }

    /// An errMsg as a notice. The classifier reads an empty JSON as `nil` and an empty or unset (`Int64.max`) error
    /// time as `nil`; the decoder reads them as `""` and `0` / `Int64.max`.
    static func notice(_ message: TWSErrorMessage) -> TWSNotice {
        var time = message.errorTime
        if time == 0 || time == Int64.max { time = nil }
        return TWSNotice(
            requestID: message.requestID, code: message.code, message: message.message,
            advancedOrderRejectJSON: message.advancedOrderRejectJSON.isEmpty ? nil : message.advancedOrderRejectJSON,
            errorTimeMilliseconds: time
        )
    }
}
