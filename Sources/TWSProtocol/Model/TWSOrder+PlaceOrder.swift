/// placeOrder's body (PROTOCOL.md §5.10), written as IB's official client writes it.
///
/// Unset spellings follow the official client: most optional numbers are empty, `displaySize`, `duration`,
/// `postToAts`, `manualOrderIndicator` use `2147483647`, and the adjusted-order prices and `cashQty` use the
/// MAX double. The reader accepts every spelling (PROTOCOL.md §3, §10).
extension TWSOrder {
    func writePlaceOrderFields(contract: TWSContract, into w: inout TWSFieldWriter, serverVersion v: Int) {
        contract.writeRequestFields(into: &w)
        w.write(contract.securityIDType)
        w.write(contract.securityID)
        w.write(action)
        w.writeOptional(totalQuantity)
        w.write(orderType)
        w.writeOptional(limitPrice, unset: .empty)
        w.writeOptional(auxPrice, unset: .empty)
        w.write(timeInForce)
        w.write(ocaGroup)
        w.write(account)
        w.write(openClose)
        w.write(origin)
        w.write(orderRef)
        w.write(transmit)
        w.write(parentID)
        w.write(blockOrder)
        w.write(sweepToFill)
        w.writeOptional(displaySize, unset: .sentinel)
        w.write(triggerMethod)
        w.write(outsideRTH)
        w.write(hidden)
        if contract.isBag { writePlaceOrderCombo(contract: contract, into: &w) }
        w.writeEmpty()  // sharesAllocation
        if discretionaryAmount == 0 { w.write(0) } else { w.write(discretionaryAmount) }
        w.write(goodAfterTime)
        w.write(goodTillDate)
        w.write(faGroup)
        w.write(faMethod)
        w.write(faPercentage)
        if v < TWSServerVersion.faProfileDesupport { w.writeEmpty() }  // faProfile
        w.write(modelCode)
        w.write(shortSaleSlot)
        w.write(designatedLocation)
        w.write(exemptCode)
        w.write(ocaType)
        w.write(rule80A)
        w.write(settlingFirm)
        w.write(allOrNone)
        w.writeOptional(minimumQuantity, unset: .empty)
        w.writeOptional(percentOffset, unset: .empty)
        w.write(false)  // eTradeOnly: TWS rejects 1
        w.write(false)  // firmQuoteOnly: TWS rejects 1
        w.writeEmpty()  // nbboPriceCap
        w.write(auctionStrategy)
        w.writeOptional(startingPrice, unset: .empty)
        w.writeOptional(stockReferencePrice, unset: .empty)
        w.writeOptional(delta, unset: .empty)
        w.writeOptional(stockRangeLower, unset: .empty)
        w.writeOptional(stockRangeUpper, unset: .empty)
        w.write(overridePercentageConstraints)
        w.writeOptional(volatility, unset: .empty)
        w.writeOptional(volatilityType, unset: .empty)
        w.write(deltaNeutralOrderType)
        w.writeOptional(deltaNeutralAuxPrice, unset: .empty)
        if !deltaNeutralOrderType.isEmpty {
            w.write(deltaNeutralContractID)
            w.write(deltaNeutralSettlingFirm)
            w.write(deltaNeutralClearingAccount)
            w.write(deltaNeutralClearingIntent)
            w.write(deltaNeutralOpenClose)
            w.write(deltaNeutralShortSale)
            w.write(deltaNeutralShortSaleSlot)
            w.write(deltaNeutralDesignatedLocation)
        }
        w.write(continuousUpdate)
        w.writeOptional(referencePriceType, unset: .empty)
        w.writeOptional(trailStopPrice, unset: .empty)
        w.writeOptional(trailingPercent, unset: .empty)
        w.writeOptional(scaleInitLevelSize, unset: .empty)
        w.writeOptional(scaleSubsLevelSize, unset: .empty)
        w.writeOptional(scalePriceIncrement, unset: .empty)
        if hasScaleExtras {
            w.writeOptional(scalePriceAdjustValue, unset: .empty)
            w.writeOptional(scalePriceAdjustInterval, unset: .empty)
            w.writeOptional(scaleProfitOffset, unset: .empty)
            w.write(scaleAutoReset)
            w.writeOptional(scaleInitPosition, unset: .empty)
            w.writeOptional(scaleInitFillQuantity, unset: .empty)
            w.write(scaleRandomPercent)
        }
        w.write(scaleTable)
        w.write(activeStartTime)
        w.write(activeStopTime)
        w.write(hedgeType)
        if !hedgeType.isEmpty { w.write(hedgeParam) }
        w.write(optOutSmartRouting)
        w.write(clearingAccount)
        w.write(clearingIntent)
        w.write(notHeld)
        contract.writeDeltaNeutral(into: &w)
        w.write(algoStrategy)
        if !algoStrategy.isEmpty { w.writeTagValues(algoParams) }
        w.write(algoID)
        w.write(whatIf)
        w.write(TWSTagValue.listField(orderMiscOptions))
        w.write(solicited)
        w.write(randomizeSize)
        w.write(randomizePrice)
        if isPegBench {
            w.write(referenceContractID)
            w.write(isPeggedChangeAmountDecrease)
            w.write(peggedChangeAmount)
            w.write(referenceChangeAmount)
            w.write(referenceExchangeID)
        }
        w.write(0)  // conditionsCount: conditions are not modelled
        w.write(adjustedOrderType)
        w.writeOptional(triggerPrice, unset: .sentinel)
        w.writeOptional(limitPriceOffset, unset: .sentinel)
        w.writeOptional(adjustedStopPrice, unset: .sentinel)
        w.writeOptional(adjustedStopLimitPrice, unset: .sentinel)
        w.writeOptional(adjustedTrailingAmount, unset: .sentinel)
        w.write(adjustableTrailingUnit)
        w.write(extOperator)
        w.write(softDollarTierName)
        w.write(softDollarTierValue)
        w.writeOptional(cashQuantity, unset: .sentinel)
        w.write(mifid2DecisionMaker)
        w.write(mifid2DecisionAlgo)
        w.write(mifid2ExecutionTrader)
        w.write(mifid2ExecutionAlgo)
        w.write(dontUseAutoPriceForHedge)
        w.write(isOMSContainer)
        w.write(discretionaryUpToLimitPrice)
        w.writeOptional(usePriceManagementAlgo)
        writePlaceOrderTail(contract: contract, into: &w, serverVersion: v)
    }

