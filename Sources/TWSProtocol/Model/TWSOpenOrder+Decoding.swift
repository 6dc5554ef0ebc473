/// Client-side reading of openOrder (PROTOCOL.md §6.10). Every unset spelling is `nil`.
extension TWSOpenOrder {
    static func read(from r: inout TWSFieldReader, serverVersion v: Int) throws(TWSDecodingError) -> TWSOpenOrder {
        var o = TWSOrder()
        o.orderID = try r.readInt("orderId")
        var contract = try TWSContract.readResponseFields(from: &r, exchangeField: .exchange)
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
        o.clientID = try r.readInt("clientId")
        o.permID = try r.readInt64("permId")
        o.outsideRTH = try r.readBool("outsideRth")
        o.hidden = try r.readBool("hidden")
        o.discretionaryAmount = try r.readDouble("discretionaryAmt")
        o.goodAfterTime = try r.readString("goodAfterTime")
        try r.skip(1, "sharesAllocation")
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
        o.auctionStrategy = try r.readInt("auctionStrategy")
        o.startingPrice = try r.readOptionalDouble("startingPrice")
        o.stockReferencePrice = try r.readOptionalDouble("stockRefPrice")
        o.delta = try r.readOptionalDouble("delta")
        o.stockRangeLower = try r.readOptionalDouble("stockRangeLower")
        o.stockRangeUpper = try r.readOptionalDouble("stockRangeUpper")
        o.displaySize = try r.readOptionalInt("displaySize")
        o.blockOrder = try r.readBool("blockOrder")
        o.sweepToFill = try r.readBool("sweepToFill")
        o.allOrNone = try r.readBool("allOrNone")
        o.minimumQuantity = try r.readOptionalInt("minQty")
        o.ocaType = try r.readInt("ocaType")
        try r.skip(2, "eTradeOnly/firmQuoteOnly")
        _ = try r.readOptionalDouble("nbboPriceCap")
        o.parentID = try r.readInt("parentId")
        o.triggerMethod = try r.readInt("triggerMethod")
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
        let firstTrailStopPrice = try r.readOptionalDouble("trailStopPrice")
        o.trailingPercent = try r.readOptionalDouble("trailingPercent")
        o.basisPoints = try r.readOptionalDouble("basisPoints")
        o.basisPointsType = try r.readOptionalInt("basisPointsType")
        contract.comboLegsDescription = try r.readString("comboLegsDescrip")
        try readCombo(contract: &contract, order: &o, from: &r)
        try readScaleHedgeAlgo(contract: &contract, order: &o, from: &r)
        o.solicited = try r.readBool("solicited")
        o.whatIf = try r.readBool("whatIf")
        let state = try readOrderState(from: &r, serverVersion: v)
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
        o.adjustedOrderType = try r.readString("adjustedOrderType")
        o.triggerPrice = try r.readOptionalDouble("triggerPrice")
        o.trailStopPrice = try r.readOptionalDouble("trailStopPrice")
        o.limitPriceOffset = try r.readOptionalDouble("lmtPriceOffset")
        o.adjustedStopPrice = try r.readOptionalDouble("adjustedStopPrice")
        o.adjustedStopLimitPrice = try r.readOptionalDouble("adjustedStopLimitPrice")
        o.adjustedTrailingAmount = try r.readOptionalDouble("adjustedTrailingAmount")
        o.adjustableTrailingUnit = try r.readInt("adjustableTrailingUnit")
        o.softDollarTierName = try r.readString("softDollarTier.name")
        o.softDollarTierValue = try r.readString("softDollarTier.value")
        o.softDollarTierDisplayName = try r.readString("softDollarTier.displayName")
        o.cashQuantity = try r.readOptionalDouble("cashQty")
        o.dontUseAutoPriceForHedge = try r.readBool("dontUseAutoPriceForHedge")
        o.isOMSContainer = try r.readBool("isOmsContainer")
        o.discretionaryUpToLimitPrice = try r.readBool("discretionaryUpToLimitPrice")
        o.usePriceManagementAlgo = try r.readOptionalBool("usePriceMgmtAlgo")
        o.duration = try r.readOptionalInt("duration")
        o.postToATS = try r.readOptionalInt("postToAts")
        o.autoCancelParent = try r.readBool("autoCancelParent")
        o.minimumTradeQuantity = try r.readOptionalInt("minTradeQty")
        o.minimumCompeteSize = try r.readOptionalInt("minCompeteSize")
        o.competeAgainstBestOffset = try r.readOptionalDouble("competeAgainstBestOffset")
        o.midOffsetAtWhole = try r.readOptionalDouble("midOffsetAtWhole")
        o.midOffsetAtHalf = try r.readOptionalDouble("midOffsetAtHalf")
        if v >= TWSServerVersion.customerAccount { o.customerAccount = try r.readString("customerAccount") }
        if v >= TWSServerVersion.professionalCustomer {
            o.professionalCustomer = try r.readBool("professionalCustomer")
        }
        if v >= TWSServerVersion.bondAccruedInterest { o.bondAccruedInterest = try r.readString("bondAccruedInterest") }
        if v >= TWSServerVersion.includeOvernight { o.includeOvernight = try r.readBool("includeOvernight") }
        if v >= TWSServerVersion.cmeTaggingFieldsInOpenOrder {
            o.extOperator = try r.readString("extOperator")
            o.manualOrderIndicator = try r.readOptionalInt("manualOrderIndicator")
        }
        if v >= TWSServerVersion.submitter { o.submitter = try r.readString("submitter") }
        if v >= TWSServerVersion.imbalanceOnly { o.imbalanceOnly = try r.readBool("imbalanceOnly") }
        return TWSOpenOrder(contract: contract, order: o, orderState: state, firstTrailStopPrice: firstTrailStopPrice)
    }

