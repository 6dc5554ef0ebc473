/// contractDetails' body after the request id (PROTOCOL.md §6.18), for versions ≥ 164 (no version field).
extension TWSContractDetails {
    func writeFields(into w: inout TWSFieldWriter, serverVersion v: Int) {
        w.write(contract.symbol)
        w.write(contract.securityType)
        w.write(lastTradeTime.isEmpty ? contract.lastTradeDateOrContractMonth
                    : contract.lastTradeDateOrContractMonth + " " + lastTradeTime)
        if v >= TWSServerVersion.lastTradeDate { w.write(contract.lastTradeDate) }
        w.writeOptionalCompact(contract.strike)  // TWS writes whole strikes without a fraction here
        w.write(contract.right)
        w.write(contract.exchange)
        w.write(contract.currency)
        w.write(contract.localSymbol)
        w.write(marketName)
        w.write(contract.tradingClass)
        w.write(contract.contractID)
        w.write(minTick)
        w.write(contract.multiplier)
        w.write(orderTypes)
        w.write(validExchanges)
        w.write(priceMagnifier)
        w.write(underContractID)
        w.write(longName)
        w.write(contract.primaryExchange)
        w.write(contractMonth)
        w.write(industry)
        w.write(category)
        w.write(subcategory)
        w.write(timeZoneID)
        w.write(tradingHours)
        w.write(liquidHours)
        w.write(evRule)
        w.writeOptional(evMultiplier, unset: .empty)
        w.writeTagValues(securityIDList)
        w.writeOptional(aggregationGroup, unset: .sentinel)
        w.write(underSymbol)
        w.write(underSecurityType)
        w.write(marketRuleIDs)
        w.write(realExpirationDate)
        w.write(stockType)
        w.writeOptional(minSize)
        w.writeOptional(sizeIncrement)
        w.writeOptional(suggestedSizeIncrement)
        if v >= 179 && contract.securityType == "FUND" {
            for index in 0..<Self.fundFieldCount { w.write(index < fundFields.count ? fundFields[index] : "") }
        }
        if v >= TWSServerVersion.ineligibilityReasons { w.writeTagValues(ineligibilityReasons) }
    }

    /// The number of fund fields of `FUND` contracts (≥ 179).
    static let fundFieldCount = 17

    static func read(
        from r: inout TWSFieldReader,
        serverVersion v: Int
    ) throws(TWSDecodingError) -> TWSContractDetails {
        var d = TWSContractDetails()
        d.contract.symbol = try r.readString("symbol")
        d.contract.securityType = try r.readString("secType")
        let lastTrade = try r.readString("lastTradeDateOrContractMonth")
        // As the official decoder: split 'yyyymmdd hh:mm[ tz]' on a space or '-'.
        let parts = lastTrade.split(whereSeparator: { $0 == " " || $0 == "-" })
        if parts.count > 1 {
            d.contract.lastTradeDateOrContractMonth = String(parts[0])
            d.lastTradeTime = parts.dropFirst().joined(separator: " ")
        } else {
            d.contract.lastTradeDateOrContractMonth = lastTrade
        }
        if v >= TWSServerVersion.lastTradeDate { d.contract.lastTradeDate = try r.readString("lastTradeDate") }
        d.contract.strike = try r.readOptionalDouble("strike")
        d.contract.right = try r.readString("right")
        d.contract.exchange = try r.readString("exchange")
        d.contract.currency = try r.readString("currency")
        d.contract.localSymbol = try r.readString("localSymbol")
        d.marketName = try r.readString("marketName")
        d.contract.tradingClass = try r.readString("tradingClass")
        d.contract.contractID = try r.readInt("conId")
        d.minTick = try r.readDouble("minTick")
        d.contract.multiplier = try r.readString("multiplier")
        d.orderTypes = try r.readString("orderTypes")
        d.validExchanges = try r.readString("validExchanges")
        d.priceMagnifier = try r.readInt("priceMagnifier")
        d.underContractID = try r.readInt("underConId")
        d.longName = try r.readString("longName")
        d.contract.primaryExchange = try r.readString("primaryExchange")
        d.contractMonth = try r.readString("contractMonth")
        d.industry = try r.readString("industry")
        d.category = try r.readString("category")
        d.subcategory = try r.readString("subcategory")
        d.timeZoneID = try r.readString("timeZoneId")
        d.tradingHours = try r.readString("tradingHours")
        d.liquidHours = try r.readString("liquidHours")
        d.evRule = try r.readString("evRule")
        d.evMultiplier = try r.readOptionalInt("evMultiplier")
        d.securityIDList = try r.readTagValues("secIdListCount")
        d.aggregationGroup = try r.readOptionalInt("aggGroup")
        d.underSymbol = try r.readString("underSymbol")
        d.underSecurityType = try r.readString("underSecType")
        d.marketRuleIDs = try r.readString("marketRuleIds")
        d.realExpirationDate = try r.readString("realExpirationDate")
        d.stockType = try r.readString("stockType")
        d.minSize = try r.readOptionalDecimal("minSize")
        d.sizeIncrement = try r.readOptionalDecimal("sizeIncrement")
        d.suggestedSizeIncrement = try r.readOptionalDecimal("suggestedSizeIncrement")
        if v >= 179 && d.contract.securityType == "FUND" {
            for _ in 0..<fundFieldCount { d.fundFields.append(try r.readString("fundField")) }
        }
        if v >= TWSServerVersion.ineligibilityReasons {
            d.ineligibilityReasons = try r.readTagValues("ineligibilityReasonCount")
        }
        return d
    }
}
