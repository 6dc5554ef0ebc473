/// Positions, account updates and summary, P&L (PROTOCOL.md §5.13–5.17, §5.19).
extension TWSRequest {
    func writeAccountBody(into writer: inout TWSFieldWriter) {
        switch self {
        case .positions, .cancelPositions:
            writer.write(1)
        case .accountUpdates(let subscribe, let accountCode):
            writer.write(2)
            writer.write(subscribe)
            writer.write(accountCode)
        case .accountSummary(let requestID, let group, let tags):
            writer.write(1)
            writer.write(requestID)
            writer.write(group)
            writer.write(tags)
        case .cancelAccountSummary(let requestID):
            writer.write(1)
            writer.write(requestID)
        case .pnl(let requestID, let account, let modelCode):
            writer.write(requestID)
            writer.write(account)
            writer.write(modelCode)
        case .cancelPnL(let requestID), .cancelPnLSingle(let requestID):
            writer.write(requestID)
        case .pnlSingle(let requestID, let account, let modelCode, let contractID):
            writer.write(requestID)
            writer.write(account)
            writer.write(modelCode)
            writer.write(contractID)
        case .accountUpdatesMulti(let requestID, let account, let modelCode, let ledgerAndNLV):
            writer.write(1)
            writer.write(requestID)
            writer.write(account)
            writer.write(modelCode)
            writer.write(ledgerAndNLV)
        default:
            break
        }
    }

    static func decodeAccount(id: Int, from reader: inout TWSFieldReader) throws(TWSDecodingError) -> TWSRequest {
        switch id {
        case 61:
            try skipVersion(&reader)
            return .positions
        case 64:
            try skipVersion(&reader)
            return .cancelPositions
        case 6:
            try skipVersion(&reader)
            let subscribe = try reader.readBool("subscribe")
            return .accountUpdates(subscribe: subscribe, accountCode: try reader.readString("acctCode"))
        case 62:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            let group = try reader.readString("groupName")
            return .accountSummary(requestID: requestID, group: group, tags: try reader.readString("tags"))
        case 63:
            try skipVersion(&reader)
            return .cancelAccountSummary(requestID: try reader.readRequiredInt("reqId"))
        case 92:
            let requestID = try reader.readRequiredInt("reqId")
            let account = try reader.readString("account")
            return .pnl(requestID: requestID, account: account, modelCode: try reader.readString("modelCode"))
        case 93:
            return .cancelPnL(requestID: try reader.readRequiredInt("reqId"))
        case 94:
            let requestID = try reader.readRequiredInt("reqId")
            let account = try reader.readString("account")
            let modelCode = try reader.readString("modelCode")
            return .pnlSingle(requestID: requestID, account: account, modelCode: modelCode,
                              contractID: try reader.readInt("conId"))
        case 95:
            return .cancelPnLSingle(requestID: try reader.readRequiredInt("reqId"))
        default:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            let account = try reader.readString("account")
            let modelCode = try reader.readString("modelCode")
            return .accountUpdatesMulti(requestID: requestID, account: account, modelCode: modelCode,
                                        ledgerAndNLV: try reader.readBool("ledgerAndNLV"))
        }
    }
}
