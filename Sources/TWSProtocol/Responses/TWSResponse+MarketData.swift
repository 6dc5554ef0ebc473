/// tickPrice, tickSize, tickString, tickGeneric, tickReqParams, marketDataType, tickSnapshotEnd
/// (PROTOCOL.md §6.5–6.8). This is the hot path: no allocation for numeric ticks.
extension TWSResponse {
    func writeTickBody(into writer: inout TWSFieldWriter) {
        switch self {
        case .tickPrice(let tick):
            writer.write(6)
            writer.write(tick.requestID)
            writer.write(tick.tickType.rawValue)
            writer.write(tick.price)
            writer.writeOptional(tick.size)
            writer.write(tick.attributes.rawValue)
        case .tickSize(let requestID, let tickType, let size):
            writer.write(6)
            writer.write(requestID)
            writer.write(tickType.rawValue)
            writer.writeOptional(size)
        case .tickString(let requestID, let tickType, let value):
            writer.write(6)
            writer.write(requestID)
            writer.write(tickType.rawValue)
            writer.write(value)
        case .tickGeneric(let requestID, let tickType, let value):
            writer.write(6)
            writer.write(requestID)
            writer.write(tickType.rawValue)
            writer.write(value)
        case .tickRequestParameters(let requestID, let minTick, let bboExchange, let permissions):
            writer.write(requestID)
            writer.write(minTick)
            writer.write(bboExchange)
            writer.write(permissions)
        case .marketDataType(let requestID, let type):
            writer.write(1)
            writer.write(requestID)
            writer.write(type)
        case .tickSnapshotEnd(let requestID):
            writer.write(1)
            writer.write(requestID)
        default:
            break
        }
    }

    static func decodeTick(id: Int, from reader: inout TWSFieldReader) throws(TWSDecodingError) -> TWSResponse {
        switch id {
        case 1:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            let tickType = TWSTickType(rawValue: try reader.readRequiredInt("tickType"))
            let price = try reader.readDouble("price")
            let size = try reader.readOptionalDecimal("size")
            let mask = try reader.readInt("attrMask")
            return .tickPrice(TWSTickPrice(requestID: requestID, tickType: tickType, price: price, size: size,
                                           attributes: TWSTickAttributes(rawValue: mask)))
        case 2:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            let tickType = TWSTickType(rawValue: try reader.readRequiredInt("tickType"))
            return .tickSize(requestID: requestID, tickType: tickType, size: try reader.readOptionalDecimal("size"))
        case 46:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            let tickType = TWSTickType(rawValue: try reader.readRequiredInt("tickType"))
            return .tickString(requestID: requestID, tickType: tickType, value: try reader.readString("value"))
        case 45:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            let tickType = TWSTickType(rawValue: try reader.readRequiredInt("tickType"))
            return .tickGeneric(requestID: requestID, tickType: tickType, value: try reader.readDouble("value"))
        case 81:
            let requestID = try reader.readRequiredInt("reqId")
            let minTick = try reader.readDouble("minTick")
            let exchange = try reader.readString("bboExchange")
            return .tickRequestParameters(requestID: requestID, minTick: minTick, bboExchange: exchange,
                                          snapshotPermissions: try reader.readInt("snapshotPermissions"))
        case 58:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            return .marketDataType(requestID: requestID, marketDataType: try reader.readInt("marketDataType"))
        default:
            try skipVersion(&reader)
            return .tickSnapshotEnd(requestID: try reader.readRequiredInt("reqId"))
        }
    }
}
