import Foundation

/// orderStatus, openOrder, execDetails, commissionReport, completedOrder and contractDetails as protobuf bodies.
extension TWSResponse {
    // MARK: - Decoding

    static func decodeProtobufOrders(id: Int, reader r: inout TWSProtobufReader) throws(TWSDecodingError) -> TWSResponse {
        switch id {
        case 3:
            var s = TWSOrderStatus(orderID: TWSSentinel.int32, status: "", filled: nil, remaining: nil,
                                   averageFillPrice: TWSSentinel.double, permID: TWSSentinel.int64,
                                   parentID: TWSSentinel.int32, lastFillPrice: TWSSentinel.double,
                                   clientID: TWSSentinel.int32, marketCapPrice: TWSSentinel.double)
            while let f = try r.next() {
                switch f.number {
                case 1: s.orderID = try f.int32()
                case 2: s.status = try f.string()
                case 3: s.filled = try f.decimal()
                case 4: s.remaining = try f.decimal()
                case 5: s.averageFillPrice = try f.double()
                case 6: s.permID = try f.int64()
                case 7: s.parentID = try f.int32()
                case 8: s.lastFillPrice = try f.double()
                case 9: s.clientID = try f.int32()
                case 10: s.whyHeld = try f.string()
                case 11: s.marketCapPrice = try f.double()
                default: break
                }
            }
            return .orderStatus(s)
        case 5, 101:
            var contract = TWSContract()
            var legPrices: [Double?] = []
            var order = TWSOrder()
            var state = TWSOrderState()
            var orderID: Int?
            var completedTime = ""
            var completedStatus = ""
            var extras = TWSCompletedOrder(contract: TWSContract(), order: TWSOrder(), orderState: TWSOrderState())
            let base = id == 5 ? 1 : 0
            while let f = try r.next() {
                switch f.number - base {
                case 0 where id == 5: orderID = try f.int32()
                case 1:
                    contract = try f.message("Contract") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                        try TWSContract.readProtobuf(&inner, legPrices: &legPrices)
                    }
                case 2:
                    order = try f.message("Order") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                        try TWSOrder.readProtobuf(&inner)
                    }
                    if id == 101 {
                        extras = try f.message("Order") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                            try TWSCompletedOrder.readProtobufExtras(&inner)
                        }
                    }
                case 3:
                    (state, completedTime, completedStatus) = try f.message("OrderState") {
                        (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                        try TWSOrderState.readProtobuf(&inner)
                    }
                default: break
                }
            }
            order.orderComboLegPrices = legPrices
            if id == 5 {
                if let orderID { order.orderID = orderID }
                return .openOrder(TWSOpenOrder(contract: contract, order: order, orderState: state))
            }
            var completed = extras
            (completed.contract, completed.order, completed.orderState) = (contract, order, state)
            completed.completedTime = completedTime
            completed.completedStatus = completedStatus
            return .completedOrder(completed)
        case 11:
            var requestID = -1
            var contract = TWSContract()
            var execution = TWSExecution()
            while let f = try r.next() {
                switch f.number {
                case 1: requestID = try f.int32()
                case 2:
                    contract = try f.message("Contract") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                        try TWSContract.readProtobuf(&inner)
                    }
                case 3:
                    execution = try f.message("Execution") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                        try TWSExecution.readProtobuf(&inner)
                    }
                default: break
                }
            }
            return .executionDetails(requestID: requestID, contract: contract, execution: execution)
        default:
            var report = TWSCommissionReport(executionID: "", commission: 0, currency: "")
            while let f = try r.next() {
                switch f.number {
                case 1: report.executionID = try f.string()
                case 2: report.commission = try f.double()
                case 3: report.currency = try f.string()
                case 4: report.realizedPNL = try f.optionalDouble()
                case 5: report.yield = try f.optionalDouble()
                case 6:
                    let text = try f.string()
                    report.yieldRedemptionDate = text.isEmpty ? nil : Int(text)
                default: break
                }
            }
            return .commissionReport(report)
        }
    }

    static func decodeProtobufContractData(reader r: inout TWSProtobufReader) throws(TWSDecodingError) -> TWSResponse {
        var requestID = -1
        var contract = TWSContract()
        var details = TWSContractDetails()
        while let f = try r.next() {
            switch f.number {
            case 1: requestID = try f.int32()
            case 2:
                contract = try f.message("Contract") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    try TWSContract.readProtobuf(&inner)
                }
            case 3:
                details = try f.message("ContractDetails") { (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    try TWSContractDetails.readProtobuf(&inner)
                }
            default: break
            }
        }
        // As the official decoder (and our text path): 'yyyymmdd hh:mm[ tz]' splits on a space or '-'.
        let lastTrade = contract.lastTradeDateOrContractMonth
        let parts = lastTrade.split(whereSeparator: { $0 == " " || $0 == "-" })
        if parts.count > 1 {
            contract.lastTradeDateOrContractMonth = String(parts[0])
            details.lastTradeTime = parts.dropFirst().joined(separator: " ")
        }
        details.contract = contract
        return .contractDetails(requestID: requestID, details: details)
    }

    // MARK: - Encoding

    func writeProtobufOrders(into w: inout TWSProtobufWriter) {
        switch self {
        case .orderStatus(let s):
            w.int32(1, s.orderID)
            w.string(2, s.status)
            if let filled = s.filled { w.string(3, TWSFieldWriter.format(filled)) }
            if let remaining = s.remaining { w.string(4, TWSFieldWriter.format(remaining)) }
            w.double(5, s.averageFillPrice)
            w.int64(6, s.permID)
            w.int32(7, s.parentID)
            w.double(8, s.lastFillPrice)
            w.int32(9, s.clientID)
            w.string(10, s.whyHeld)
            w.double(11, s.marketCapPrice)
        case .openOrder(let open):
            w.int32(1, open.order.orderID)
            w.message(2) { open.contract.writeProtobuf(into: &$0, legPrices: open.order.orderComboLegPrices) }
            w.message(3) { open.order.writeProtobufResponse(into: &$0) }
            w.message(4) { open.orderState.writeProtobuf(into: &$0) }
        case .completedOrder(let completed):
            w.message(1) { completed.contract.writeProtobuf(into: &$0, legPrices: completed.order.orderComboLegPrices) }
            w.message(2) { inner in
                completed.order.writeProtobufResponse(into: &inner)
                completed.writeProtobufExtras(into: &inner)
            }
            w.message(3) { inner in
                completed.orderState.writeProtobuf(into: &inner)
                inner.string(29, completed.completedTime)
                inner.string(30, completed.completedStatus)
            }
        case .executionDetails(let requestID, let contract, let execution):
            w.int32(1, requestID)
            w.message(2) { contract.writeProtobufResponse(into: &$0) }
            w.message(3) { execution.writeProtobuf(into: &$0) }
        case .commissionReport(let report):
            w.string(1, report.executionID)
            w.double(2, report.commission)
            w.string(3, report.currency)
            w.double(4, report.realizedPNL ?? TWSSentinel.double)
            w.double(5, report.yield ?? TWSSentinel.double)
            if let date = report.yieldRedemptionDate { w.string(6, String(date)) }
        case .contractDetails(let requestID, let details):
            w.int32(1, requestID)
            var contract = details.contract
            if !details.lastTradeTime.isEmpty {
                contract.lastTradeDateOrContractMonth += " " + details.lastTradeTime
            }
            w.message(2) { contract.writeProtobufResponse(into: &$0) }
            w.message(3) { details.writeProtobuf(into: &$0) }
        default:
            break
        }
    }
}

