/// completedOrder's body, both directions. Unset numbers: empty on the wire where the official client reads them
/// with SHOW_UNSET, `2147483647` for the unset ints TWS writes as the Java MAX (displaySize, scale sizes).
extension TWSCompletedOrder {
    // MARK: - Reading (client side)

    static func read(from r: inout TWSFieldReader, serverVersion v: Int) throws(TWSDecodingError) -> TWSCompletedOrder {
        var contract = try TWSContract.readResponseFields(from: &r, exchangeField: .exchange)
        var o = TWSOrder()
        o.action = try r.readString("action")
        o.totalQuantity = try r.readOptionalDecimal("totalQuantity")
        o.orderType = try r.readString("orderType")
        o.limitPrice = try r.readOptionalDouble("lmtPrice")
        o.auxPrice = try r.readOptionalDouble("auxPrice")
        o.timeInForce = try r.readString("tif")
        o.ocaGroup = try r.readString("ocaGroup")
        o.account = try r.readString("account")
        o.openClose = try r.readString("openClose")
        o.origin = try r.readInt("origin")
        o.orderRef = try r.readString("orderRef")
        o.permID = try r.readInt64("permId")
        o.outsideRTH = try r.readBool("outsideRth")
        o.hidden = try r.readBool("hidden")
        o.discretionaryAmount = try r.readDouble("discretionaryAmt")
        o.goodAfterTime = try r.readString("goodAfterTime")
        o.faGroup = try r.readString("faGroup")
        o.faMethod = try r.readString("faMethod")
        o.faPercentage = try r.readString("faPercentage")
        if v < TWSServerVersion.faProfileDesupport { try r.skip(1, "faProfile") }
        o.modelCode = try r.readString("modelCode")
        o.goodTillDate = try r.readString("goodTillDate")
        o.rule80A = try r.readString("rule80A")
        o.percentOffset = try r.readOptionalDouble("percentOffset")
        o.settlingFirm = try r.readString("settlingFirm")
        o.shortSaleSlot = try r.readInt("shortSaleSlot")
        o.designatedLocation = try r.readString("designatedLocation")
        o.exemptCode = try r.readInt("exemptCode")
        o.startingPrice = try r.readOptionalDouble("startingPrice")
        o.stockReferencePrice = try r.readOptionalDouble("stockRefPrice")
        o.delta = try r.readOptionalDouble("delta")
        o.stockRangeLower = try r.readOptionalDouble("stockRangeLower")
        o.stockRangeUpper = try r.readOptionalDouble("stockRangeUpper")
        o.displaySize = try r.readOptionalInt("displaySize")
        o.sweepToFill = try r.readBool("sweepToFill")
        o.allOrNone = try r.readBool("allOrNone")
        o.minimumQuantity = try r.readOptionalInt("minQty")
        o.ocaType = try r.readInt("ocaType")
        o.triggerMethod = try r.readInt("triggerMethod")
        o.volatility = try r.readOptionalDouble("volatility")
        o.volatilityType = try r.readOptionalInt("volatilityType")
        o.deltaNeutralOrderType = try r.readString("deltaNeutralOrderType")
        o.deltaNeutralAuxPrice = try r.readOptionalDouble("deltaNeutralAuxPrice")
        if !o.deltaNeutralOrderType.isEmpty {
            // Without the open-order attributes (settling firm, clearing, openClose): readOpenOrderAttribs false.
            o.deltaNeutralContractID = try r.readInt("deltaNeutralConId")
            o.deltaNeutralShortSale = try r.readBool("deltaNeutralShortSale")
            o.deltaNeutralShortSaleSlot = try r.readInt("deltaNeutralShortSaleSlot")
            o.deltaNeutralDesignatedLocation = try r.readString("deltaNeutralDesignatedLocation")
        }
        o.continuousUpdate = try r.readBool("continuousUpdate")
        o.referencePriceType = try r.readOptionalInt("referencePriceType")
        o.trailStopPrice = try r.readOptionalDouble("trailStopPrice")
        o.trailingPercent = try r.readOptionalDouble("trailingPercent")
        contract.comboLegsDescription = try r.readString("comboLegsDescrip")
        try readCombo(contract: &contract, order: &o, from: &r)
        try readScaleHedgeAlgo(contract: &contract, order: &o, from: &r)
        o.solicited = try r.readBool("solicited")
        let state = TWSOrderState(status: try r.readString("orderState.status"))
        o.randomizeSize = try r.readBool("randomizeSize")
        o.randomizePrice = try r.readBool("randomizePrice")
        if o.isPegBench {
            o.referenceContractID = try r.readInt("referenceContractId")
            o.isPeggedChangeAmountDecrease = try r.readBool("isPeggedChangeAmountDecrease")
            o.peggedChangeAmount = try r.readDouble("peggedChangeAmount")
            o.referenceChangeAmount = try r.readDouble("referenceChangeAmount")
            o.referenceExchangeID = try r.readString("referenceExchangeId")
        }
        try TWSOrder.readNoConditions(from: &r)
        o.trailStopPrice = try r.readOptionalDouble("trailStopPrice")
        o.limitPriceOffset = try r.readOptionalDouble("lmtPriceOffset")
        o.cashQuantity = try r.readOptionalDouble("cashQty")
        o.dontUseAutoPriceForHedge = try r.readBool("dontUseAutoPriceForHedge")
        o.isOMSContainer = try r.readBool("isOmsContainer")
        var result = TWSCompletedOrder(contract: contract, order: o, orderState: state)
        result.autoCancelDate = try r.readString("autoCancelDate")
        result.filledQuantity = try r.readOptionalDecimal("filledQuantity")
        result.referenceFuturesContractID = try r.readOptionalInt("refFuturesConId")
        result.order.autoCancelParent = try r.readBool("autoCancelParent")
        result.shareholder = try r.readString("shareholder")
        result.order.imbalanceOnly = try r.readBool("imbalanceOnly")
        result.routeMarketableToBBO = try r.readBool("routeMarketableToBbo")
        result.parentPermID = try r.readOptionalInt64("parentPermId")
        result.completedTime = try r.readString("completedTime")
        result.completedStatus = try r.readString("completedStatus")
        result.order.minimumTradeQuantity = try r.readOptionalInt("minTradeQty")
        result.order.minimumCompeteSize = try r.readOptionalInt("minCompeteSize")
        result.order.competeAgainstBestOffset = try r.readOptionalDouble("competeAgainstBestOffset")
        result.order.midOffsetAtWhole = try r.readOptionalDouble("midOffsetAtWhole")
        result.order.midOffsetAtHalf = try r.readOptionalDouble("midOffsetAtHalf")
        if v >= TWSServerVersion.customerAccount { result.order.customerAccount = try r.readString("customerAccount") }
        if v >= TWSServerVersion.professionalCustomer {
            result.order.professionalCustomer = try r.readBool("professionalCustomer")
        }
        if v >= TWSServerVersion.submitter { result.order.submitter = try r.readString("submitter") }
        return result
    }

