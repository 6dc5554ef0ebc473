import Foundation
import TWSProtocol

/// The requests of `ibapi_vectors.py`'s `REQUESTS`, by name, built as IBTrader builds them. Values mirror the
/// script's (clientId 7, AAPL STK SMART USD with conId 265598, an ES future).
enum OfficialRequestCases {
    static func aapl(_ contractID: Int = 265_598) -> TWSContract {
        var contract = TWSContract()
        contract.contractID = contractID
        contract.symbol = "AAPL"
        contract.securityType = "STK"
        contract.exchange = "SMART"
        contract.currency = "USD"
        return contract
    }

    static var future: TWSContract {
        var contract = TWSContract()
        contract.symbol = "ES"
        contract.securityType = "FUT"
        contract.lastTradeDateOrContractMonth = "202603"
        contract.multiplier = "50"
        contract.exchange = "CME"
        contract.currency = "USD"
        contract.localSymbol = "ESH6"
        contract.tradingClass = "ES"
        return contract
    }

    static var limitOrder: TWSOrder {
        var order = TWSOrder()
        order.action = "BUY"
        order.totalQuantity = 100
        order.orderType = "LMT"
        order.limitPrice = 190.25
        order.timeInForce = "DAY"
        return order
    }

    static var marketOrder: TWSOrder {
        var order = TWSOrder()
        order.action = "SELL"
        order.totalQuantity = Decimal(string: "2.5")
        order.orderType = "MKT"
        order.timeInForce = "GTC"
        order.account = "DU123"
        order.orderRef = "ibtrader:sma:1"
        order.outsideRTH = true
        return order
    }

    static var algoOrder: TWSOrder {
        var order = TWSOrder()
        order.action = "BUY"
        order.totalQuantity = 10
        order.orderType = "LMT"
        order.limitPrice = 4999.75
        order.timeInForce = "DAY"
        order.algoStrategy = "Adaptive"
        order.algoParams = [TWSTagValue("adaptivePriority", "Normal")]
        order.parentID = 41
        order.ocaGroup = "oca1"
        order.usePriceManagementAlgo = true
        return order
    }

    static var stopOrder: TWSOrder {
        var order = TWSOrder()
        order.action = "SELL"
        order.totalQuantity = 100
        order.orderType = "STP"
        order.auxPrice = 180.5
        order.timeInForce = "DAY"
        order.parentID = 42
        order.transmit = false
        return order
    }

    static var filterAll: TWSExecutionFilter {
        var filter = TWSExecutionFilter()
        filter.clientID = 7
        filter.accountCode = "DU123"
        filter.symbol = "AAPL"
        filter.securityType = "STK"
        filter.side = "BUY"
        filter.time = "20250115 09:30:00"
        return filter
    }

    static var filterDays: TWSExecutionFilter {
        var filter = TWSExecutionFilter()
        filter.lastNDays = 2
        filter.specificDates = [20_250_115, 20_250_116]
        return filter
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    static func request(named name: String) -> TWSRequest? {
        switch name {
        case "startApi": return .startAPI(clientID: 7, optionalCapabilities: "")
        case "reqIds": return .requestIDs(count: -1)
        case "reqCurrentTime": return .currentTime
        case "reqCurrentTimeInMillis": return .currentTimeInMillis
        case "reqManagedAccts": return .managedAccounts
        case "reqContractDetails": return .contractDetails(requestID: 11, contract: aapl(0))
        case "reqContractDetailsFuture": return .contractDetails(requestID: 12, contract: future)
        case "reqMktData":
            return .marketData(TWSMarketDataRequest(requestID: 5, contract: aapl(), genericTickList: "233"))
        case "reqMktDataSnapshot":
            return .marketData(TWSMarketDataRequest(requestID: 6, contract: future, snapshot: true))
        case "cancelMktData": return .cancelMarketData(requestID: 5)
        case "reqMarketDataType": return .marketDataType(3)
        case "reqRealTimeBars":
            return .realTimeBars(TWSRealTimeBarsRequest(requestID: 6, contract: aapl(), barSize: 5, whatToShow: "TRADES",
                                                        useRTH: true))
        case "cancelRealTimeBars": return .cancelRealTimeBars(requestID: 6)
        case "reqHistoricalData":
            return .historicalData(TWSHistoricalDataRequest(
                requestID: 7, contract: aapl(), endDateTime: "20250115 16:00:00 US/Eastern", durationString: "1 D",
                barSizeSetting: "1 min", whatToShow: "TRADES", useRTH: true, formatDate: 2))
        case "reqHistoricalDataKeepUp":
            return .historicalData(TWSHistoricalDataRequest(
                requestID: 8, contract: aapl(), endDateTime: "", durationString: "2 D", barSizeSetting: "5 mins",
                whatToShow: "MIDPOINT", useRTH: false, formatDate: 1, keepUpToDate: true))
        case "cancelHistoricalData": return .cancelHistoricalData(requestID: 7)
        case "placeOrderLimit": return .placeOrder(orderID: 42, contract: aapl(), order: limitOrder)
        case "placeOrderMarket": return .placeOrder(orderID: 43, contract: aapl(), order: marketOrder)
        case "placeOrderAlgo": return .placeOrder(orderID: 44, contract: future, order: algoOrder)
        case "placeOrderStop": return .placeOrder(orderID: 45, contract: aapl(), order: stopOrder)
        case "cancelOrder": return .cancelOrder(orderID: 42, TWSOrderCancel())
        case "reqOpenOrders": return .openOrders
        case "reqAllOpenOrders": return .allOpenOrders
        case "reqAutoOpenOrders": return .autoOpenOrders(autoBind: true)
        case "reqPositions": return .positions
        case "cancelPositions": return .cancelPositions
        case "reqAccountUpdates": return .accountUpdates(subscribe: true, accountCode: "DU123")
        case "reqAccountUpdatesStop": return .accountUpdates(subscribe: false, accountCode: "")
        case "reqAccountSummary":
            return .accountSummary(requestID: 9, group: "All", tags: "NetLiquidation,TotalCashValue")
        case "cancelAccountSummary": return .cancelAccountSummary(requestID: 9)
        case "reqExecutions": return .executions(requestID: 3, filter: TWSExecutionFilter())
        case "reqExecutionsFilter": return .executions(requestID: 4, filter: filterAll)
        case "reqExecutionsDays": return .executions(requestID: 5, filter: filterDays)
        case "reqPnL": return .pnl(requestID: 12, account: "DU123", modelCode: "")
        case "cancelPnL": return .cancelPnL(requestID: 12)
        case "reqPnLSingle": return .pnlSingle(requestID: 13, account: "DU123", modelCode: "", contractID: 265_598)
        case "cancelPnLSingle": return .cancelPnLSingle(requestID: 13)
        case "reqGlobalCancel": return .globalCancel(TWSOrderCancel())
        case "reqCompletedOrders": return .completedOrders(apiOnly: true)
        case "reqAccountUpdatesMulti":
            return .accountUpdatesMulti(requestID: 14, account: "DU123", modelCode: "", ledgerAndNLV: true)
        case "reqMarketRule": return .marketRule(marketRuleID: 26)
        default: return nil
        }
    }
}
