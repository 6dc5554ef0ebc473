import Foundation

/// Responses as protobuf bodies: decoded on the client side (any version ≥ 201, whatever the id says) and encoded
/// by the gateway simulator from each response's gate (`TWSProtobufGates.responseGate(forMessageID:)`).
///
/// Absent fields take the official decoder's defaults: a missing request id is −1, a missing quantity, and IB's
/// unset number values, are `nil` where our types hold an optional, else 0 or empty.
extension TWSResponse {
    // MARK: - Decoding

    /// Decodes a protobuf response body.
    /// - Parameters:
    ///   - id: the message id (the wire id less 200).
    ///   - body: the protobuf body (possibly empty).
    /// - Throws: `TWSDecodingError`; `unknownMessageID` for a message this codec does not model.
    static func decodeProtobuf(id: Int, body: UnsafeRawBufferPointer) throws(TWSDecodingError) -> TWSResponse {
        var r = TWSProtobufReader(bytes: body, message: messageName(forID: id))
        switch id {
        case 1, 2, 45, 46, 50:
            return try decodeProtobufStreaming(id: id, reader: &r)
        case 3, 5, 11, 59, 101:
            return try decodeProtobufOrders(id: id, reader: &r)
        case 10:
            return try decodeProtobufContractData(reader: &r)
        default:
            break
        }
        var ints: [Int: Int] = [:]
        var longs: [Int: Int64] = [:]
        var doubles: [Int: Double] = [:]
        var strings: [Int: String] = [:]
        var decimals: [Int: Decimal?] = [:]
        var contract = TWSContract()
        var bars: [TWSBar] = []
        var increments: [TWSPriceIncrement] = []
        while let f = try r.next() {
            switch (id, f.number) {
            // Quantities as decimal text.
            case (1, 4), (2, 3), (61, 3), (7, 2), (95, 2), (50, 7), (50, 8):
                decimals[f.number] = try f.decimal()
            // 64-bit ints.
            case (49, 1), (109, 1), (4, 2), (50, 2):
                longs[f.number] = try f.int64()
            // Contracts.
            case (61, 2), (7, 1):
                contract = try f.message("Contract") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    try TWSContract.readProtobuf(&inner)
                }
            case (17, 2), (90, 2):
                bars.append(try f.message("HistoricalDataBar") {
                    (inner: inout TWSProtobufReader) throws(TWSDecodingError) in try TWSBar.readProtobuf(&inner)
                })
            case (93, 2):
                increments.append(try f.message("PriceIncrement") {
                    (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    var increment = TWSPriceIncrement(lowEdge: 0, increment: 0)
                    while let item = try inner.next() {
                        switch item.number {
                        case 1: increment.lowEdge = try item.double()
                        case 2: increment.increment = try item.double()
                        default: break
                        }
                    }
                    return increment
                })
            default:
                switch f.value {
                case .varint: ints[f.number] = try f.int32()
                case .fixed64: doubles[f.number] = try f.double()
                case .lengthDelimited: strings[f.number] = try f.string()
                case .fixed32: break
                }
            }
        }
        let requestID = ints[1] ?? -1
        let string = { (number: Int) in strings[number] ?? "" }
        let double = { (number: Int) -> Double? in
            guard let value = doubles[number], value != TWSSentinel.double else { return nil }
            return value
        }
        let decimal = { (number: Int) -> Decimal? in decimals[number] ?? nil }
        switch id {
        case 9: return .nextValidID(orderID: ints[1] ?? -1)
        case 15: return .managedAccounts(accountsList: string(1))
        case 49: return .currentTime(longs[1] ?? 0)
        case 109: return .currentTimeInMillis(longs[1] ?? 0)
        case 4:
            return .error(TWSErrorMessage(
                requestID: ints[1] ?? 0, code: ints[3] ?? 0, message: string(4),
                advancedOrderRejectJSON: string(5), errorTime: longs[2] ?? 0))
        case 1:
            return .tickPrice(TWSTickPrice(
                requestID: requestID, tickType: TWSTickType(rawValue: ints[2] ?? TWSSentinel.int32),
                price: doubles[3] ?? TWSSentinel.double, size: decimal(4),
                attributes: TWSTickAttributes(rawValue: ints[5] ?? 0)))
        case 2:
            return .tickSize(requestID: requestID, tickType: TWSTickType(rawValue: ints[2] ?? TWSSentinel.int32),
                             size: decimal(3))
        case 46:
            return .tickString(requestID: requestID, tickType: TWSTickType(rawValue: ints[2] ?? TWSSentinel.int32),
                               value: string(3))
        case 45:
            return .tickGeneric(requestID: requestID, tickType: TWSTickType(rawValue: ints[2] ?? TWSSentinel.int32),
                                value: doubles[3] ?? TWSSentinel.double)
        case 81:
            let minTick = TWSFieldReader.parseDouble(Array(string(2).utf8)) ?? 0
            return .tickRequestParameters(requestID: requestID, minTick: minTick, bboExchange: string(3),
                                          snapshotPermissions: ints[4] ?? 0)
        case 58: return .marketDataType(requestID: requestID, marketDataType: ints[2] ?? 0)
        case 57: return .tickSnapshotEnd(requestID: requestID)
        case 53: return .openOrderEnd
        case 55: return .executionDetailsEnd(requestID: requestID)
        case 61:
            return .position(account: string(1), contract: contract, position: decimal(3),
                             averageCost: doubles[4] ?? 0)
        case 62: return .positionEnd
        case 6:
            return .accountValue(key: string(1), value: string(2), currency: string(3), accountName: string(4))
        case 7:
            return .portfolioValue(TWSPortfolioValue(
                contract: contract, position: decimal(2), marketPrice: doubles[3] ?? 0, marketValue: doubles[4] ?? 0,
                averageCost: doubles[5] ?? 0, unrealizedPNL: doubles[6] ?? 0, realizedPNL: doubles[7] ?? 0,
                accountName: string(8)))
        case 8: return .accountTime(string(1))
        case 54: return .accountDownloadEnd(accountName: string(1))
        case 63:
            return .accountSummary(requestID: requestID, account: string(2), tag: string(3), value: string(4),
                                   currency: string(5))
        case 64: return .accountSummaryEnd(requestID: requestID)
        case 52: return .contractDetailsEnd(requestID: requestID)
        case 17: return .historicalData(requestID: requestID, startDate: nil, endDate: nil, bars: bars)
        case 108: return .historicalDataEnd(requestID: requestID, startDate: string(2), endDate: string(3))
        case 90:
            guard let bar = bars.first else {
                throw .missingField(message: r.message, field: "historicalDataBar", index: 2)
            }
            return .historicalDataUpdate(requestID: requestID, bar: bar)
        case 50:
            return .realTimeBar(requestID: requestID, bar: TWSRealTimeBar(
                time: longs[2] ?? 0, open: doubles[3] ?? 0, high: doubles[4] ?? 0, low: doubles[5] ?? 0,
                close: doubles[6] ?? 0, volume: decimal(7), wap: decimal(8), count: ints[9] ?? 0))
        case 94:
            return .pnl(requestID: requestID, dailyPnL: double(2), unrealizedPnL: double(3), realizedPnL: double(4))
        case 95:
            return .pnlSingle(TWSPnLSingle(
                requestID: requestID, position: decimal(2), dailyPnL: double(3), unrealizedPnL: double(4),
                realizedPnL: double(5), value: double(6)))
        case 102: return .completedOrdersEnd
        case 74: return .accountUpdateMultiEnd(requestID: requestID)
        case 93: return .marketRule(marketRuleID: ints[1] ?? -1, increments: increments)
        default: throw .unknownMessageID(id)
        }
    }