    private static func readCombo(
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

    /// Scale, hedge, clearing, notHeld, delta-neutral contract and algo (no optOutSmartRouting, unlike openOrder).
    private static func readScaleHedgeAlgo(
        contract: inout TWSContract, order o: inout TWSOrder, from r: inout TWSFieldReader
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
        o.clearingAccount = try r.readString("clearingAccount")
        o.clearingIntent = try r.readString("clearingIntent")
        o.notHeld = try r.readBool("notHeld")
        try contract.readDeltaNeutral(from: &r)
        o.algoStrategy = try r.readString("algoStrategy")
        if !o.algoStrategy.isEmpty { o.algoParams = try r.readTagValues("algoParamsCount") }
    }

    // MARK: - Writing (simulator side)

    func writeFields(into w: inout TWSFieldWriter, serverVersion v: Int) {
        let o = order
        contract.writeResponseFields(into: &w, exchangeField: .exchange)
        w.write(o.action)
        w.writeOptional(o.totalQuantity)
        w.write(o.orderType)
        w.writeOptional(o.limitPrice, unset: .empty)
        w.writeOptional(o.auxPrice, unset: .empty)
        w.write(o.timeInForce)
        w.write(o.ocaGroup)
        w.write(o.account)
        w.write(o.openClose)
        w.write(o.origin)
        w.write(o.orderRef)
        w.write(o.permID)
        w.write(o.outsideRTH)
        w.write(o.hidden)
        w.writeCompact(o.discretionaryAmount)
        w.write(o.goodAfterTime)
        w.write(o.faGroup)
        w.write(o.faMethod)
        w.write(o.faPercentage)
        if v < TWSServerVersion.faProfileDesupport { w.writeEmpty() }  // faProfile
        w.write(o.modelCode)
        w.write(o.goodTillDate)
        w.write(o.rule80A)
        w.writeOptional(o.percentOffset, unset: .empty)
        w.write(o.settlingFirm)
        w.write(o.shortSaleSlot)
        w.write(o.designatedLocation)
        w.write(o.exemptCode)
        w.writeOptional(o.startingPrice, unset: .empty)
        w.writeOptional(o.stockReferencePrice, unset: .empty)
        w.writeOptional(o.delta, unset: .empty)
        w.writeOptional(o.stockRangeLower, unset: .empty)
        w.writeOptional(o.stockRangeUpper, unset: .empty)
        w.writeOptional(o.displaySize, unset: .sentinel)
        w.write(o.sweepToFill)
        w.write(o.allOrNone)
        w.writeOptional(o.minimumQuantity, unset: .empty)
        w.write(o.ocaType)
        w.write(o.triggerMethod)
        w.writeOptional(o.volatility, unset: .empty)
        w.writeOptional(o.volatilityType, unset: .empty)
        w.write(o.deltaNeutralOrderType)
        w.writeOptional(o.deltaNeutralAuxPrice, unset: .empty)
        if !o.deltaNeutralOrderType.isEmpty {
            w.write(o.deltaNeutralContractID)
            w.write(o.deltaNeutralShortSale)
            w.write(o.deltaNeutralShortSaleSlot)
            w.write(o.deltaNeutralDesignatedLocation)
        }
        w.write(o.continuousUpdate)
        w.writeOptional(o.referencePriceType, unset: .empty)
        w.writeOptional(o.trailStopPrice, unset: .empty)
        w.writeOptional(o.trailingPercent, unset: .empty)
        w.write(contract.comboLegsDescription)
        writeCombo(into: &w)
        writeScaleHedgeAlgo(into: &w)
        w.write(o.solicited)
        w.write(orderState.status)
        w.write(o.randomizeSize)
        w.write(o.randomizePrice)
        if o.isPegBench {
            w.write(o.referenceContractID)
            w.write(o.isPeggedChangeAmountDecrease)
            w.write(o.peggedChangeAmount)
            w.write(o.referenceChangeAmount)
            w.write(o.referenceExchangeID)
        }
        w.write(0)  // conditionsCount
        w.writeOptional(o.trailStopPrice, unset: .empty)
        w.writeOptional(o.limitPriceOffset, unset: .empty)
        w.writeOptionalCompact(o.cashQuantity)
        w.write(o.dontUseAutoPriceForHedge)
        w.write(o.isOMSContainer)
        w.write(autoCancelDate)
        w.writeOptional(filledQuantity)
        w.writeOptional(referenceFuturesContractID, unset: .empty)
        w.write(o.autoCancelParent)
        w.write(shareholder)
        w.write(o.imbalanceOnly)
        w.write(routeMarketableToBBO)
        if let parentPermID { w.write(parentPermID) } else { w.writeEmpty() }
        w.write(completedTime)
        w.write(completedStatus)
        w.writeOptional(o.minimumTradeQuantity, unset: .empty)
        w.writeOptional(o.minimumCompeteSize, unset: .empty)
        w.writeOptional(o.competeAgainstBestOffset, unset: .empty)
        w.writeOptional(o.midOffsetAtWhole, unset: .empty)
        w.writeOptional(o.midOffsetAtHalf, unset: .empty)
        if v >= TWSServerVersion.customerAccount { w.write(o.customerAccount) }
        if v >= TWSServerVersion.professionalCustomer { w.write(o.professionalCustomer) }
        if v >= TWSServerVersion.submitter { w.write(o.submitter) }
    }

    private func writeCombo(into w: inout TWSFieldWriter) {
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

    private func writeScaleHedgeAlgo(into w: inout TWSFieldWriter) {
        let o = order
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
        w.write(o.clearingAccount)
        w.write(o.clearingIntent)
        w.write(o.notHeld)
        contract.writeDeltaNeutral(into: &w)
        w.write(o.algoStrategy)
        if !o.algoStrategy.isEmpty { w.writeTagValues(o.algoParams) }
    }
}
