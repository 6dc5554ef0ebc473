import Foundation

/// Requests as protobuf bodies (server version ≥ their gate, `TWSProtobufGates.requestGate(forMessageID:)`), written
/// with the official client's presence rules, and read back on the server side (gateway simulator).
extension TWSRequest {
    // MARK: - Encoding

    /// The protobuf body of this request.
    /// - Throws: `TWSEncodingError.unrepresentable` for a contract multiplier that is not a number.
    func protobufBody() throws(TWSEncodingError) -> [UInt8] {
        for contract in contracts { try contract.checkProtobufMultiplier(messageName) }
        var w = TWSProtobufWriter(capacity: isPlaceOrder ? 256 : 32)
        switch self {
        case .startAPI(let clientID, let capabilities):
            w.int32(1, clientID)
            w.string(2, capabilities)
        case .requestIDs(let count):
            w.int32(1, count)
        case .currentTime, .currentTimeInMillis, .managedAccounts, .openOrders, .allOpenOrders, .positions,
            .cancelPositions:
            break
        case .contractDetails(let requestID, let contract):
            w.int32(1, requestID)
            w.message(2) { contract.writeProtobuf(into: &$0) }
        case .marketData(let request):
            w.int32(1, request.requestID)
            w.message(2) { request.contract.writeProtobuf(into: &$0) }
            w.string(3, request.genericTickList)
            w.boolIfTrue(4, request.snapshot)
            w.boolIfTrue(5, request.regulatorySnapshot)
            w.map(6, request.options)
        case .cancelMarketData(let requestID), .cancelRealTimeBars(let requestID),
            .cancelHistoricalData(let requestID), .cancelAccountSummary(let requestID), .cancelPnL(let requestID),
            .cancelPnLSingle(let requestID):
            w.int32(1, requestID)
        case .marketDataType(let type):
            w.int32(1, type)
        case .realTimeBars(let request):
            w.int32(1, request.requestID)
            w.message(2) { request.contract.writeProtobuf(into: &$0) }
            w.int32(3, request.barSize)
            w.string(4, request.whatToShow)
            w.boolIfTrue(5, request.useRTH)
            w.map(6, request.options)
        case .historicalData(let request):
            w.int32(1, request.requestID)
            w.message(2) { request.contract.writeProtobuf(into: &$0) }
            w.string(3, request.endDateTime)
            w.string(4, request.barSizeSetting)
            w.string(5, request.durationString)
            w.boolIfTrue(6, request.useRTH)
            w.string(7, request.whatToShow)
            w.int32(8, request.formatDate)
            w.boolIfTrue(9, request.keepUpToDate)
            w.map(10, request.chartOptions)
        case .placeOrder(let orderID, let contract, let order):
            w.int32(1, orderID)
            w.message(2) { contract.writeProtobuf(into: &$0, legPrices: order.orderComboLegPrices) }
            w.message(3) { order.writeProtobuf(into: &$0) }
            // The official client always sends the attached-orders message, empty when there are none.
            w.message(4) { _ in }
        case .cancelOrder(let orderID, let cancel):
            w.int32(1, orderID)
            w.message(2) { cancel.writeProtobuf(into: &$0) }
        case .globalCancel(let cancel):
            w.message(1) { cancel.writeProtobuf(into: &$0) }
        case .autoOpenOrders(let autoBind):
            w.boolIfTrue(1, autoBind)
        case .completedOrders(let apiOnly):
            w.boolIfTrue(1, apiOnly)
        case .accountUpdates(let subscribe, let accountCode):
            w.boolIfTrue(1, subscribe)
            w.string(2, accountCode)
        case .accountSummary(let requestID, let group, let tags):
            w.int32(1, requestID)
            w.string(2, group)
            w.string(3, tags)
        case .executions(let requestID, let filter):
            w.int32(1, requestID)
            w.message(2) { filter.writeProtobuf(into: &$0) }
        case .pnl(let requestID, let account, let modelCode):
            w.int32(1, requestID)
            w.string(2, account)
            w.string(3, modelCode)
        case .pnlSingle(let requestID, let account, let modelCode, let contractID):
            w.int32(1, requestID)
            w.string(2, account)
            w.string(3, modelCode)
            w.int32(4, contractID)
        case .accountUpdatesMulti(let requestID, let account, let modelCode, let ledgerAndNLV):
            w.int32(1, requestID)
            w.string(2, account)
            w.string(3, modelCode)
            w.boolIfTrue(4, ledgerAndNLV)
        case .marketRule(let ruleID):
            w.int32(1, ruleID)
        }
        return w.bytes
    }