    /// The streaming messages (ticks, real-time bars), read into locals: no dictionaries, so the tick path at
    /// 206+ does not allocate, as the text one does not (`TWSAllocationTests`).
    static func decodeProtobufStreaming(
        id: Int, reader r: inout TWSProtobufReader
    ) throws(TWSDecodingError) -> TWSResponse {
        var requestID = -1
        var tickType = TWSSentinel.int32
        var number: Double?
        var text = ""
        var size: Decimal?
        var mask = 0
        var bar = TWSRealTimeBar(time: 0, open: 0, high: 0, low: 0, close: 0, volume: nil, wap: nil, count: 0)
        while let f = try r.next() {
            switch (id, f.number) {
            case (_, 1): requestID = try f.int32()
            case (50, 2): bar.time = try f.int64()
            case (50, 3): bar.open = try f.double()
            case (50, 4): bar.high = try f.double()
            case (50, 5): bar.low = try f.double()
            case (50, 6): bar.close = try f.double()
            case (50, 7): bar.volume = try f.decimal()
            case (50, 8): bar.wap = try f.decimal()
            case (50, 9): bar.count = try f.int32()
            case (_, 2): tickType = try f.int32()
            case (1, 3), (45, 3): number = try f.double()
            case (1, 4), (2, 3): size = try f.decimal()
            case (46, 3): text = try f.string()
            case (1, 5): mask = try f.int32()
            default: break
            }
        }
        let type = TWSTickType(rawValue: tickType)
        switch id {
        case 1:
            return .tickPrice(TWSTickPrice(requestID: requestID, tickType: type, price: number ?? TWSSentinel.double,
                                           size: size, attributes: TWSTickAttributes(rawValue: mask)))
        case 2: return .tickSize(requestID: requestID, tickType: type, size: size)
        case 45: return .tickGeneric(requestID: requestID, tickType: type, value: number ?? TWSSentinel.double)
        case 46: return .tickString(requestID: requestID, tickType: type, value: text)
        default: return .realTimeBar(requestID: requestID, bar: bar)
        }
    }

