/// openOrder's body (PROTOCOL.md §6.10) as TWS writes it (Java numbers; `2147483647` for unset `displaySize`,
/// scale sizes and `manualOrderIndicator`; the MAX double for unset adjusted prices and outside-RTH margins;
/// empty for other unset numbers).
extension TWSOpenOrder {
    func writeFields(into w: inout TWSFieldWriter, serverVersion v: Int) {
        let o = order
        w.write(o.orderID)
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
        w.write(o.clientID)
        w.write(o.permID)
        w.write(o.outsideRTH)
        w.write(o.hidden)
        w.writeCompact(o.discretionaryAmount)
        w.write(o.goodAfterTime)
        w.writeEmpty()  // sharesAllocation
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
        w.write(o.auctionStrategy)
        w.writeOptional(o.startingPrice, unset: .empty)
        w.writeOptional(o.stockReferencePrice, unset: .empty)
        w.writeOptional(o.delta, unset: .empty)
        w.writeOptional(o.stockRangeLower, unset: .empty)
        w.writeOptional(o.stockRangeUpper, unset: .empty)
        w.writeOptional(o.displaySize, unset: .sentinel)
        w.write(o.blockOrder)
        w.write(o.sweepToFill)
        w.write(o.allOrNone)
        w.writeOptional(o.minimumQuantity, unset: .empty)
        w.write(o.ocaType)
        w.write(false)  // eTradeOnly
        w.write(false)  // firmQuoteOnly
        w.write(TWSSentinel.double)  // nbboPriceCap
        w.write(o.parentID)
        w.write(o.triggerMethod)
        w.writeOptional(o.volatility, unset: .empty)
        w.writeOptional(o.volatilityType, unset: .empty)
        w.write(o.deltaNeutralOrderType)
        w.writeOptional(o.deltaNeutralAuxPrice, unset: .empty)
        if !o.deltaNeutralOrderType.isEmpty {
            w.write(o.deltaNeutralContractID)
            w.write(o.deltaNeutralSettlingFirm)
            w.write(o.deltaNeutralClearingAccount)
            w.write(o.deltaNeutralClearingIntent)
            w.write(o.deltaNeutralOpenClose)
            w.write(o.deltaNeutralShortSale)
            w.write(o.deltaNeutralShortSaleSlot)
            w.write(o.deltaNeutralDesignatedLocation)
        }
        w.write(o.continuousUpdate)
        w.writeOptional(o.referencePriceType, unset: .empty)
        w.writeOptional(firstTrailStopPrice, unset: .empty)
        w.writeOptional(o.trailingPercent, unset: .empty)
        w.writeOptional(o.basisPoints, unset: .empty)
        w.writeOptional(o.basisPointsType, unset: .empty)
        w.write(contract.comboLegsDescription)
        TWSOrderSections.writeCombo(contract: contract, order: order, into: &w)
        TWSOrderSections.writeScaleHedgeAlgo(
            contract: contract, order: order, optOutSmartRouting: true, into: &w)
        w.write(o.solicited)
        w.write(o.whatIf)
        writeOrderState(into: &w, serverVersion: v)
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
        w.write(o.adjustedOrderType)
        w.writeOptional(o.triggerPrice, unset: .sentinel)
        w.writeOptional(o.trailStopPrice, unset: .sentinel)
        w.writeOptional(o.limitPriceOffset, unset: .sentinel)
        w.writeOptional(o.adjustedStopPrice, unset: .sentinel)
        w.writeOptional(o.adjustedStopLimitPrice, unset: .sentinel)
        w.writeOptional(o.adjustedTrailingAmount, unset: .sentinel)
        w.write(o.adjustableTrailingUnit)
        w.write(o.softDollarTierName)
        w.write(o.softDollarTierValue)
        w.write(o.softDollarTierDisplayName)
        w.writeOptionalCompact(o.cashQuantity)
        w.write(o.dontUseAutoPriceForHedge)
        w.write(o.isOMSContainer)
        w.write(o.discretionaryUpToLimitPrice)
        w.writeOptional(o.usePriceManagementAlgo)
        w.writeOptional(o.duration, unset: .empty)
        w.writeOptional(o.postToATS, unset: .empty)
        w.write(o.autoCancelParent)
        w.writeOptional(o.minimumTradeQuantity, unset: .empty)
        w.writeOptional(o.minimumCompeteSize, unset: .empty)
        w.writeOptional(o.competeAgainstBestOffset, unset: .empty)
        w.writeOptional(o.midOffsetAtWhole, unset: .empty)
        w.writeOptional(o.midOffsetAtHalf, unset: .empty)
        if v >= TWSServerVersion.customerAccount { w.write(o.customerAccount) }
        if v >= TWSServerVersion.professionalCustomer { w.write(o.professionalCustomer) }
        if v >= TWSServerVersion.bondAccruedInterest { w.write(o.bondAccruedInterest) }
        if v >= TWSServerVersion.includeOvernight { w.write(o.includeOvernight) }
        if v >= TWSServerVersion.cmeTaggingFieldsInOpenOrder {
            w.write(o.extOperator)
            w.writeOptional(o.manualOrderIndicator, unset: .sentinel)
        }
        if v >= TWSServerVersion.submitter { w.write(o.submitter) }
        if v >= TWSServerVersion.imbalanceOnly { w.write(o.imbalanceOnly) }
    }

    private func writeOrderState(into w: inout TWSFieldWriter, serverVersion v: Int) {
        let s = orderState
        w.write(s.status)
        for margin in [s.initMarginBefore, s.maintMarginBefore, s.equityWithLoanBefore, s.initMarginChange,
                       s.maintMarginChange, s.equityWithLoanChange, s.initMarginAfter, s.maintMarginAfter,
                       s.equityWithLoanAfter] {
            w.write(margin)
        }
        w.writeOptional(s.commission, unset: .empty)
        w.writeOptional(s.minCommission, unset: .empty)
        w.writeOptional(s.maxCommission, unset: .empty)
        w.write(s.commissionCurrency)
        if v >= TWSServerVersion.fullOrderPreviewFields {
            w.write(s.marginCurrency)
            for index in 0..<9 {
                w.writeOptional(index < s.outsideRTHMargins.count ? s.outsideRTHMargins[index] : nil, unset: .sentinel)
            }
            w.writeOptional(s.suggestedSize)
            w.write(s.rejectReason)
            w.write(s.allocations.count)
            for allocation in s.allocations {
                w.write(allocation.account)
                w.writeOptional(allocation.position)
                w.writeOptional(allocation.positionDesired)
                w.writeOptional(allocation.positionAfter)
                w.writeOptional(allocation.desiredAllocationQuantity)
                w.writeOptional(allocation.allowedAllocationQuantity)
                w.write(allocation.isMonetary)
            }
        }
        w.write(s.warningText)
    }
}