    /// The contracts the request carries.
    var contracts: [TWSContract] {
        switch self {
        case .contractDetails(_, let contract), .placeOrder(_, let contract, _): [contract]
        case .marketData(let request): [request.contract]
        case .realTimeBars(let request): [request.contract]
        case .historicalData(let request): [request.contract]
        default: []
        }
    }

    // MARK: - Decoding

    /// Decodes a protobuf request body (server side).
    /// - Parameters:
    ///   - id: the message id (the wire id less 200).
    ///   - body: the protobuf body.
    /// - Throws: `TWSDecodingError`; `unknownMessageID` for a request this codec does not model.
    static func decodeProtobuf(id: Int, body: UnsafeRawBufferPointer) throws(TWSDecodingError) -> TWSRequest {
        var r = TWSProtobufReader(bytes: body, message: messageName(forID: id))
        var ints: [Int: Int] = [:]
        var strings: [Int: String] = [:]
        var bools: [Int: Bool] = [:]
        var contract = TWSContract()
        var legPrices: [Double?] = []
        var order = TWSOrder()
        var cancel = TWSOrderCancel()
        var filter = TWSExecutionFilter()
        var options: [TWSTagValue] = []
        while let f = try r.next() {
            switch (id, f.number) {
            case (9, 2), (1, 2), (50, 2), (20, 2), (3, 2):
                contract = try f.message("Contract") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    try TWSContract.readProtobuf(&inner, legPrices: &legPrices)
                }
            case (3, 3):
                order = try f.message("Order") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    try TWSOrder.readProtobuf(&inner)
                }
            case (3, 4):
                break  // attached orders: not modelled (no attached stop-loss or profit-taker ids are sent)
            case (4, 2), (58, 1):
                cancel = try f.message("OrderCancel") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    try TWSOrderCancel.readProtobuf(&inner)
                }
            case (7, 2):
                filter = try f.message("ExecutionFilter") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    try TWSExecutionFilter.readProtobuf(&inner)
                }
            case (1, 6), (50, 6), (20, 10):
                options.append(try f.mapEntry())
            case (71, 2), (9, 3), (1, 3), (50, 4), (20, 3), (20, 4), (20, 5), (20, 7), (6, 2), (62, 2), (62, 3),
                (92, 2), (92, 3), (94, 2), (94, 3), (76, 2), (76, 3):
                strings[f.number] = try f.string()
            case (1, 4), (1, 5), (50, 5), (20, 6), (20, 9), (15, 1), (99, 1), (6, 1), (76, 4):
                bools[f.number] = try f.bool()
            default:
                if case .varint = f.value { ints[f.number] = try f.int32() }
            }
        }
        func int(_ number: Int, _ name: String) throws(TWSDecodingError) -> Int {
            guard let value = ints[number] else {
                throw .missingField(message: r.message, field: name, index: number)
            }
            return value
        }
        let string = { (number: Int) in strings[number] ?? "" }
        let bool = { (number: Int) in bools[number] ?? false }
        switch id {
        case 71: return .startAPI(clientID: try int(1, "clientId"), optionalCapabilities: string(2))
        case 8: return .requestIDs(count: ints[1] ?? 0)
        case 49: return .currentTime
        case 105: return .currentTimeInMillis
        case 17: return .managedAccounts
        case 9: return .contractDetails(requestID: try int(1, "reqId"), contract: contract)
        case 1:
            return .marketData(TWSMarketDataRequest(
                requestID: try int(1, "reqId"), contract: contract, genericTickList: string(3), snapshot: bool(4),
                regulatorySnapshot: bool(5), options: options))
        case 2: return .cancelMarketData(requestID: try int(1, "reqId"))
        case 59: return .marketDataType(try int(1, "marketDataType"))
        case 50:
            return .realTimeBars(TWSRealTimeBarsRequest(
                requestID: try int(1, "reqId"), contract: contract, barSize: ints[3] ?? 0, whatToShow: string(4),
                useRTH: bool(5), options: options))
        case 51: return .cancelRealTimeBars(requestID: try int(1, "reqId"))
        case 20:
            return .historicalData(TWSHistoricalDataRequest(
                requestID: try int(1, "reqId"), contract: contract, endDateTime: string(3), durationString: string(5),
                barSizeSetting: string(4), whatToShow: string(7), useRTH: bool(6), formatDate: ints[8] ?? 1,
                keepUpToDate: bool(9), chartOptions: options))
        case 25: return .cancelHistoricalData(requestID: try int(1, "reqId"))
        case 3:
            order.orderComboLegPrices = legPrices
            return .placeOrder(orderID: try int(1, "orderId"), contract: contract, order: order)
        case 4: return .cancelOrder(orderID: try int(1, "orderId"), cancel)
        case 5: return .openOrders
        case 16: return .allOpenOrders
        case 15: return .autoOpenOrders(autoBind: bool(1))
        case 61: return .positions
        case 64: return .cancelPositions
        case 6: return .accountUpdates(subscribe: bool(1), accountCode: string(2))
        case 62: return .accountSummary(requestID: try int(1, "reqId"), group: string(2), tags: string(3))
        case 63: return .cancelAccountSummary(requestID: try int(1, "reqId"))
        case 7: return .executions(requestID: try int(1, "reqId"), filter: filter)
        case 92: return .pnl(requestID: try int(1, "reqId"), account: string(2), modelCode: string(3))
        case 93: return .cancelPnL(requestID: try int(1, "reqId"))
        case 94:
            return .pnlSingle(requestID: try int(1, "reqId"), account: string(2), modelCode: string(3),
                              contractID: try int(4, "conId"))
        case 95: return .cancelPnLSingle(requestID: try int(1, "reqId"))
        case 58: return .globalCancel(cancel)
        case 99: return .completedOrders(apiOnly: bool(1))
        case 76:
            return .accountUpdatesMulti(requestID: try int(1, "reqId"), account: string(2), modelCode: string(3),
                                        ledgerAndNLV: bool(4))
        case 91: return .marketRule(marketRuleID: try int(1, "marketRuleId"))
        default: throw .unknownMessageID(id)
        }
    }
}