    // MARK: - Encoding

    /// The protobuf body of this response, as the gateway simulator sends it.
    /// - Throws: `TWSEncodingError.unrepresentable` for a contract multiplier that is not a number.
    func protobufBody() throws(TWSEncodingError) -> [UInt8] {
        try contract?.checkProtobufMultiplier(messageName)
        var w = TWSProtobufWriter(capacity: 64)
        switch self {
        case .nextValidID(let orderID): w.int32(1, orderID)
        case .managedAccounts(let list): w.string(1, list)
        case .currentTime(let time): w.int64(1, time)
        case .currentTimeInMillis(let time): w.int64(1, time)
        case .error(let error):
            w.int32(1, error.requestID)
            w.int64(2, error.errorTime ?? 0)
            w.int32(3, error.code)
            w.string(4, error.message)
            w.string(5, error.advancedOrderRejectJSON)
        case .tickPrice(let tick):
            w.int32(1, tick.requestID)
            w.int32(2, tick.tickType.rawValue)
            w.double(3, tick.price)
            if let size = tick.size { w.string(4, TWSFieldWriter.format(size)) }
            w.int32(5, tick.attributes.rawValue)
        case .tickSize(let requestID, let tickType, let size):
            w.int32(1, requestID)
            w.int32(2, tickType.rawValue)
            if let size { w.string(3, TWSFieldWriter.format(size)) }
        case .tickString(let requestID, let tickType, let value):
            w.int32(1, requestID)
            w.int32(2, tickType.rawValue)
            w.string(3, value)
        case .tickGeneric(let requestID, let tickType, let value):
            w.int32(1, requestID)
            w.int32(2, tickType.rawValue)
            w.double(3, value)
        case .tickRequestParameters(let requestID, let minTick, let bboExchange, let permissions):
            w.int32(1, requestID)
            w.string(2, TWSFieldWriter.format(minTick, style: .java))
            w.string(3, bboExchange)
            w.int32(4, permissions)
        case .marketDataType(let requestID, let type):
            w.int32(1, requestID)
            w.int32(2, type)
        case .tickSnapshotEnd(let requestID), .executionDetailsEnd(let requestID), .accountSummaryEnd(let requestID),
            .contractDetailsEnd(let requestID), .accountUpdateMultiEnd(let requestID):
            w.int32(1, requestID)
        case .openOrderEnd, .positionEnd, .completedOrdersEnd:
            break
        case .orderStatus, .openOrder, .executionDetails, .commissionReport, .completedOrder, .contractDetails:
            writeProtobufOrders(into: &w)
        case .position(let account, let contract, let position, let averageCost):
            w.string(1, account)
            w.message(2) { contract.writeProtobufResponse(into: &$0) }
            if let position { w.string(3, TWSFieldWriter.format(position)) }
            w.double(4, averageCost)
        case .accountValue(let key, let value, let currency, let accountName):
            w.string(1, key)
            w.string(2, value)
            w.string(3, currency)
            w.string(4, accountName)
        case .portfolioValue(let value):
            w.message(1) { value.contract.writeProtobufResponse(into: &$0) }
            if let position = value.position { w.string(2, TWSFieldWriter.format(position)) }
            w.double(3, value.marketPrice)
            w.double(4, value.marketValue)
            w.double(5, value.averageCost)
            w.double(6, value.unrealizedPNL)
            w.double(7, value.realizedPNL)
            w.string(8, value.accountName)
        case .accountTime(let time): w.string(1, time)
        case .accountDownloadEnd(let accountName): w.string(1, accountName)
        case .accountSummary(let requestID, let account, let tag, let value, let currency):
            w.int32(1, requestID)
            w.string(2, account)
            w.string(3, tag)
            w.string(4, value)
            w.string(5, currency)
        case .historicalData(let requestID, _, _, let bars):
            w.int32(1, requestID)
            for bar in bars { w.message(2) { bar.writeProtobuf(into: &$0) } }
        case .historicalDataEnd(let requestID, let startDate, let endDate):
            w.int32(1, requestID)
            w.string(2, startDate)
            w.string(3, endDate)
        case .historicalDataUpdate(let requestID, let bar):
            w.int32(1, requestID)
            w.message(2) { bar.writeProtobuf(into: &$0) }
        case .realTimeBar(let requestID, let bar):
            w.int32(1, requestID)
            w.int64(2, bar.time)
            w.double(3, bar.open)
            w.double(4, bar.high)
            w.double(5, bar.low)
            w.double(6, bar.close)
            if let volume = bar.volume { w.string(7, TWSFieldWriter.format(volume)) }
            if let wap = bar.wap { w.string(8, TWSFieldWriter.format(wap)) }
            w.int32(9, bar.count)
        case .pnl(let requestID, let daily, let unrealized, let realized):
            w.int32(1, requestID)
            w.double(2, daily ?? TWSSentinel.double)
            w.double(3, unrealized ?? TWSSentinel.double)
            w.double(4, realized ?? TWSSentinel.double)
        case .pnlSingle(let value):
            w.int32(1, value.requestID)
            if let position = value.position { w.string(2, TWSFieldWriter.format(position)) }
            w.double(3, value.dailyPnL ?? TWSSentinel.double)
            w.double(4, value.unrealizedPnL ?? TWSSentinel.double)
            w.double(5, value.realizedPnL ?? TWSSentinel.double)
            w.double(6, value.value ?? TWSSentinel.double)
        case .marketRule(let ruleID, let increments):
            w.int32(1, ruleID)
            for increment in increments {
                w.message(2) { inner in
                    inner.double(1, increment.lowEdge)
                    inner.double(2, increment.increment)
                }
            }
        }
        return w.bytes
    }
}