extension TWSCompletedOrder {
    /// The completed order's own fields of the protobuf `Order` (114…121), after the order's others.
    func writeProtobufExtras(into w: inout TWSProtobufWriter) {
        w.string(114, autoCancelDate)
        if let filledQuantity { w.string(115, TWSFieldWriter.format(filledQuantity)) }
        w.int32(116, referenceFuturesContractID)
        w.string(118, shareholder)
        w.int32(120, routeMarketableToBBO ? 1 : nil)
        w.int64(121, parentPermID)
    }

    /// Reads those fields from a protobuf `Order` (the rest of the value is left empty).
    static func readProtobufExtras(_ r: inout TWSProtobufReader) throws(TWSDecodingError) -> TWSCompletedOrder {
        var c = TWSCompletedOrder(contract: TWSContract(), order: TWSOrder(), orderState: TWSOrderState())
        while let f = try r.next() {
            switch f.number {
            case 114: c.autoCancelDate = try f.string()
            case 115: c.filledQuantity = try f.decimal()
            case 116: c.referenceFuturesContractID = try f.int32()
            case 118: c.shareholder = try f.string()
            case 120: c.routeMarketableToBBO = try f.int32() != 0
            case 121: c.parentPermID = try f.int64()
            default: break
            }
        }
        return c
    }
}

