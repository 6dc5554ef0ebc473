/// placeOrder, cancelOrder, open/completed orders, global cancel, executions (PROTOCOL.md §5.10–5.12, 5.16,
/// 5.18–5.19).
extension TWSRequest {
    func writeOrderBody(into writer: inout TWSFieldWriter, serverVersion version: Int) throws(TWSEncodingError) {
        switch self {
        case .placeOrder(let orderID, let contract, let order):
            writer.write(orderID)
            order.writePlaceOrderFields(contract: contract, into: &writer, serverVersion: version)
        case .cancelOrder(let orderID, let cancel):
            if version < TWSServerVersion.cmeTaggingFields { writer.write(1) }
            writer.write(orderID)
            if version >= TWSServerVersion.manualOrderTime { writer.write(cancel.manualOrderCancelTime) }
            if version >= TWSServerVersion.rfqFields && version < TWSServerVersion.undoRFQFields {
                writer.writeEmpty()
                writer.writeEmpty()
                writer.write(TWSSentinel.int32)
            }
            if version >= TWSServerVersion.cmeTaggingFields {
                writer.write(cancel.extOperator)
                writer.writeOptional(cancel.manualOrderIndicator, unset: .sentinel)
            }
        case .openOrders, .allOpenOrders:
            writer.write(1)
        case .autoOpenOrders(let autoBind):
            writer.write(1)
            writer.write(autoBind)
        case .globalCancel(let cancel):
            if version >= TWSServerVersion.cmeTaggingFields {
                writer.write(cancel.extOperator)
                writer.writeOptional(cancel.manualOrderIndicator, unset: .sentinel)
            } else {
                writer.write(1)
            }
        case .completedOrders(let apiOnly):
            writer.write(apiOnly)
        case .executions(let requestID, let filter):
            try Self.writeExecutions(requestID: requestID, filter: filter, into: &writer, serverVersion: version)
        default:
            break
        }
    }

    private static func writeExecutions(
        requestID: Int,
        filter: TWSExecutionFilter,
        into writer: inout TWSFieldWriter,
        serverVersion version: Int
    ) throws(TWSEncodingError) {
        writer.write(3)
        writer.write(requestID)
        writer.write(filter.clientID)
        writer.write(filter.accountCode)
        writer.write(filter.time)
        writer.write(filter.symbol)
        writer.write(filter.securityType)
        writer.write(filter.exchange)
        writer.write(filter.side)
        if version >= TWSServerVersion.parametrizedDaysOfExecutions {
            writer.writeOptional(filter.lastNDays, unset: .sentinel)
            writer.write(filter.specificDates.count)
            for date in filter.specificDates { writer.write(date) }
        } else if filter.lastNDays != nil || !filter.specificDates.isEmpty {
            throw .unsupportedServerVersion(message: "reqExecutions(lastNDays/specificDates)",
                                            required: TWSServerVersion.parametrizedDaysOfExecutions, actual: version)
        }
    }

    static func decodeOrders(
        id: Int,
        from reader: inout TWSFieldReader,
        serverVersion version: Int
    ) throws(TWSDecodingError) -> TWSRequest {
        switch id {
        case 3:
            let orderID = try reader.readRequiredInt("orderId")
            let (contract, order) = try TWSOrder.readPlaceOrderFields(from: &reader, serverVersion: version)
            return .placeOrder(orderID: orderID, contract: contract, order: order)
        case 4:
            if version < TWSServerVersion.cmeTaggingFields { try skipVersion(&reader) }
            let orderID = try reader.readRequiredInt("orderId")
            var cancel = TWSOrderCancel()
            if version >= TWSServerVersion.manualOrderTime {
                cancel.manualOrderCancelTime = try reader.readString("manualOrderCancelTime")
            }
            if version >= TWSServerVersion.rfqFields && version < TWSServerVersion.undoRFQFields {
                try reader.skip(3, "rfqPlaceholder")
            }
            if version >= TWSServerVersion.cmeTaggingFields {
                cancel.extOperator = try reader.readString("extOperator")
                cancel.manualOrderIndicator = try reader.readOptionalInt("manualOrderIndicator")
            }
            return .cancelOrder(orderID: orderID, cancel)
        case 5:
            try skipVersion(&reader)
            return .openOrders
        case 16:
            try skipVersion(&reader)
            return .allOpenOrders
        case 15:
            try skipVersion(&reader)
            return .autoOpenOrders(autoBind: try reader.readBool("autoBind"))
        case 58:
            var cancel = TWSOrderCancel()
            if version >= TWSServerVersion.cmeTaggingFields {
                cancel.extOperator = try reader.readString("extOperator")
                cancel.manualOrderIndicator = try reader.readOptionalInt("manualOrderIndicator")
            } else {
                try skipVersion(&reader)
            }
            return .globalCancel(cancel)
        case 99:
            return .completedOrders(apiOnly: try reader.readBool("apiOnly"))
        default:
            return try decodeExecutions(from: &reader, serverVersion: version)
        }
    }

    private static func decodeExecutions(
        from reader: inout TWSFieldReader,
        serverVersion version: Int
    ) throws(TWSDecodingError) -> TWSRequest {
        try skipVersion(&reader)
        let requestID = try reader.readRequiredInt("reqId")
        var filter = TWSExecutionFilter()
        filter.clientID = try reader.readInt("filter.clientId")
        filter.accountCode = try reader.readString("filter.acctCode")
        filter.time = try reader.readString("filter.time")
        filter.symbol = try reader.readString("filter.symbol")
        filter.securityType = try reader.readString("filter.secType")
        filter.exchange = try reader.readString("filter.exchange")
        filter.side = try reader.readString("filter.side")
        if version >= TWSServerVersion.parametrizedDaysOfExecutions {
            filter.lastNDays = try reader.readOptionalInt("filter.lastNDays")
            let count = try reader.readCount("specificDatesCount")
            for _ in 0..<count { filter.specificDates.append(try reader.readInt("specificDate")) }
        }
        return .executions(requestID: requestID, filter: filter)
    }
}