extension TWSResponse {
    /// The contract a response carries, if any.
    var contract: TWSContract? {
        switch self {
        case .position(_, let contract, _, _), .executionDetails(_, let contract, _): contract
        case .portfolioValue(let value): value.contract
        case .openOrder(let open): open.contract
        case .completedOrder(let completed): completed.contract
        case .contractDetails(_, let details): details.contract
        default: nil
        }
    }
}

extension TWSBar {
    func writeProtobuf(into w: inout TWSProtobufWriter) {
        w.string(1, date)
        w.double(2, open)
        w.double(3, high)
        w.double(4, low)
        w.double(5, close)
        if let volume { w.string(6, TWSFieldWriter.format(volume)) }
        if let wap { w.string(7, TWSFieldWriter.format(wap)) }
        w.int32(8, barCount)
    }

    static func readProtobuf(_ reader: inout TWSProtobufReader) throws(TWSDecodingError) -> TWSBar {
        var bar = TWSBar(date: "", open: 0, high: 0, low: 0, close: 0, volume: nil, wap: nil, barCount: 0)
        while let f = try reader.next() {
            switch f.number {
            case 1: bar.date = try f.string()
            case 2: bar.open = try f.double()
            case 3: bar.high = try f.double()
            case 4: bar.low = try f.double()
            case 5: bar.close = try f.double()
            case 6: bar.volume = try f.decimal()
            case 7: bar.wap = try f.decimal()
            case 8: bar.barCount = try f.int32()
            default: break
            }
        }
        return bar
    }
}
