import Foundation
import TWSProtocol

extension TWSArbitrary {
    /// The fields placeOrder and openOrder both carry, set at random.
    mutating func commonOrderFields(_ o: inout TWSOrder) {
        o.action = pick(["BUY", "SELL", "SSHORT"])
        o.totalQuantity = optionalDecimal()
        o.orderType = pick(["MKT", "LMT", "STP", "STP LMT", "TRAIL", "REL", "PEG BEST", "PEG MID", "PEG BENCH"])
        o.limitPrice = optionalDouble()
        o.auxPrice = optionalDouble()
        o.timeInForce = pick(["DAY", "GTC", "IOC", ""])
        o.ocaGroup = text()
        o.account = text()
        o.openClose = pick(["", "O", "C"])
        o.origin = int(0...1)
        o.orderRef = text()
        o.blockOrder = chance()
        o.sweepToFill = chance()
        o.displaySize = optionalInt()
        o.triggerMethod = int(0...8)
        o.outsideRTH = chance()
        o.hidden = chance()
        o.discretionaryAmount = chance() ? 0 : double()
        o.goodAfterTime = text()
        o.goodTillDate = text()
        o.faGroup = text()
        o.faMethod = text()
        o.faPercentage = text()
        o.modelCode = text()
        o.shortSaleSlot = int(0...2)
        o.designatedLocation = text()
        o.exemptCode = int(-1...5)
        o.ocaType = int(0...3)
        o.rule80A = text(maxLength: 1)
        o.settlingFirm = text()
        o.allOrNone = chance()
        o.minimumQuantity = optionalInt()
        o.percentOffset = optionalDouble()
        o.auctionStrategy = int(0...3)
        o.startingPrice = optionalDouble()
        o.stockReferencePrice = optionalDouble()
        o.delta = optionalDouble()
        o.stockRangeLower = optionalDouble()
        o.stockRangeUpper = optionalDouble()
        o.volatility = optionalDouble()
        o.volatilityType = optionalInt()
        o.deltaNeutralOrderType = chance() ? "" : nonEmptyText()
        o.deltaNeutralAuxPrice = optionalDouble()
        if !o.deltaNeutralOrderType.isEmpty {
            o.deltaNeutralContractID = int()
            o.deltaNeutralSettlingFirm = text()
            o.deltaNeutralClearingAccount = text()
            o.deltaNeutralClearingIntent = text()
            o.deltaNeutralOpenClose = text()
            o.deltaNeutralShortSale = chance()
            o.deltaNeutralShortSaleSlot = int(0...2)
            o.deltaNeutralDesignatedLocation = text()
        }
        o.continuousUpdate = chance()
        o.referencePriceType = optionalInt()
        o.trailStopPrice = optionalDouble()
        o.trailingPercent = optionalDouble()
        o.scaleInitLevelSize = optionalInt()
        o.scaleSubsLevelSize = optionalInt()
        o.scalePriceIncrement = chance() ? nil : Double(int(-5...50)) / 10
        if o.hasScaleExtrasForTesting {
            o.scalePriceAdjustValue = optionalDouble()
            o.scalePriceAdjustInterval = optionalInt()
            o.scaleProfitOffset = optionalDouble()
            o.scaleAutoReset = chance()
            o.scaleInitPosition = optionalInt()
            o.scaleInitFillQuantity = optionalInt()
            o.scaleRandomPercent = chance()
        }
        o.hedgeType = chance() ? "" : nonEmptyText()
        if !o.hedgeType.isEmpty { o.hedgeParam = text() }
        o.optOutSmartRouting = chance()
        o.clearingAccount = text()
        o.clearingIntent = pick(["", "IB", "Away"])
        o.notHeld = chance()
        o.algoStrategy = chance() ? "" : nonEmptyText()
        if !o.algoStrategy.isEmpty { o.algoParams = tagValues() }
        o.whatIf = chance()
        o.solicited = chance()
        o.randomizeSize = chance()
        o.randomizePrice = chance()
        if o.orderType == "PEG BENCH" {
            o.referenceContractID = int()
            o.isPeggedChangeAmountDecrease = chance()
            o.peggedChangeAmount = double()
            o.referenceChangeAmount = double()
            o.referenceExchangeID = text()
        }
        o.adjustedOrderType = text()
        o.triggerPrice = optionalDouble()
        o.limitPriceOffset = optionalDouble()
        o.adjustedStopPrice = optionalDouble()
        o.adjustedStopLimitPrice = optionalDouble()
        o.adjustedTrailingAmount = optionalDouble()
        o.adjustableTrailingUnit = int(0...1)
        o.softDollarTierName = text()
        o.softDollarTierValue = text()
        o.cashQuantity = optionalDouble()
        o.dontUseAutoPriceForHedge = chance()
        o.isOMSContainer = chance()
        o.discretionaryUpToLimitPrice = chance()
        o.usePriceManagementAlgo = chance(0.3) ? nil : chance()
        o.duration = optionalInt()
        o.postToATS = optionalInt()
        o.autoCancelParent = chance()
    }