extension TWSOrderCancel {
    func writeProtobuf(into w: inout TWSProtobufWriter) {
        w.string(1, manualOrderCancelTime)
        w.string(2, extOperator)
        w.int32(3, manualOrderIndicator)
    }

    static func readProtobuf(_ reader: inout TWSProtobufReader) throws(TWSDecodingError) -> TWSOrderCancel {
        var cancel = TWSOrderCancel()
        while let f = try reader.next() {
            switch f.number {
            case 1: cancel.manualOrderCancelTime = try f.string()
            case 2: cancel.extOperator = try f.string()
            case 3: cancel.manualOrderIndicator = try f.int32()
            default: break
            }
        }
        return cancel
    }
}

extension TWSExecutionFilter {
    func writeProtobuf(into w: inout TWSProtobufWriter) {
        w.int32(1, clientID)
        w.string(2, accountCode)
        w.string(3, time)
        w.string(4, symbol)
        w.string(5, securityType)
        w.string(6, exchange)
        w.string(7, side)
        w.int32(8, lastNDays)
        w.repeatedInt32(9, specificDates)
    }

    static func readProtobuf(_ reader: inout TWSProtobufReader) throws(TWSDecodingError) -> TWSExecutionFilter {
        var filter = TWSExecutionFilter()
        while let f = try reader.next() {
            switch f.number {
            case 1: filter.clientID = try f.int32()
            case 2: filter.accountCode = try f.string()
            case 3: filter.time = try f.string()
            case 4: filter.symbol = try f.string()
            case 5: filter.securityType = try f.string()
            case 6: filter.exchange = try f.string()
            case 7: filter.side = try f.string()
            case 8: filter.lastNDays = try f.int32()
            case 9: filter.specificDates.append(contentsOf: try f.int32s())
            default: break
            }
        }
        return filter
    }
}