extension TWSOrder {
    /// An order as the server echoes it (openOrder, completedOrder): the request fields plus the order id.
    func writeProtobufResponse(into w: inout TWSProtobufWriter) {
        var body = TWSProtobufWriter()
        writeProtobuf(into: &body)
        // Field 2 (orderId) sits between clientId (1) and permId (3): write 1, then 2, then the rest.
        var prefix = TWSProtobufWriter()
        prefix.int32(1, clientID)
        let clientBytes = prefix.bytes.count
        w.int32(1, clientID)
        w.int32(2, orderID)
        w.appendRaw(body.bytes.dropFirst(clientBytes))
    }
}

extension TWSProtobufWriter {
    /// Appends already-encoded fields.
    mutating func appendRaw<Bytes: Sequence<UInt8>>(_ raw: Bytes) {
        appendBytes(raw)
    }
}

extension TWSOrderState {
    func writeProtobuf(into w: inout TWSProtobufWriter) {
        w.string(1, status)
        let margins = [initMarginBefore, maintMarginBefore, equityWithLoanBefore, initMarginChange,
                       maintMarginChange, equityWithLoanChange, initMarginAfter, maintMarginAfter, equityWithLoanAfter]
        for (offset, text) in margins.enumerated() where !text.isEmpty {
            if let value = TWSFieldReader.parseDouble(Array(text.utf8)) { w.double(2 + offset, value) }
        }
        w.double(11, commission)
        w.double(12, minCommission)
        w.double(13, maxCommission)
        w.string(14, commissionCurrency)
        w.string(15, marginCurrency)
        for (offset, value) in outsideRTHMargins.prefix(9).enumerated() { w.double(16 + offset, value) }
        if let suggestedSize { w.string(25, TWSFieldWriter.format(suggestedSize)) }
        w.string(26, rejectReason)
        for allocation in allocations {
            w.message(27) { inner in
                inner.string(1, allocation.account)
                if let value = allocation.position { inner.string(2, TWSFieldWriter.format(value)) }
                if let value = allocation.positionDesired { inner.string(3, TWSFieldWriter.format(value)) }
                if let value = allocation.positionAfter { inner.string(4, TWSFieldWriter.format(value)) }
                if let value = allocation.desiredAllocationQuantity { inner.string(5, TWSFieldWriter.format(value)) }
                if let value = allocation.allowedAllocationQuantity { inner.string(6, TWSFieldWriter.format(value)) }
                inner.boolIfTrue(7, allocation.isMonetary)
            }
        }
        w.string(28, warningText)
    }

