/// Server-side reading of placeOrder (PROTOCOL.md §5.10), accepting the official client's and ib_async's
/// spellings (`""`, `2147483647`, `1.7976931348623157e+308`, `Infinite`, `100.0` quantities).
extension TWSOrder {
    static func readPlaceOrderFields(
        from r: inout TWSFieldReader,
        serverVersion v: Int
    ) throws(TWSDecodingError) -> (TWSContract, TWSOrder) {
        var contract = try TWSContract.readRequestFields(from: &r)
        contract.securityIDType = try r.readString("secIdType")
        contract.securityID = try r.readString("secId")
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
        o.transmit = try r.readBool("transmit")
        o.parentID = try r.readInt("parentId")
        o.blockOrder = try r.readBool("blockOrder")
        o.sweepToFill = try r.readBool("sweepToFill")
        o.displaySize = try r.readOptionalInt("displaySize")
        o.triggerMethod = try r.readInt("triggerMethod")
        o.outsideRTH = try r.readBool("outsideRth")
        o.hidden = try r.readBool("hidden")
        if contract.isBag { try o.readPlaceOrderCombo(contract: &contract, from: &r) }
        try r.skip(1, "sharesAllocation")
        o.discretionaryAmount = try r.readDouble("discretionaryAmt")
        o.goodAfterTime = try r.readString("goodAfterTime")
        o.goodTillDate = try r.readString("goodTillDate")
        o.faGroup = try r.readString("faGroup")
        o.faMethod = try r.readString("faMethod")
        o.faPercentage = try r.readString("faPercentage")
        if v < TWSServerVersion.faProfileDesupport { try r.skip(1, "faProfile") }
        o.modelCode = try r.readString("modelCode")
        o.shortSaleSlot = try r.readInt("shortSaleSlot")
        o.designatedLocation = try r.readString("designatedLocation")
        o.exemptCode = try r.readInt("exemptCode")
        o.ocaType = try r.readInt("ocaType")
        o.rule80A = try r.readString("rule80A")
        o.settlingFirm = try r.readString("settlingFirm")
        o.allOrNone = try r.readBool("allOrNone")
        o.minimumQuantity = try r.readOptionalInt("minQty")
        o.percentOffset = try r.readOptionalDouble("percentOffset")
        try r.skip(2, "eTradeOnly/firmQuoteOnly")
        _ = try r.readOptionalDouble("nbboPriceCap")
        o.auctionStrategy = try r.readInt("auctionStrategy")
        o.startingPrice = try r.readOptionalDouble("startingPrice")
        o.stockReferencePrice = try r.readOptionalDouble("stockRefPrice")
        o.delta = try r.readOptionalDouble("delta")
        o.stockRangeLower = try r.readOptionalDouble("stockRangeLower")
        o.stockRangeUpper = try r.readOptionalDouble("stockRangeUpper")
        o.overridePercentageConstraints = try r.readBool("overridePercentageConstraints")
        o.volatility = try r.readOptionalDouble("volatility")
        o.volatilityType = try r.readOptionalInt("volatilityType")
        o.deltaNeutralOrderType = try r.readString("deltaNeutralOrderType")
        o.deltaNeutralAuxPrice = try r.readOptionalDouble("deltaNeutralAuxPrice")
        if !o.deltaNeutralOrderType.isEmpty {
            o.deltaNeutralContractID = try r.readInt("deltaNeutralConId")
            o.deltaNeutralSettlingFirm = try r.readString("deltaNeutralSettlingFirm")
            o.deltaNeutralClearingAccount = try r.readString("deltaNeutralClearingAccount")
            o.deltaNeutralClearingIntent = try r.readString("deltaNeutralClearingIntent")
            o.deltaNeutralOpenClose = try r.readString("deltaNeutralOpenClose")
            o.deltaNeutralShortSale = try r.readBool("deltaNeutralShortSale")
            o.deltaNeutralShortSaleSlot = try r.readInt("deltaNeutralShortSaleSlot")
            o.deltaNeutralDesignatedLocation = try r.readString("deltaNeutralDesignatedLocation")
        }
        o.continuousUpdate = try r.readBool("continuousUpdate")
        o.referencePriceType = try r.readOptionalInt("referencePriceType")
        o.trailStopPrice = try r.readOptionalDouble("trailStopPrice")
        o.trailingPercent = try r.readOptionalDouble("trailingPercent")
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
        o.scaleTable = try r.readString("scaleTable")
        o.activeStartTime = try r.readString("activeStartTime")
        o.activeStopTime = try r.readString("activeStopTime")
        o.hedgeType = try r.readString("hedgeType")
        if !o.hedgeType.isEmpty { o.hedgeParam = try r.readString("hedgeParam") }
        o.optOutSmartRouting = try r.readBool("optOutSmartRouting")
        o.clearingAccount = try r.readString("clearingAccount")
        o.clearingIntent = try r.readString("clearingIntent")
        o.notHeld = try r.readBool("notHeld")
        try contract.readDeltaNeutral(from: &r)
        o.algoStrategy = try r.readString("algoStrategy")
        if !o.algoStrategy.isEmpty { o.algoParams = try r.readTagValues("algoParamsCount") }
        o.algoID = try r.readString("algoId")
        o.whatIf = try r.readBool("whatIf")
        o.orderMiscOptions = TWSTagValue.parseListField(try r.readString("orderMiscOptions"))
        o.solicited = try r.readBool("solicited")
        o.randomizeSize = try r.readBool("randomizeSize")
        o.randomizePrice = try r.readBool("randomizePrice")
        if o.isPegBench {
            o.referenceContractID = try r.readInt("referenceContractId")
            o.isPeggedChangeAmountDecrease = try r.readBool("isPeggedChangeAmountDecrease")
            o.peggedChangeAmount = try r.readDouble("peggedChangeAmount")
            o.referenceChangeAmount = try r.readDouble("referenceChangeAmount")
            o.referenceExchangeID = try r.readString("referenceExchangeId")
        }
        try readNoConditions(from: &r)
        o.adjustedOrderType = try r.readString("adjustedOrderType")
        o.triggerPrice = try r.readOptionalDouble("triggerPrice")
        o.limitPriceOffset = try r.readOptionalDouble("lmtPriceOffset")
        o.adjustedStopPrice = try r.readOptionalDouble("adjustedStopPrice")
        o.adjustedStopLimitPrice = try r.readOptionalDouble("adjustedStopLimitPrice")
        o.adjustedTrailingAmount = try r.readOptionalDouble("adjustedTrailingAmount")
        o.adjustableTrailingUnit = try r.readInt("adjustableTrailingUnit")
        o.extOperator = try r.readString("extOperator")
        o.softDollarTierName = try r.readString("softDollarTier.name")
        o.softDollarTierValue = try r.readString("softDollarTier.value")
        o.cashQuantity = try r.readOptionalDouble("cashQty")
        o.mifid2DecisionMaker = try r.readString("mifid2DecisionMaker")
        o.mifid2DecisionAlgo = try r.readString("mifid2DecisionAlgo")
        o.mifid2ExecutionTrader = try r.readString("mifid2ExecutionTrader")
        o.mifid2ExecutionAlgo = try r.readString("mifid2ExecutionAlgo")
        o.dontUseAutoPriceForHedge = try r.readBool("dontUseAutoPriceForHedge")
        o.isOMSContainer = try r.readBool("isOmsContainer")
        o.discretionaryUpToLimitPrice = try r.readBool("discretionaryUpToLimitPrice")
        o.usePriceManagementAlgo = try r.readOptionalBool("usePriceMgmtAlgo")
        try o.readPlaceOrderTail(contract: contract, from: &r, serverVersion: v)
        return (contract, o)
    }

