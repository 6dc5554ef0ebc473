import Foundation
import TWSProtocol
import TWSTestSupport

/// The vector files, located next to this test target.
enum VectorFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/protocol/vectors")

    static func load(_ name: String) throws -> [TWSVectorRecord] {
        try TWSVectors.load(directory.appendingPathComponent(name))
    }
}

/// Why a vector's `call` could not be turned into a typed request.
struct UnsupportedCall: Error, CustomStringConvertible {
    var description: String
}

/// Builds the typed request for a client → server record's `call` (method + arguments, in IB's names).
///
/// Every argument is consumed; an unknown method or argument is an error, so no vector passes by ignoring
/// part of its call.
enum VectorRequestCalls {
    /// The captures connected with clientId 7 (startApi's `call` carries no arguments; see the record sources).
    static let capturedClientID = 7

    static func request(for call: TWSJSON) throws -> TWSRequest {
        guard let method = call["method"]?.string, let args = call["args"]?.object else {
            throw UnsupportedCall(description: "call without method/args: \(call)")
        }
        var a = Arguments(method: method, members: args)
        let request = try build(method: method, &a)
        try a.expectAllUsed()
        return request
    }

    private static func build(method: String, _ a: inout Arguments) throws -> TWSRequest {
        switch method {
        case "startApi": return .startAPI(clientID: capturedClientID, optionalCapabilities: "")
        case "reqIds": return .requestIDs(count: try a.int("numIds"))
        case "reqCurrentTime": return .currentTime
        case "reqCurrentTimeInMillis": return .currentTimeInMillis
        case "reqManagedAccts": return .managedAccounts
        case "reqContractDetails":
            return .contractDetails(requestID: try a.int("reqId"), contract: try a.contract("contract"))
        case "reqMarketDataType": return .marketDataType(try a.int("marketDataType"))
        case "reqMktData":
            return .marketData(TWSMarketDataRequest(
                requestID: try a.int("reqId"), contract: try a.contract("contract"),
                genericTickList: try a.string("genericTickList"), snapshot: try a.bool("snapshot"),
                regulatorySnapshot: try a.bool("regulatorySnapshot")))
        case "cancelMktData": return .cancelMarketData(requestID: try a.int("reqId"))
        case "reqRealTimeBars":
            return .realTimeBars(TWSRealTimeBarsRequest(
                requestID: try a.int("reqId"), contract: try a.contract("contract"), barSize: try a.int("barSize"),
                whatToShow: try a.string("whatToShow"), useRTH: try a.bool("useRTH")))
        case "cancelRealTimeBars": return .cancelRealTimeBars(requestID: try a.int("reqId"))
        case "reqHistoricalData":
            return .historicalData(TWSHistoricalDataRequest(
                requestID: try a.int("reqId"), contract: try a.contract("contract"),
                endDateTime: try a.string("endDateTime"), durationString: try a.string("durationStr"),
                barSizeSetting: try a.string("barSizeSetting"), whatToShow: try a.string("whatToShow"),
                useRTH: try a.int("useRTH") != 0, formatDate: try a.int("formatDate"),
                keepUpToDate: try a.bool("keepUpToDate")))
        case "cancelHistoricalData": return .cancelHistoricalData(requestID: try a.int("reqId"))
        case "placeOrder":
            return .placeOrder(orderID: try a.int("orderId"), contract: try a.contract("contract"),
                               order: try a.order("order"))
        case "cancelOrder":
            _ = try a.string("orderCancel")  // "default OrderCancel()": the official defaults
            return .cancelOrder(orderID: try a.int("orderId"), TWSOrderCancel())
        case "reqOpenOrders": return .openOrders
        case "reqAllOpenOrders": return .allOpenOrders
        case "reqAutoOpenOrders": return .autoOpenOrders(autoBind: try a.bool("bAutoBind"))
        case "reqPositions": return .positions
        case "cancelPositions": return .cancelPositions
        case "reqAccountUpdates":
            return .accountUpdates(subscribe: try a.bool("subscribe"), accountCode: try a.string("acctCode"))
        case "reqAccountSummary":
            return .accountSummary(requestID: try a.int("reqId"), group: try a.string("groupName"),
                                   tags: try a.string("tags"))
        case "cancelAccountSummary": return .cancelAccountSummary(requestID: try a.int("reqId"))
        case "reqExecutions": return .executions(requestID: try a.int("reqId"), filter: try a.filter("filter"))
        case "reqPnL":
            return .pnl(requestID: try a.int("reqId"), account: try a.string("account"),
                        modelCode: try a.string("modelCode"))
        case "cancelPnL": return .cancelPnL(requestID: try a.int("reqId"))
        case "reqPnLSingle":
            return .pnlSingle(requestID: try a.int("reqId"), account: try a.string("account"),
                              modelCode: try a.string("modelCode"), contractID: try a.int("conid"))
        case "cancelPnLSingle": return .cancelPnLSingle(requestID: try a.int("reqId"))
        case "reqGlobalCancel": return .globalCancel(TWSOrderCancel())
        case "reqCompletedOrders": return .completedOrders(apiOnly: try a.bool("apiOnly"))
        case "reqAccountUpdatesMulti":
            return .accountUpdatesMulti(requestID: try a.int("reqId"), account: try a.string("account"),
                                        modelCode: try a.string("modelCode"),
                                        ledgerAndNLV: try a.bool("ledgerAndNLV"))
        default:
            throw UnsupportedCall(description: "method \(method) is not supported by the codec")
        }
    }
}

/// A call's arguments, tracking which were used.
struct Arguments {
    var method: String
    var members: [String: TWSJSON]
    var used: Set<String> = []

    init(method: String, members: [String: TWSJSON]) {
        self.method = method
        self.members = members
    }