    /// Reads a protobuf `OrderState`: the state, and completedOrder's completed time and status.
    static func readProtobuf(
        _ r: inout TWSProtobufReader
    ) throws(TWSDecodingError) -> (TWSOrderState, completedTime: String, completedStatus: String) {
        var s = TWSOrderState()
        var completedTime = ""
        var completedStatus = ""
        while let f = try r.next() {
            switch f.number {
            case 1: s.status = try f.string()
            case 2...10:
                let text = Self.marginText(try f.double())
                switch f.number {
                case 2: s.initMarginBefore = text
                case 3: s.maintMarginBefore = text
                case 4: s.equityWithLoanBefore = text
                case 5: s.initMarginChange = text
                case 6: s.maintMarginChange = text
                case 7: s.equityWithLoanChange = text
                case 8: s.initMarginAfter = text
                case 9: s.maintMarginAfter = text
                default: s.equityWithLoanAfter = text
                }
            case 11: s.commission = try f.optionalDouble()
            case 12: s.minCommission = try f.optionalDouble()
            case 13: s.maxCommission = try f.optionalDouble()
            case 14: s.commissionCurrency = try f.string()
            case 15: s.marginCurrency = try f.string()
            case 16...24: s.outsideRTHMargins[f.number - 16] = try f.optionalDouble()
            case 25: s.suggestedSize = try f.decimal()
            case 26: s.rejectReason = try f.string()
            case 27:
                s.allocations.append(try f.message("OrderAllocation") {
                    (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    var allocation = TWSOrderAllocation()
                    while let item = try inner.next() {
                        switch item.number {
                        case 1: allocation.account = try item.string()
                        case 2: allocation.position = try item.decimal()
                        case 3: allocation.positionDesired = try item.decimal()
                        case 4: allocation.positionAfter = try item.decimal()
                        case 5: allocation.desiredAllocationQuantity = try item.decimal()
                        case 6: allocation.allowedAllocationQuantity = try item.decimal()
                        case 7: allocation.isMonetary = try item.bool()
                        default: break
                        }
                    }
                    return allocation
                })
            case 28: s.warningText = try f.string()
            case 29: completedTime = try f.string()
            case 30: completedStatus = try f.string()
            default: break
            }
        }
        return (s, completedTime, completedStatus)
    }

    /// A margin value as the text protocol spells it (Java), empty for IB's unset value.
    static func marginText(_ value: Double) -> String {
        value == TWSSentinel.double ? "" : TWSFieldWriter.format(value, style: .java)
    }
}

extension TWSExecution {
    func writeProtobuf(into w: inout TWSProtobufWriter) {
        w.int32(1, orderID)
        w.string(2, executionID)
        w.string(3, time)
        w.string(4, accountNumber)
        w.string(5, exchange)
        w.string(6, side)
        if let shares { w.string(7, TWSFieldWriter.format(shares)) }
        w.double(8, price)
        w.int64(9, permID)
        w.int32(10, clientID)
        w.boolIfTrue(11, liquidation != 0)
        if let cumulativeQuantity { w.string(12, TWSFieldWriter.format(cumulativeQuantity)) }
        w.double(13, averagePrice)
        w.string(14, orderRef)
        w.string(15, evRule)
        w.double(16, evMultiplier)
        w.string(17, modelCode)
        w.int32(18, lastLiquidity)
        w.boolIfTrue(19, pendingPriceRevision)
        w.string(20, submitter)
    }

    static func readProtobuf(_ r: inout TWSProtobufReader) throws(TWSDecodingError) -> TWSExecution {
        var e = TWSExecution()
        while let f = try r.next() {
            switch f.number {
            case 1: e.orderID = try f.int32()
            case 2: e.executionID = try f.string()
            case 3: e.time = try f.string()
            case 4: e.accountNumber = try f.string()
            case 5: e.exchange = try f.string()
            case 6: e.side = try f.string()
            case 7: e.shares = try f.decimal()
            case 8: e.price = try f.double()
            case 9: e.permID = try f.int64()
            case 10: e.clientID = try f.int32()
            case 11: e.liquidation = try f.bool() ? 1 : 0
            case 12: e.cumulativeQuantity = try f.decimal()
            case 13: e.averagePrice = try f.double()
            case 14: e.orderRef = try f.string()
            case 15: e.evRule = try f.string()
            case 16: e.evMultiplier = try f.optionalDouble()
            case 17: e.modelCode = try f.string()
            case 18: e.lastLiquidity = try f.int32()
            case 19: e.pendingPriceRevision = try f.bool()
            case 20: e.submitter = try f.string()
            default: break
            }
        }
        return e
    }
}

extension TWSContractDetails {
    /// The fund fields protobuf carries as booleans: fundClosed, fundClosedForNewInvestors, fundClosedForNewMoney.
    static let fundBooleanFields: Set<Int> = [34, 35, 36]

