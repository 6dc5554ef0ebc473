/// contractDetails(End), marketRule, historicalData(End/Update), realTimeBars (PROTOCOL.md §6.18–6.21).
extension TWSResponse {
    func writeDataBody(into writer: inout TWSFieldWriter, serverVersion: Int) throws(TWSEncodingError) {
        switch self {
        case .contractDetails(let requestID, let details):
            writer.write(requestID)
            details.writeFields(into: &writer, serverVersion: serverVersion)
        case .contractDetailsEnd(let requestID):
            writer.write(1)
            writer.write(requestID)
        case .historicalData(let requestID, let start, let end, let bars):
            writer.write(requestID)
            if serverVersion < TWSServerVersion.historicalDataEnd {
                writer.write(start ?? "")
                writer.write(end ?? "")
            }
            writer.write(bars.count)
            for bar in bars {
                writer.write(bar.date)
                writer.write(bar.open)
                writer.write(bar.high)
                writer.write(bar.low)
                writer.write(bar.close)
                writer.writeOptional(bar.volume)
                writer.writeOptional(bar.wap)
                writer.write(bar.barCount)
            }
        case .historicalDataEnd(let requestID, let start, let end):
            guard serverVersion >= TWSServerVersion.historicalDataEnd else {
                throw .unsupportedServerVersion(message: messageName, required: TWSServerVersion.historicalDataEnd,
                                                actual: serverVersion)
            }
            writer.write(requestID)
            writer.write(start)
            writer.write(end)
        case .historicalDataUpdate(let requestID, let bar):
            writer.write(requestID)
            writer.write(bar.barCount)
            writer.write(bar.date)
            writer.write(bar.open)
            writer.write(bar.close)
            writer.write(bar.high)
            writer.write(bar.low)
            writer.writeOptional(bar.wap)
            writer.writeOptional(bar.volume)
        case .realTimeBar(let requestID, let bar):
            writer.write(3)
            writer.write(requestID)
            writer.write(bar.time)
            writer.write(bar.open)
            writer.write(bar.high)
            writer.write(bar.low)
            writer.write(bar.close)
            writer.writeOptional(bar.volume)
            writer.writeOptional(bar.wap)
            writer.write(bar.count)
        case .marketRule(let ruleID, let increments):
            // No version field: marketRuleId, the count, then lowEdge and increment per band (Java doubles).
            writer.write(ruleID)
            writer.write(increments.count)
            for band in increments {
                writer.write(band.lowEdge)
                writer.write(band.increment)
            }
        default:
            break
        }
    }

    static func decodeData(
        id: Int,
        from reader: inout TWSFieldReader,
        serverVersion: Int
    ) throws(TWSDecodingError) -> TWSResponse {
        switch id {
        case 10:
            let requestID = try reader.readRequiredInt("reqId")
            return .contractDetails(requestID: requestID,
                                    details: try TWSContractDetails.read(from: &reader, serverVersion: serverVersion))
        case 52:
            try skipVersion(&reader)
            return .contractDetailsEnd(requestID: try reader.readRequiredInt("reqId"))
        case 93:
            return try decodeMarketRule(from: &reader)
        case 17:
            return try decodeHistoricalData(from: &reader, serverVersion: serverVersion)
        case 108:
            guard serverVersion >= TWSServerVersion.historicalDataEnd else {
                throw .unsupportedServerVersion(message: reader.message, required: TWSServerVersion.historicalDataEnd,
                                                actual: serverVersion)
            }
            let requestID = try reader.readRequiredInt("reqId")
            let start = try reader.readString("startDateStr")
            let end = try reader.readString("endDateStr")
            return .historicalDataEnd(requestID: requestID, startDate: start, endDate: end)
        case 90:
            let requestID = try reader.readRequiredInt("reqId")
            let barCount = try reader.readInt("bar.barCount")
            let date = try reader.readString("bar.date")
            let open = try reader.readDouble("bar.open")
            let close = try reader.readDouble("bar.close")
            let high = try reader.readDouble("bar.high")
            let low = try reader.readDouble("bar.low")
            let wap = try reader.readOptionalDecimal("bar.wap")
            let volume = try reader.readOptionalDecimal("bar.volume")
            return .historicalDataUpdate(requestID: requestID, bar: TWSBar(date: date, open: open, high: high, low: low,
                                                                          close: close, volume: volume, wap: wap,
                                                                          barCount: barCount))
        default:
            try skipVersion(&reader)
            let requestID = try reader.readRequiredInt("reqId")
            let time = try reader.readInt64("time")
            let open = try reader.readDouble("open")
            let high = try reader.readDouble("high")
            let low = try reader.readDouble("low")
            let close = try reader.readDouble("close")
            let volume = try reader.readOptionalDecimal("volume")
            let wap = try reader.readOptionalDecimal("wap")
            let count = try reader.readInt("count")
            return .realTimeBar(requestID: requestID, bar: TWSRealTimeBar(time: time, open: open, high: high, low: low,
                                                                         close: close, volume: volume, wap: wap,
                                                                         count: count))
        }
    }