    /// Reads a conditions count that must be 0: order conditions are not modelled.
    static func readNoConditions(from r: inout TWSFieldReader) throws(TWSDecodingError) {
        let count = try r.readInt("conditionsCount")
        guard count == 0 else {
            throw .malformedField(message: r.message, field: "conditionsCount (order conditions are not supported)",
                                  index: r.index - 1, value: "\(count)")
        }
    }

    private mutating func readPlaceOrderCombo(
        contract: inout TWSContract,
        from r: inout TWSFieldReader
    ) throws(TWSDecodingError) {
        let count = try r.readCount("comboLegsCount")
        for _ in 0..<count {
            var leg = TWSComboLeg(contractID: try r.readInt("leg.conId"), ratio: try r.readInt("leg.ratio"),
                                  action: try r.readString("leg.action"), exchange: try r.readString("leg.exchange"))
            leg.openClose = try r.readInt("leg.openClose")
            leg.shortSaleSlot = try r.readInt("leg.shortSaleSlot")
            leg.designatedLocation = try r.readString("leg.designatedLocation")
            leg.exemptCode = try r.readInt("leg.exemptCode")
            contract.comboLegs.append(leg)
        }
        let priceCount = try r.readCount("orderComboLegsCount")
        for _ in 0..<priceCount { orderComboLegPrices.append(try r.readOptionalDouble("orderComboLeg.price")) }
        smartComboRoutingParams = try r.readTagValues("smartComboRoutingParamsCount")
    }

    private mutating func readPlaceOrderTail(
        contract: TWSContract,
        from r: inout TWSFieldReader,
        serverVersion v: Int
    ) throws(TWSDecodingError) {
        if v >= TWSServerVersion.duration { duration = try r.readOptionalInt("duration") }
        if v >= TWSServerVersion.postToATS { postToATS = try r.readOptionalInt("postToAts") }
        if v >= TWSServerVersion.autoCancelParent { autoCancelParent = try r.readBool("autoCancelParent") }
        if v >= TWSServerVersion.advancedOrderReject {
            advancedErrorOverride = try r.readString("advancedErrorOverride")
        }
        if v >= TWSServerVersion.manualOrderTime { manualOrderTime = try r.readString("manualOrderTime") }
        if v >= TWSServerVersion.pegBestPegMidOffsets {
            if contract.exchange == "IBKRATS" { minimumTradeQuantity = try r.readOptionalInt("minTradeQty") }
            var readMidOffsets = false
            if isPegBest {
                minimumCompeteSize = try r.readOptionalInt("minCompeteSize")
                competeAgainstBestOffset = try r.readOptionalDouble("competeAgainstBestOffset")
                readMidOffsets = competeAgainstBestOffset == .infinity
            } else if isPegMid {
                readMidOffsets = true
            }
            if readMidOffsets {
                midOffsetAtWhole = try r.readOptionalDouble("midOffsetAtWhole")
                midOffsetAtHalf = try r.readOptionalDouble("midOffsetAtHalf")
            }
        }
        if v >= TWSServerVersion.customerAccount { customerAccount = try r.readString("customerAccount") }
        if v >= TWSServerVersion.professionalCustomer { professionalCustomer = try r.readBool("professionalCustomer") }
        if v >= TWSServerVersion.rfqFields && v < TWSServerVersion.undoRFQFields { try r.skip(2, "rfqPlaceholder") }
        if v >= TWSServerVersion.includeOvernight { includeOvernight = try r.readBool("includeOvernight") }
        if v >= TWSServerVersion.cmeTaggingFields {
            manualOrderIndicator = try r.readOptionalInt("manualOrderIndicator")
        }
        if v >= TWSServerVersion.imbalanceOnly { imbalanceOnly = try r.readBool("imbalanceOnly") }
    }
}