    /// A placeOrder call valid at `version`.
    public mutating func placeOrder(serverVersion v: Int) -> TWSRequest {
        var contract = requestContract()
        if chance(0.2) { contract.securityType = "BAG" }
        if chance(0.2) { contract.exchange = "IBKRATS" }
        contract.securityIDType = text()
        contract.securityID = text()
        contract.deltaNeutralContract = deltaNeutralContract()
        var o = TWSOrder()
        commonOrderFields(&o)
        o.transmit = chance(0.8)
        o.parentID = int(0...10_000)
        if contract.securityType == "BAG" {
            contract.comboLegs = longComboLegs()
            o.orderComboLegPrices = (0..<int(0...2)).map { _ in optionalDouble() }
            o.smartComboRoutingParams = tagValues()
        }
        o.scaleTable = text()
        o.activeStartTime = text()
        o.activeStopTime = text()
        o.algoID = text()
        o.orderMiscOptions = tagValues()
        o.extOperator = text()
        o.mifid2DecisionMaker = text()
        o.mifid2DecisionAlgo = text()
        o.mifid2ExecutionTrader = text()
        o.mifid2ExecutionAlgo = text()
        o.advancedErrorOverride = text()
        o.manualOrderTime = text()
        if contract.exchange == "IBKRATS" { o.minimumTradeQuantity = optionalInt() }
        setPegOffsets(&o)
        if v >= TWSServerVersion.customerAccount { o.customerAccount = text() }
        if v >= TWSServerVersion.professionalCustomer { o.professionalCustomer = chance() }
        if v >= TWSServerVersion.includeOvernight { o.includeOvernight = chance() }
        if v >= TWSServerVersion.cmeTaggingFields { o.manualOrderIndicator = optionalInt() }
        if v >= TWSServerVersion.imbalanceOnly { o.imbalanceOnly = chance() }
        return .placeOrder(orderID: int(1...10_000_000), contract: contract, order: o)
    }

    private mutating func setPegOffsets(_ o: inout TWSOrder) {
        var midOffsets = false
        if o.orderType == "PEG BEST" {
            o.minimumCompeteSize = optionalInt()
            o.competeAgainstBestOffset = chance() ? .infinity : optionalDouble()
            midOffsets = o.competeAgainstBestOffset == .infinity
        } else if o.orderType == "PEG MID" {
            midOffsets = true
        }
        if midOffsets {
            o.midOffsetAtWhole = optionalDouble()
            o.midOffsetAtHalf = optionalDouble()
        }
    }

    /// An openOrder message valid at `version`.
    public mutating func openOrder(serverVersion v: Int) -> TWSOpenOrder {
        var contract = responseContract(primaryExchange: false)
        contract.comboLegsDescription = text()
        contract.comboLegs = longComboLegs()
        contract.deltaNeutralContract = deltaNeutralContract()
        var o = TWSOrder()
        commonOrderFields(&o)
        o.orderID = int(-100...10_000_000)
        o.clientID = int(0...100)
        o.permID = Int64(int(0...Int(Int32.max) - 1)) * Int64(int(1...4))
        o.parentID = int(0...10_000)
        o.basisPoints = optionalDouble()
        o.basisPointsType = optionalInt()
        o.orderComboLegPrices = (0..<int(0...2)).map { _ in optionalDouble() }
        o.smartComboRoutingParams = tagValues()
        o.softDollarTierDisplayName = text()
        o.minimumTradeQuantity = optionalInt()
        o.minimumCompeteSize = optionalInt()
        o.competeAgainstBestOffset = chance() ? .infinity : optionalDouble()
        o.midOffsetAtWhole = optionalDouble()
        o.midOffsetAtHalf = optionalDouble()
        if v >= TWSServerVersion.customerAccount { o.customerAccount = text() }
        if v >= TWSServerVersion.professionalCustomer { o.professionalCustomer = chance() }
        if v >= TWSServerVersion.bondAccruedInterest { o.bondAccruedInterest = text() }
        if v >= TWSServerVersion.includeOvernight { o.includeOvernight = chance() }
        if v >= TWSServerVersion.cmeTaggingFieldsInOpenOrder {
            o.extOperator = text()
            o.manualOrderIndicator = optionalInt()
        }
        if v >= TWSServerVersion.submitter { o.submitter = text() }
        if v >= TWSServerVersion.imbalanceOnly { o.imbalanceOnly = chance() }
        return TWSOpenOrder(contract: contract, order: o, orderState: orderState(serverVersion: v),
                            firstTrailStopPrice: optionalDouble())
    }

    /// An order state valid at `version`.
    mutating func orderState(serverVersion v: Int) -> TWSOrderState {
        var s = TWSOrderState(status: pick(["Submitted", "PreSubmitted", "Filled", "Cancelled"]))
        s.initMarginBefore = text()
        s.maintMarginBefore = text()
        s.equityWithLoanBefore = text()
        s.initMarginChange = text()
        s.maintMarginChange = text()
        s.equityWithLoanChange = text()
        s.initMarginAfter = text()
        s.maintMarginAfter = text()
        s.equityWithLoanAfter = text()
        s.commission = optionalDouble()
        s.minCommission = optionalDouble()
        s.maxCommission = optionalDouble()
        s.commissionCurrency = text(maxLength: 3)
        s.warningText = text()
        if v >= TWSServerVersion.fullOrderPreviewFields {
            s.marginCurrency = text(maxLength: 3)
            s.outsideRTHMargins = (0..<9).map { _ in optionalDouble() }
            s.suggestedSize = optionalDecimal()
            s.rejectReason = text()
            s.allocations = (0..<int(0...2)).map { _ in
                var allocation = TWSOrderAllocation(account: text())
                allocation.position = optionalDecimal()
                allocation.positionDesired = optionalDecimal()
                allocation.positionAfter = optionalDecimal()
                allocation.desiredAllocationQuantity = optionalDecimal()
                allocation.allowedAllocationQuantity = optionalDecimal()
                allocation.isMonetary = chance()
                return allocation
            }
        }
        return s
    }
}

extension TWSOrder {
    /// Whether the scale extras are on the wire (mirrors the codec's rule: increment > 0).
    var hasScaleExtrasForTesting: Bool { (scalePriceIncrement ?? 0) > 0 }
}
