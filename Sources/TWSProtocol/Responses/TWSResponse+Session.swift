/// nextValidId, managedAccounts, currentTime(InMillis), errMsg, completedOrdersEnd (PROTOCOL.md §6.1–6.4, 6.23).
extension TWSResponse {
    func writeSessionBody(into writer: inout TWSFieldWriter, serverVersion: Int) throws(TWSEncodingError) {
        switch self {
        case .nextValidID(let orderID):
            writer.write(1)
            writer.write(orderID)
        case .managedAccounts(let list):
            writer.write(1)
            writer.write(list)
        case .currentTime(let time):
            writer.write(1)
            writer.write(time)
        case .currentTimeInMillis(let time):
            guard serverVersion >= TWSServerVersion.currentTimeInMillis else {
                throw .unsupportedServerVersion(message: messageName, required: TWSServerVersion.currentTimeInMillis,
                                                actual: serverVersion)
            }
            writer.write(time)
        case .error(let error):
            if serverVersion < TWSServerVersion.errorTime { writer.write(2) }
            writer.write(error.requestID)
            writer.write(error.code)
            writer.write(error.message)
            if serverVersion >= TWSServerVersion.advancedOrderReject { writer.write(error.advancedOrderRejectJSON) }
            if serverVersion >= TWSServerVersion.errorTime { writer.write(error.errorTime ?? 0) }
        default:
            break
        }
    }

    static func decodeSession(
        id: Int,
        from reader: inout TWSFieldReader,
        serverVersion: Int
    ) throws(TWSDecodingError) -> TWSResponse {
        switch id {
        case 9:
            try skipVersion(&reader)
            return .nextValidID(orderID: try reader.readRequiredInt("orderId"))
        case 15:
            try skipVersion(&reader)
            return .managedAccounts(accountsList: try reader.readString("accountsList"))
        case 49:
            try skipVersion(&reader)
            return .currentTime(Int64(try reader.readRequiredInt("time")))
        case 109:
            guard serverVersion >= TWSServerVersion.currentTimeInMillis else {
                throw .unsupportedServerVersion(message: reader.message, required: TWSServerVersion.currentTimeInMillis,
                                                actual: serverVersion)
            }
            return .currentTimeInMillis(Int64(try reader.readRequiredInt("timeInMillis")))
        case 4:
            return .error(try decodeError(from: &reader, serverVersion: serverVersion))
        default:
            return .completedOrdersEnd
        }
    }

    private static func decodeError(
        from reader: inout TWSFieldReader,
        serverVersion: Int
    ) throws(TWSDecodingError) -> TWSErrorMessage {
        if serverVersion < TWSServerVersion.errorTime { try skipVersion(&reader) }
        let requestID = try reader.readInt("reqId")
        let code = try reader.readRequiredInt("errorCode")
        let text = try reader.readString("errorString")
        var error = TWSErrorMessage(requestID: requestID, code: code, message: text)
        if serverVersion >= TWSServerVersion.advancedOrderReject {
            error.advancedOrderRejectJSON = try reader.readString("advancedOrderRejectJson")
        }
        if serverVersion >= TWSServerVersion.errorTime { error.errorTime = try reader.readInt64("errorTime") }
        return error
    }
}