    private func writePlaceOrderCombo(contract: TWSContract, into w: inout TWSFieldWriter) {
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
        w.write(orderComboLegPrices.count)
        for price in orderComboLegPrices { w.writeOptional(price, unset: .empty) }
        w.writeTagValues(smartComboRoutingParams)
    }

    private func writePlaceOrderTail(contract: TWSContract, into w: inout TWSFieldWriter, serverVersion v: Int) {
        if v >= TWSServerVersion.duration { w.writeOptional(duration, unset: .sentinel) }
        if v >= TWSServerVersion.postToATS { w.writeOptional(postToATS, unset: .sentinel) }
        if v >= TWSServerVersion.autoCancelParent { w.write(autoCancelParent) }
        if v >= TWSServerVersion.advancedOrderReject { w.write(advancedErrorOverride) }
        if v >= TWSServerVersion.manualOrderTime { w.write(manualOrderTime) }
        if v >= TWSServerVersion.pegBestPegMidOffsets {
            if contract.exchange == "IBKRATS" { w.writeOptional(minimumTradeQuantity, unset: .empty) }
            var sendMidOffsets = false
            if isPegBest {
                w.writeOptional(minimumCompeteSize, unset: .empty)
                w.writeOptional(competeAgainstBestOffset, unset: .empty)
                sendMidOffsets = competeAgainstBestOffset == .infinity
            } else if isPegMid {
                sendMidOffsets = true
            }
            if sendMidOffsets {
                w.writeOptional(midOffsetAtWhole, unset: .empty)
                w.writeOptional(midOffsetAtHalf, unset: .empty)
            }
        }
        if v >= TWSServerVersion.customerAccount { w.write(customerAccount) }
        if v >= TWSServerVersion.professionalCustomer { w.write(professionalCustomer) }
        if v >= TWSServerVersion.rfqFields && v < TWSServerVersion.undoRFQFields {
            w.writeEmpty()
            w.write(TWSSentinel.int32)
        }
        if v >= TWSServerVersion.includeOvernight { w.write(includeOvernight) }
        if v >= TWSServerVersion.cmeTaggingFields { w.writeOptional(manualOrderIndicator, unset: .sentinel) }
        if v >= TWSServerVersion.imbalanceOnly { w.write(imbalanceOnly) }
    }
}
