/// Positions, account values and portfolio, account summary, P&L (PROTOCOL.md §6.15–6.17, 6.22–6.23).
extension TWSResponse {
    func writeAccountBody(into writer: inout TWSFieldWriter) {
        switch self {
        case .position(let account, let contract, let position, let averageCost):
            writer.write(3)
            writer.write(account)
            contract.writeResponseFields(into: &writer, exchangeField: .exchange)
            writer.writeOptional(position)
            writer.write(averageCost)
        case .positionEnd:
            writer.write(1)
        case .accountValue(let key, let value, let currency, let accountName):
            writer.write(2)
            writer.write(key)
            writer.write(value)
            writer.write(currency)
            writer.write(accountName)
        case .portfolioValue(let item):
            writer.write(8)
            item.contract.writeResponseFields(into: &writer, exchangeField: .primaryExchange)
            writer.writeOptional(item.position)
            writer.write(item.marketPrice)
            writer.write(item.marketValue)
            writer.write(item.averageCost)
            writer.write(item.unrealizedPNL)
            writer.write(item.realizedPNL)
            writer.write(item.accountName)
        case .accountTime(let time):
            writer.write(1)
            writer.write(time)
        case .accountDownloadEnd(let accountName):
            writer.write(1)
            writer.write(accountName)
        case .accountSummary(let requestID, let account, let tag, let value, let currency):
            writer.write(1)
            writer.write(requestID)
            writer.write(account)
            writer.write(tag)
            writer.write(value)
            writer.write(currency)
        case .accountSummaryEnd(let requestID), .accountUpdateMultiEnd(let requestID):
            writer.write(1)
            writer.write(requestID)
        case .pnl(let requestID, let daily, let unrealized, let realized):
            writer.write(requestID)
            writer.writeOptional(daily, unset: .sentinel)
            writer.writeOptional(unrealized, unset: .sentinel)
            writer.writeOptional(realized, unset: .sentinel)
        case .pnlSingle(let pnl):
            writer.write(pnl.requestID)
            writer.writeOptional(pnl.position)
            writer.writeOptional(pnl.dailyPnL, unset: .sentinel)
            writer.writeOptional(pnl.unrealizedPnL, unset: .sentinel)
            writer.writeOptional(pnl.realizedPnL, unset: .sentinel)
            writer.writeOptional(pnl.value, unset: .sentinel)
        default:
            break
        }
    }

    static func decodeAccount(id: Int, from reader: inout TWSFieldReader) throws(TWSDecodingError) -> TWSResponse {
        switch id {
        case 61:
            try skipVersion(&reader)
            let account = try reader.readString("account")
            let contract = try TWSContract.readResponseFields(from: &reader, exchangeField: .exchange)
            let position = try reader.readOptionalDecimal("position")
            return .position(account: account, contract: contract, position: position,
                             averageCost: try reader.readDouble("avgCost"))
        case 62:
            try skipVersion(&reader)
            return .positionEnd
        case 6:
            try skipVersion(&reader)
            let key = try reader.readString("key")
            let value = try reader.readString("value")
            let currency = try reader.readString("currency")
            return .accountValue(key: key, value: value, currency: currency,
                                 accountName: try reader.readString("accountName"))
        case 7:
            return .portfolioValue(try decodePortfolioValue(from: &reader))
        case 8:
            try skipVersion(&reader)
            return .accountTime(try reader.readString("timeStamp"))
        case 54:
            try skipVersion(&reader)
            return .accountDownloadEnd(accountName: try reader.readString("accountName"))
        case 63:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            let account = try reader.readString("account")
            let tag = try reader.readString("tag")
            let value = try reader.readString("value")
            return .accountSummary(requestID: requestID, account: account, tag: tag, value: value,
                                   currency: try reader.readString("currency"))
        case 64:
            try skipVersion(&reader)
            return .accountSummaryEnd(requestID: try reader.readRequiredInt("reqId"))
        case 94:
            let requestID = try reader.readRequiredInt("reqId")
            let daily = try reader.readOptionalDouble("dailyPnL")
            let unrealized = try reader.readOptionalDouble("unrealizedPnL")
            return .pnl(requestID: requestID, dailyPnL: daily, unrealizedPnL: unrealized,
                        realizedPnL: try reader.readOptionalDouble("realizedPnL"))
        case 95:
            let requestID = try reader.readRequiredInt("reqId")
            let position = try reader.readOptionalDecimal("pos")
            let daily = try reader.readOptionalDouble("dailyPnL")
            let unrealized = try reader.readOptionalDouble("unrealizedPnL")
            let realized = try reader.readOptionalDouble("realizedPnL")
            return .pnlSingle(TWSPnLSingle(requestID: requestID, position: position, dailyPnL: daily,
                                           unrealizedPnL: unrealized, realizedPnL: realized,
                                           value: try reader.readOptionalDouble("value")))
        default:
            try skipVersion(&reader)
            return .accountUpdateMultiEnd(requestID: try reader.readRequiredInt("reqId"))
        }
    }

    private static func decodePortfolioValue(
        from reader: inout TWSFieldReader
    ) throws(TWSDecodingError) -> TWSPortfolioValue {
        let versionIndex = reader.index
        let version = try reader.readInt("version")
        guard version == 8 else {
            throw .malformedField(message: reader.message, field: "version (must be 8)", index: versionIndex,
                                  value: "\(version)")
        }
        let contract = try TWSContract.readResponseFields(from: &reader, exchangeField: .primaryExchange)
        let position = try reader.readOptionalDecimal("position")
        let marketPrice = try reader.readDouble("marketPrice")
        let marketValue = try reader.readDouble("marketValue")
        let averageCost = try reader.readDouble("averageCost")
        let unrealized = try reader.readDouble("unrealizedPNL")
        let realized = try reader.readDouble("realizedPNL")
        return TWSPortfolioValue(contract: contract, position: position, marketPrice: marketPrice,
                                 marketValue: marketValue, averageCost: averageCost, unrealizedPNL: unrealized,
                                 realizedPNL: realized, accountName: try reader.readString("accountName"))
    }
}