    func writeProtobuf(into w: inout TWSProtobufWriter) {
        w.string(1, marketName)
        w.string(2, TWSFieldWriter.format(minTick, style: .java))
        w.string(3, orderTypes)
        w.string(4, validExchanges)
        w.int32(5, priceMagnifier)
        w.int32(6, underContractID)
        w.string(7, longName)
        w.string(8, contractMonth)
        w.string(9, industry)
        w.string(10, category)
        w.string(11, subcategory)
        w.string(12, timeZoneID)
        w.string(13, tradingHours)
        w.string(14, liquidHours)
        w.string(15, evRule)
        w.double(16, evMultiplier.map(Double.init))
        w.map(17, securityIDList)
        w.int32(18, aggregationGroup)
        w.string(19, underSymbol)
        w.string(20, underSecurityType)
        w.string(21, marketRuleIDs)
        w.string(22, realExpirationDate)
        w.string(23, stockType)
        if let minSize { w.string(24, TWSFieldWriter.format(minSize)) }
        if let sizeIncrement { w.string(25, TWSFieldWriter.format(sizeIncrement)) }
        if let suggestedSizeIncrement { w.string(26, TWSFieldWriter.format(suggestedSizeIncrement)) }
        // The 17 fund fields (27…43), three of them booleans (34…36: "1" is true).
        for (offset, text) in fundFields.prefix(Self.fundFieldCount).enumerated() where !text.isEmpty {
            if Self.fundBooleanFields.contains(27 + offset) {
                w.bool(27 + offset, text == "1")
            } else {
                w.string(27 + offset, text)
            }
        }
        for reason in ineligibilityReasons {
            w.message(58) { inner in
                inner.string(1, reason.tag)
                inner.string(2, reason.value)
            }
        }
    }

    static func readProtobuf(_ r: inout TWSProtobufReader) throws(TWSDecodingError) -> TWSContractDetails {
        var d = TWSContractDetails()
        while let f = try r.next() {
            switch f.number {
            case 1: d.marketName = try f.string()
            case 2: d.minTick = try f.doubleText() ?? 0
            case 3: d.orderTypes = try f.string()
            case 4: d.validExchanges = try f.string()
            case 5: d.priceMagnifier = try f.int32()
            case 6: d.underContractID = try f.int32()
            case 7: d.longName = try f.string()
            case 8: d.contractMonth = try f.string()
            case 9: d.industry = try f.string()
            case 10: d.category = try f.string()
            case 11: d.subcategory = try f.string()
            case 12: d.timeZoneID = try f.string()
            case 13: d.tradingHours = try f.string()
            case 14: d.liquidHours = try f.string()
            case 15: d.evRule = try f.string()
            case 16:
                let value = try f.double()
                d.evMultiplier = value.isFinite && value == value.rounded() && abs(value) < 1e9 ? Int(value) : nil
            case 17: d.securityIDList.append(try f.mapEntry())
            case 18: d.aggregationGroup = try f.optionalInt32()
            case 19: d.underSymbol = try f.string()
            case 20: d.underSecurityType = try f.string()
            case 21: d.marketRuleIDs = try f.string()
            case 22: d.realExpirationDate = try f.string()
            case 23: d.stockType = try f.string()
            case 24: d.minSize = try f.decimal()
            case 25: d.sizeIncrement = try f.decimal()
            case 26: d.suggestedSizeIncrement = try f.decimal()
            case 27...43:
                if d.fundFields.isEmpty { d.fundFields = Array(repeating: "", count: Self.fundFieldCount) }
                d.fundFields[f.number - 27] = Self.fundBooleanFields.contains(f.number)
                    ? (try f.bool() ? "1" : "0") : try f.string()
            case 58:
                d.ineligibilityReasons.append(try f.message("IneligibilityReason") {
                    (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    var reason = TWSTagValue("", "")
                    while let item = try inner.next() {
                        switch item.number {
                        case 1: reason.tag = try item.string()
                        case 2: reason.value = try item.string()
                        default: break
                        }
                    }
                    return reason
                })
            default: break
            }
        }
        return d
    }
}