    mutating func value(_ key: String) throws -> TWSJSON {
        guard let value = members[key] else { throw UnsupportedCall(description: "\(method): missing \(key)") }
        used.insert(key)
        return value
    }

    mutating func int(_ key: String) throws -> Int {
        guard let value = try value(key).int else { throw UnsupportedCall(description: "\(method).\(key) not int") }
        return value
    }

    mutating func double(_ key: String) throws -> Double {
        let raw = try value(key)
        if raw.string == "Infinity" { return .infinity }
        guard let value = raw.double else { throw UnsupportedCall(description: "\(method).\(key) not a number") }
        return value
    }

    mutating func string(_ key: String) throws -> String {
        guard let value = try value(key).string else { throw UnsupportedCall(description: "\(method).\(key) not text") }
        return value
    }

    mutating func bool(_ key: String) throws -> Bool {
        guard let value = try value(key).bool else { throw UnsupportedCall(description: "\(method).\(key) not bool") }
        return value
    }

    mutating func decimal(_ key: String) throws -> Decimal {
        guard let text = try value(key).string, let value = Decimal(string: text) else {
            throw UnsupportedCall(description: "\(method).\(key) not a decimal text")
        }
        return value
    }

    mutating func tagValues(_ key: String) throws -> [TWSTagValue] {
        guard let list = try value(key).array else { throw UnsupportedCall(description: "\(method).\(key) not list") }
        return try list.map { pair in
            guard let items = pair.array, items.count == 2, let tag = items[0].string, let value = items[1].string
            else {
                throw UnsupportedCall(description: "\(method).\(key): bad pair \(pair)")
            }
            return TWSTagValue(tag, value)
        }
    }

    func expectAllUsed() throws {
        let unused = Set(members.keys).subtracting(used)
        if !unused.isEmpty {
            throw UnsupportedCall(description: "\(method): arguments not mapped: \(unused.sorted())")
        }
    }

    mutating func nested(_ key: String) throws -> Arguments {
        guard let object = try value(key).object else {
            throw UnsupportedCall(description: "\(method).\(key) not object")
        }
        return Arguments(method: "\(method).\(key)", members: object)
    }

    mutating func contract(_ key: String) throws -> TWSContract {
        var c = try nested(key)
        var contract = TWSContract()
        for name in c.members.keys.sorted() {
            switch name {
            case "conId": contract.contractID = try c.int(name)
            case "symbol": contract.symbol = try c.string(name)
            case "secType": contract.securityType = try c.string(name)
            case "exchange": contract.exchange = try c.string(name)
            case "primaryExchange": contract.primaryExchange = try c.string(name)
            case "currency": contract.currency = try c.string(name)
            case "lastTradeDateOrContractMonth": contract.lastTradeDateOrContractMonth = try c.string(name)
            case "strike": contract.strike = try c.double(name)
            case "right": contract.right = try c.string(name)
            case "multiplier": contract.multiplier = try c.string(name)
            case "comboLegs":
                for leg in try c.value(name).array ?? [] {
                    var l = Arguments(method: "comboLeg", members: leg.object ?? [:])
                    contract.comboLegs.append(TWSComboLeg(contractID: try l.int("conId"), ratio: try l.int("ratio"),
                                                          action: try l.string("action"),
                                                          exchange: try l.string("exchange")))
                    try l.expectAllUsed()
                }
            default: break
            }
        }
        try c.expectAllUsed()
        return contract
    }

    mutating func order(_ key: String) throws -> TWSOrder {
        var o = try nested(key)
        var order = TWSOrder()
        for name in o.members.keys.sorted() {
            switch name {
            case "action": order.action = try o.string(name)
            case "totalQuantity": order.totalQuantity = try o.decimal(name)
            case "orderType": order.orderType = try o.string(name)
            case "lmtPrice": order.limitPrice = try o.double(name)
            case "auxPrice": order.auxPrice = try o.double(name)
            case "tif": order.timeInForce = try o.string(name)
            case "outsideRth": order.outsideRTH = try o.bool(name)
            case "trailStopPrice": order.trailStopPrice = try o.double(name)
            case "transmit": order.transmit = try o.bool(name)
            case "orderRef": order.orderRef = try o.string(name)
            case "parentId": order.parentID = try o.int(name)
            case "algoStrategy": order.algoStrategy = try o.string(name)
            case "algoParams": order.algoParams = try o.tagValues(name)
            case "smartComboRoutingParams": order.smartComboRoutingParams = try o.tagValues(name)
            case "orderComboLegs":
                order.orderComboLegPrices = try (o.value(name).array ?? []).map { $0.double }
            case "minTradeQty": order.minimumTradeQuantity = try o.int(name)
            case "minCompeteSize": order.minimumCompeteSize = try o.int(name)
            case "competeAgainstBestOffset": order.competeAgainstBestOffset = try o.double(name)
            case "midOffsetAtWhole": order.midOffsetAtWhole = try o.double(name)
            case "midOffsetAtHalf": order.midOffsetAtHalf = try o.double(name)
            default: break
            }
        }
        try o.expectAllUsed()
        return order
    }

    mutating func filter(_ key: String) throws -> TWSExecutionFilter {
        var f = try nested(key)
        var filter = TWSExecutionFilter()
        for name in f.members.keys.sorted() {
            switch name {
            case "clientId": filter.clientID = try f.int(name)
            case "acctCode": filter.accountCode = try f.string(name)
            case "time": filter.time = try f.string(name)
            case "symbol": filter.symbol = try f.string(name)
            case "secType": filter.securityType = try f.string(name)
            case "exchange": filter.exchange = try f.string(name)
            case "side": filter.side = try f.string(name)
            default: break
            }
        }
        try f.expectAllUsed()
        return filter
    }
}