    private static func readCombo(
        contract: inout TWSContract,
        order o: inout TWSOrder,
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
        for _ in 0..<priceCount { o.orderComboLegPrices.append(try r.readOptionalDouble("orderComboLeg.price")) }
        o.smartComboRoutingParams = try r.readTagValues("smartComboRoutingParamsCount")
    }

    private static func readScaleHedgeAlgo(
        contract: inout TWSContract,
        order o: inout TWSOrder,
        from r: inout TWSFieldReader
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
        o.optOutSmartRouting = try r.readBool("optOutSmartRouting")
        o.clearingAccount = try r.readString("clearingAccount")
        o.clearingIntent = try r.readString("clearingIntent")
        o.notHeld = try r.readBool("notHeld")
        try contract.readDeltaNeutral(from: &r)
        o.algoStrategy = try r.readString("algoStrategy")
        if !o.algoStrategy.isEmpty { o.algoParams = try r.readTagValues("algoParamsCount") }
    }

    private static func readOrderState(
        from r: inout TWSFieldReader,
        serverVersion v: Int
    ) throws(TWSDecodingError) -> TWSOrderState {
        var s = TWSOrderState(status: try r.readString("orderState.status"))
        s.initMarginBefore = try r.readString("initMarginBefore")
        s.maintMarginBefore = try r.readString("maintMarginBefore")
        s.equityWithLoanBefore = try r.readString("equityWithLoanBefore")
        s.initMarginChange = try r.readString("initMarginChange")
        s.maintMarginChange = try r.readString("maintMarginChange")
        s.equityWithLoanChange = try r.readString("equityWithLoanChange")
        s.initMarginAfter = try r.readString("initMarginAfter")
        s.maintMarginAfter = try r.readString("maintMarginAfter")
        s.equityWithLoanAfter = try r.readString("equityWithLoanAfter")
        s.commission = try r.readOptionalDouble("commission")
        s.minCommission = try r.readOptionalDouble("minCommission")
        s.maxCommission = try r.readOptionalDouble("maxCommission")
        s.commissionCurrency = try r.readString("commissionCurrency")
        if v >= TWSServerVersion.fullOrderPreviewFields {
            s.marginCurrency = try r.readString("marginCurrency")
            for index in 0..<9 { s.outsideRTHMargins[index] = try r.readOptionalDouble("outsideRTHMargin") }
            s.suggestedSize = try r.readOptionalDecimal("suggestedSize")
            s.rejectReason = try r.readString("rejectReason")
            let count = try r.readCount("orderAllocationsCount")
            for _ in 0..<count {
                var allocation = TWSOrderAllocation(account: try r.readString("alloc.account"))
                allocation.position = try r.readOptionalDecimal("alloc.position")
                allocation.positionDesired = try r.readOptionalDecimal("alloc.positionDesired")
                allocation.positionAfter = try r.readOptionalDecimal("alloc.positionAfter")
                allocation.desiredAllocationQuantity = try r.readOptionalDecimal("alloc.desiredAllocQty")
                allocation.allowedAllocationQuantity = try r.readOptionalDecimal("alloc.allowedAllocQty")
                allocation.isMonetary = try r.readBool("alloc.isMonetary")
                s.allocations.append(allocation)
            }
        }
        s.warningText = try r.readString("warningText")
        return s
    }
}
