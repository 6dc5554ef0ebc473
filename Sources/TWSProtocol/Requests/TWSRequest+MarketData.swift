/// Contract details, market rules, market data, real-time bars, historical data (PROTOCOL.md §5.5–5.9).
extension TWSRequest {
    func writeMarketDataBody(into writer: inout TWSFieldWriter, serverVersion: Int) {
        switch self {
        case .contractDetails(let requestID, let contract):
            writer.write(8)
            writer.write(requestID)
            contract.writeRequestFields(into: &writer)
            writer.write(contract.includeExpired)
            writer.write(contract.securityIDType)
            writer.write(contract.securityID)
            if serverVersion >= TWSServerVersion.bondIssuerID { writer.write(contract.issuerID) }
        case .marketData(let request):
            writer.write(11)
            writer.write(request.requestID)
            request.contract.writeRequestFields(into: &writer)
            request.contract.writeShortComboLegs(into: &writer)
            request.contract.writeDeltaNeutral(into: &writer)
            writer.write(request.genericTickList)
            writer.write(request.snapshot)
            writer.write(request.regulatorySnapshot)
            writer.write(TWSTagValue.listField(request.options))
        case .cancelMarketData(let requestID):
            writer.write(2)
            writer.write(requestID)
        case .marketDataType(let type):
            writer.write(1)
            writer.write(type)
        case .realTimeBars(let request):
            writer.write(3)
            writer.write(request.requestID)
            request.contract.writeRequestFields(into: &writer)
            writer.write(request.barSize)
            writer.write(request.whatToShow)
            writer.write(request.useRTH)
            writer.write(TWSTagValue.listField(request.options))
        case .cancelRealTimeBars(let requestID), .cancelHistoricalData(let requestID):
            writer.write(1)
            writer.write(requestID)
        case .historicalData(let request):
            writer.write(request.requestID)
            request.contract.writeRequestFields(into: &writer)
            writer.write(request.contract.includeExpired)
            writer.write(request.endDateTime)
            writer.write(request.barSizeSetting)
            writer.write(request.durationString)
            writer.write(request.useRTH ? 1 : 0)
            writer.write(request.whatToShow)
            writer.write(request.formatDate)
            request.contract.writeShortComboLegs(into: &writer)
            writer.write(request.keepUpToDate)
            writer.write(TWSTagValue.listField(request.chartOptions))
        case .marketRule(let ruleID):
            // No version field (the official client 10.51 and ib_async 2.1 alike: `91|26|`).
            writer.write(ruleID)
        default:
            break
        }
    }

    static func decodeMarketData(
        id: Int,
        from reader: inout TWSFieldReader,
        serverVersion: Int
    ) throws(TWSDecodingError) -> TWSRequest {
        switch id {
        case 9:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            var contract = try TWSContract.readRequestFields(from: &reader)
            contract.includeExpired = try reader.readBool("includeExpired")
            contract.securityIDType = try reader.readString("secIdType")
            contract.securityID = try reader.readString("secId")
            if serverVersion >= TWSServerVersion.bondIssuerID { contract.issuerID = try reader.readString("issuerId") }
            return .contractDetails(requestID: requestID, contract: contract)
        case 1:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            var contract = try TWSContract.readRequestFields(from: &reader)
            try contract.readShortComboLegs(from: &reader)
            try contract.readDeltaNeutral(from: &reader)
            let ticks = try reader.readString("genericTickList")
            let snapshot = try reader.readBool("snapshot")
            let regulatory = try reader.readBool("regulatorySnapshot")
            let options = TWSTagValue.parseListField(try reader.readString("mktDataOptions"))
            return .marketData(TWSMarketDataRequest(requestID: requestID, contract: contract, genericTickList: ticks,
                                                    snapshot: snapshot, regulatorySnapshot: regulatory,
                                                    options: options))
        case 2:
            try skipVersion(&reader)
            return .cancelMarketData(requestID: try reader.readRequiredInt("reqId"))
        case 91:
            return .marketRule(marketRuleID: try reader.readRequiredInt("marketRuleId"))
        case 59:
            try skipVersion(&reader)
            return .marketDataType(try reader.readRequiredInt("marketDataType"))
        case 50:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            let contract = try TWSContract.readRequestFields(from: &reader)
            let barSize = try reader.readInt("barSize")
            let whatToShow = try reader.readString("whatToShow")
            let useRTH = try reader.readBool("useRTH")
            let options = TWSTagValue.parseListField(try reader.readString("realTimeBarsOptions"))
            return .realTimeBars(TWSRealTimeBarsRequest(requestID: requestID, contract: contract, barSize: barSize,
                                                        whatToShow: whatToShow, useRTH: useRTH, options: options))
        case 51:
            try skipVersion(&reader)
            return .cancelRealTimeBars(requestID: try reader.readRequiredInt("reqId"))
        case 20:
            return .historicalData(try decodeHistoricalData(from: &reader))
        default:
            try skipVersion(&reader)
            return .cancelHistoricalData(requestID: try reader.readRequiredInt("reqId"))
        }
    }

    private static func decodeHistoricalData(
        from reader: inout TWSFieldReader
    ) throws(TWSDecodingError) -> TWSHistoricalDataRequest {
        let requestID = try reader.readRequiredInt("reqId")
        var contract = try TWSContract.readRequestFields(from: &reader)
        contract.includeExpired = try reader.readBool("includeExpired")
        let end = try reader.readString("endDateTime")
        let barSize = try reader.readString("barSizeSetting")
        let duration = try reader.readString("durationStr")
        let useRTH = try reader.readBool("useRTH")
        let whatToShow = try reader.readString("whatToShow")
        let formatDate = try reader.readInt("formatDate")
        try contract.readShortComboLegs(from: &reader)
        let keepUpToDate = try reader.readBool("keepUpToDate")
        let options = TWSTagValue.parseListField(try reader.readString("chartOptions"))
        return TWSHistoricalDataRequest(requestID: requestID, contract: contract, endDateTime: end,
                                        durationString: duration, barSizeSetting: barSize, whatToShow: whatToShow,
                                        useRTH: useRTH, formatDate: formatDate, keepUpToDate: keepUpToDate,
                                        chartOptions: options)
    }
}
