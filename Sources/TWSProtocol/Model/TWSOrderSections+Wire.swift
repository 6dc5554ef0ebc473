/// The combo and scale/hedge/algo sections that openOrder (5) and completedOrder (101) share, field for field,
/// except that completedOrder has no optOutSmartRouting.
enum TWSOrderSections {
    /// Combo legs, their order prices and the smart combo routing parameters.
    static func readCombo(
        contract: inout TWSContract, order o: inout TWSOrder, from r: inout TWSFieldReader
    ) throws(TWSDecodingError) {
        let count = try r.readCount("comboLegsCount")
        for _ in 0..<count {
            var leg = TWSComboLeg(
                contractID: try r.readInt("leg.conId"), ratio: try r.readInt("leg.ratio"),
                action: try r.readString("leg.action"), exchange: try r.readString("leg.exchange"))
            leg.openClose = try r.readInt("leg.openClose")
            leg.shortSaleSlot = try r.readInt("leg.shortSaleSlot")
            leg.designatedLocation = try r.readString("leg.designatedLocation")
            leg.exemptCode = try r.readInt("leg.exemptCode")
            contract.comboLegs.append(leg)
        }
        let priceCount = try r.readCount("orderComboLegsCount")
        for _ in 0..<priceCount { o.orderComboLegPrices.append(try r.readOptionalDouble("orderComboLeg.price")) }
        o.smartComboRoutingParams = try r.readTagValues("smartComboRoutingParamsCount")
    }

    /// Scale, hedge, (optOutSmartRouting,) clearing, notHeld, delta-neutral contract and algo.
    static func readScaleHedgeAlgo(
        contract: inout TWSContract, order o: inout TWSOrder, optOutSmartRouting: Bool, from r: inout TWSFieldReader
    ) throws(TWSDecodingError) {
        o.scaleInitLevelSize = try r.readOptionalInt("scaleInitLevelSize")
        o.scaleSubsLevelSize = try r.readOptionalInt("scaleSubsLevelSize")
        o.scalePriceIncrement = try r.readOptionalDouble("scalePriceIncrement")
        if o.hasScaleExtras {
            o.scalePriceAdjustValue = try r.readOptionalDouble("scalePriceAdjustValue")
            o.scalePriceAdjustInterval = try r.readOptionalInt("scalePriceAdjustInterval")
            o.scaleProfitOffset = try r.readOptionalDouble("scaleProfitOffset")
            o.scaleAutoReset = try r.readBool("scaleAutoReset")
            o.scaleInitPosition = try r.readOptionalInt("scaleInitPosition")
            o.scaleInitFillQuantity = try r.readOptionalInt("scaleInitFillQty")
            o.scaleRandomPercent = try r.readBool("scaleRandomPercent")
        }
        o.hedgeType = try r.readString("hedgeType")
        if !o.hedgeType.isEmpty { o.hedgeParam = try r.readString("hedgeParam") }
        if optOutSmartRouting { o.optOutSmartRouting = try r.readBool("optOutSmartRouting") }
        o.clearingAccount = try r.readString("clearingAccount")
        o.clearingIntent = try r.readString("clearingIntent")
        o.notHeld = try r.readBool("notHeld")
        try contract.readDeltaNeutral(from: &r)
        o.algoStrategy = try r.readString("algoStrategy")
        if !o.algoStrategy.isEmpty { o.algoParams = try r.readTagValues("algoParamsCount") }
    }

    /// Writes what `readCombo` reads.
    static func writeCombo(contract: TWSContract, order: TWSOrder, into w: inout TWSFieldWriter) {
        w.write(contract.comboLegs.count)
        for leg in contract.comboLegs {
            w.write(leg.contractID)
            w.write(leg.ratio)
            w.write(leg.action)
            w.write(leg.exchange)
            w.write(leg.openClose)
            w.write(leg.shortSaleSlot)
            w.write(leg.designatedLocation)
            w.write(leg.exemptCode)
        }
        w.write(order.orderComboLegPrices.count)
        for price in order.orderComboLegPrices { w.writeOptional(price, unset: .empty) }
        w.writeTagValues(order.smartComboRoutingParams)
    }

    /// Writes what `readScaleHedgeAlgo` reads.
    static func writeScaleHedgeAlgo(
        contract: TWSContract, order o: TWSOrder, optOutSmartRouting: Bool, into w: inout TWSFieldWriter
    ) {
        w.writeOptional(o.scaleInitLevelSize, unset: .sentinel)
        w.writeOptional(o.scaleSubsLevelSize, unset: .sentinel)
        w.writeOptional(o.scalePriceIncrement, unset: .empty)
        if o.hasScaleExtras {
            w.writeOptional(o.scalePriceAdjustValue, unset: .empty)
            w.writeOptional(o.scalePriceAdjustInterval, unset: .empty)
            w.writeOptional(o.scaleProfitOffset, unset: .empty)
            w.write(o.scaleAutoReset)
            w.writeOptional(o.scaleInitPosition, unset: .empty)
            w.writeOptional(o.scaleInitFillQuantity, unset: .empty)
            w.write(o.scaleRandomPercent)
        }
        w.write(o.hedgeType)
        if !o.hedgeType.isEmpty { w.write(o.hedgeParam) }
        if optOutSmartRouting { w.write(o.optOutSmartRouting) }
        w.write(o.clearingAccount)
        w.write(o.clearingIntent)
        w.write(o.notHeld)
        contract.writeDeltaNeutral(into: &w)
        w.write(o.algoStrategy)
        if !o.algoStrategy.isEmpty { w.writeTagValues(o.algoParams) }
    }
}