    /// marketRule: the count is bounded (`TWSValueRange.marketRuleBands`) and every value is a finite price
    /// (`TWSValueRange.marketRulePrices`), the unset sentinel included as out of range: a band the layers above would
    /// turn into a fixed-point price must be one.
    private static func decodeMarketRule(from reader: inout TWSFieldReader) throws(TWSDecodingError) -> TWSResponse {
        let ruleID = try reader.readRequiredInt("marketRuleId")
        let count = try reader.readInt("priceIncrementsCount")
        guard TWSValueRange.marketRuleBands.contains(count) else {
            throw .outOfRange(message: reader.message, field: "priceIncrementsCount", value: String(count),
                              allowed: "\(TWSValueRange.marketRuleBands.lowerBound)…\(TWSValueRange.marketRuleBands.upperBound)")
        }
        var increments: [TWSPriceIncrement] = []
        increments.reserveCapacity(count)
        for _ in 0..<count {
            let lowEdge = try reader.readDouble("lowEdge")
            let increment = try reader.readDouble("increment")
            for (field, value) in [("lowEdge", lowEdge), ("increment", increment)]
            where !TWSValueRange.marketRulePrices.contains(value) {
                throw .outOfRange(message: reader.message, field: field, value: String(value),
                                  allowed: "\(TWSValueRange.marketRulePrices.lowerBound)…\(TWSValueRange.marketRulePrices.upperBound)")
            }
            increments.append(TWSPriceIncrement(lowEdge: lowEdge, increment: increment))
        }
        return .marketRule(marketRuleID: ruleID, increments: increments)
    }

    private static func decodeHistoricalData(
        from reader: inout TWSFieldReader,
        serverVersion: Int
    ) throws(TWSDecodingError) -> TWSResponse {
        let requestID = try reader.readRequiredInt("reqId")
        var start: String?
        var end: String?
        if serverVersion < TWSServerVersion.historicalDataEnd {
            start = try reader.readString("startDateStr")
            end = try reader.readString("endDateStr")
        }
        let count = try reader.readCount("itemCount")
        var bars: [TWSBar] = []
        for _ in 0..<count {
            let date = try reader.readString("bar.date")
            let open = try reader.readDouble("bar.open")
            let high = try reader.readDouble("bar.high")
            let low = try reader.readDouble("bar.low")
            let close = try reader.readDouble("bar.close")
            let volume = try reader.readOptionalDecimal("bar.volume")
            let wap = try reader.readOptionalDecimal("bar.wap")
            let barCount = try reader.readInt("bar.barCount")
            bars.append(TWSBar(date: date, open: open, high: high, low: low, close: close, volume: volume, wap: wap,
                               barCount: barCount))
        }
        return .historicalData(requestID: requestID, startDate: start, endDate: end, bars: bars)
    }
}
