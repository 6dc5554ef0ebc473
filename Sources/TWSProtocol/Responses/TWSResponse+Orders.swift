/// orderStatus, openOrder(End), execDetails(End), commissionReport (PROTOCOL.md §6.9–6.14), completedOrder (101).
extension TWSResponse {
    func writeOrderBody(into writer: inout TWSFieldWriter, serverVersion: Int) {
        switch self {
        case .orderStatus(let status):
            writer.write(status.orderID)
            writer.write(status.status)
            writer.writeOptional(status.filled)
            writer.writeOptional(status.remaining)
            writer.write(status.averageFillPrice)
            writer.write(status.permID)
            writer.write(status.parentID)
            writer.write(status.lastFillPrice)
            writer.write(status.clientID)
            writer.write(status.whyHeld)
            writer.write(status.marketCapPrice)
        case .openOrder(let openOrder):
            openOrder.writeFields(into: &writer, serverVersion: serverVersion)
        case .openOrderEnd:
            writer.write(1)
        case .completedOrder(let completed):
            completed.writeFields(into: &writer, serverVersion: serverVersion)
        case .executionDetails(let requestID, let contract, let execution):
            writer.write(requestID)
            writer.write(execution.orderID)
            contract.writeResponseFields(into: &writer, exchangeField: .exchange)
            writer.write(execution.executionID)
            writer.write(execution.time)
            writer.write(execution.accountNumber)
            writer.write(execution.exchange)
            writer.write(execution.side)
            writer.writeOptional(execution.shares)
            writer.write(execution.price)
            writer.write(execution.permID)
            writer.write(execution.clientID)
            writer.write(execution.liquidation)
            writer.writeOptional(execution.cumulativeQuantity)
            writer.write(execution.averagePrice)
            writer.write(execution.orderRef)
            writer.write(execution.evRule)
            writer.writeOptional(execution.evMultiplier, unset: .empty)
            writer.write(execution.modelCode)
            writer.write(execution.lastLiquidity)
            if serverVersion >= TWSServerVersion.pendingPriceRevision { writer.write(execution.pendingPriceRevision) }
            if serverVersion >= TWSServerVersion.submitter { writer.write(execution.submitter) }
        case .executionDetailsEnd(let requestID):
            writer.write(1)
            writer.write(requestID)
        case .commissionReport(let report):
            writer.write(1)
            writer.write(report.executionID)
            writer.write(report.commission)
            writer.write(report.currency)
            writer.writeOptional(report.realizedPNL, unset: .sentinel)
            writer.writeOptional(report.yield, unset: .sentinel)
            writer.writeOptional(report.yieldRedemptionDate, unset: .empty)
        default:
            break
        }
    }

    static func decodeOrders(
        id: Int,
        from reader: inout TWSFieldReader,
        serverVersion: Int
    ) throws(TWSDecodingError) -> TWSResponse {
        switch id {
        case 3:
            let orderID = try reader.readRequiredInt("orderId")
            let status = try reader.readString("status")
            let filled = try reader.readOptionalDecimal("filled")
            let remaining = try reader.readOptionalDecimal("remaining")
            var result = TWSOrderStatus(orderID: orderID, status: status, filled: filled, remaining: remaining)
            result.averageFillPrice = try reader.readDouble("avgFillPrice")
            result.permID = try reader.readInt64("permId")
            result.parentID = try reader.readInt("parentId")
            result.lastFillPrice = try reader.readDouble("lastFillPrice")
            result.clientID = try reader.readInt("clientId")
            result.whyHeld = try reader.readString("whyHeld")
            result.marketCapPrice = try reader.readDouble("mktCapPrice")
            return .orderStatus(result)
        case 5:
            return .openOrder(try TWSOpenOrder.read(from: &reader, serverVersion: serverVersion))
        case 53:
            try skipVersion(&reader)
            return .openOrderEnd
        case 101:
            return .completedOrder(try TWSCompletedOrder.read(from: &reader, serverVersion: serverVersion))
        case 11:
            return try decodeExecutionDetails(from: &reader, serverVersion: serverVersion)
        case 55:
            try skipVersion(&reader)
            return .executionDetailsEnd(requestID: try reader.readRequiredInt("reqId"))
        default:
            try skipVersion(&reader)
            let executionID = try reader.readString("execId")
            let commission = try reader.readDouble("commission")
            let currency = try reader.readString("currency")
            let realized = try reader.readOptionalDouble("realizedPNL")
            let yield = try reader.readOptionalDouble("yield")
            let redemption = try reader.readOptionalInt("yieldRedemptionDate")
            return .commissionReport(TWSCommissionReport(executionID: executionID, commission: commission,
                                                         currency: currency, realizedPNL: realized, yield: yield,
                                                         yieldRedemptionDate: redemption))
        }
    }

    private static func decodeExecutionDetails(
        from reader: inout TWSFieldReader,
        serverVersion: Int
    ) throws(TWSDecodingError) -> TWSResponse {
        let requestID = try reader.readInt("reqId")
        var execution = TWSExecution()
        execution.orderID = try reader.readInt("orderId")
        let contract = try TWSContract.readResponseFields(from: &reader, exchangeField: .exchange)
        execution.executionID = try reader.readString("execId")
        execution.time = try reader.readString("time")
        execution.accountNumber = try reader.readString("acctNumber")
        execution.exchange = try reader.readString("exchange")
        execution.side = try reader.readString("side")
        execution.shares = try reader.readOptionalDecimal("shares")
        execution.price = try reader.readDouble("price")
        execution.permID = try reader.readInt64("permId")
        execution.clientID = try reader.readInt("clientId")
        execution.liquidation = try reader.readInt("liquidation")
        execution.cumulativeQuantity = try reader.readOptionalDecimal("cumQty")
        execution.averagePrice = try reader.readDouble("avgPrice")
        execution.orderRef = try reader.readString("orderRef")
        execution.evRule = try reader.readString("evRule")
        execution.evMultiplier = try reader.readOptionalDouble("evMultiplier")
        execution.modelCode = try reader.readString("modelCode")
        execution.lastLiquidity = try reader.readInt("lastLiquidity")
        if serverVersion >= TWSServerVersion.pendingPriceRevision {
            execution.pendingPriceRevision = try reader.readBool("pendingPriceRevision")
        }
        if serverVersion >= TWSServerVersion.submitter { execution.submitter = try reader.readString("submitter") }
        return .executionDetails(requestID: requestID, contract: contract, execution: execution)
    }
}
