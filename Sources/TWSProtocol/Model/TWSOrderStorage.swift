import Foundation

/// The fields of a `TWSOrder`, shared between copies until one of them changes (copy on write): an order is
/// ~130 fields and ~46 strings, and the order path copies it several times (mapping, tracking, the placement);
/// shared, a copy is one retain instead of a 1.6 KB move and a retain per string.
final class TWSOrderStorage: @unchecked Sendable {
    // Sendable: a storage is mutated only through a `TWSOrder` that holds the only reference to it.
    var orderID: Int = 0
    var clientID: Int = 0
    var permID: Int64 = 0
    var action: String = ""
    var totalQuantity: Decimal? = nil
    var orderType: String = ""
    var limitPrice: Double? = nil
    var auxPrice: Double? = nil
    var timeInForce: String = ""
    var ocaGroup: String = ""
    var account: String = ""
    var openClose: String = ""
    var origin: Int = 0
    var orderRef: String = ""
    var transmit: Bool = true
    var parentID: Int = 0
    var blockOrder: Bool = false
    var sweepToFill: Bool = false
    var displaySize: Int? = 0
    var triggerMethod: Int = 0
    var outsideRTH: Bool = false
    var hidden: Bool = false
    var orderComboLegPrices: [Double?] = []
    var smartComboRoutingParams: [TWSTagValue] = []
    var discretionaryAmount: Double = 0
    var goodAfterTime: String = ""
    var goodTillDate: String = ""
    var faGroup: String = ""
    var faMethod: String = ""
    var faPercentage: String = ""
    var modelCode: String = ""
    var shortSaleSlot: Int = 0
    var designatedLocation: String = ""
    var exemptCode: Int = -1
    var ocaType: Int = 0
    var rule80A: String = ""
    var settlingFirm: String = ""
    var allOrNone: Bool = false
    var minimumQuantity: Int? = nil
    var percentOffset: Double? = nil
    var auctionStrategy: Int = 0
    var startingPrice: Double? = nil
    var stockReferencePrice: Double? = nil
    var delta: Double? = nil
    var stockRangeLower: Double? = nil
    var stockRangeUpper: Double? = nil
    var overridePercentageConstraints: Bool = false
    var volatility: Double? = nil
    var volatilityType: Int? = nil
    var deltaNeutralOrderType: String = ""
    var deltaNeutralAuxPrice: Double? = nil
    var deltaNeutralContractID: Int = 0
    var deltaNeutralSettlingFirm: String = ""
    var deltaNeutralClearingAccount: String = ""
    var deltaNeutralClearingIntent: String = ""
    var deltaNeutralOpenClose: String = ""
    var deltaNeutralShortSale: Bool = false
    var deltaNeutralShortSaleSlot: Int = 0
    var deltaNeutralDesignatedLocation: String = ""
    var continuousUpdate: Bool = false
    var referencePriceType: Int? = nil
    var trailStopPrice: Double? = nil
    var trailingPercent: Double? = nil
    var basisPoints: Double? = nil
    var basisPointsType: Int? = nil
    var scaleInitLevelSize: Int? = nil
    var scaleSubsLevelSize: Int? = nil
    var scalePriceIncrement: Double? = nil
    var scalePriceAdjustValue: Double? = nil
    var scalePriceAdjustInterval: Int? = nil
    var scaleProfitOffset: Double? = nil
    var scaleAutoReset: Bool = false
    var scaleInitPosition: Int? = nil
    var scaleInitFillQuantity: Int? = nil
    var scaleRandomPercent: Bool = false
    var scaleTable: String = ""
    var activeStartTime: String = ""
    var activeStopTime: String = ""
    var hedgeType: String = ""
    var hedgeParam: String = ""
    var optOutSmartRouting: Bool = false
    var clearingAccount: String = ""
    var clearingIntent: String = ""
    var notHeld: Bool = false
    var algoStrategy: String = ""
    var algoParams: [TWSTagValue] = []
    var algoID: String = ""
    var whatIf: Bool = false
    var orderMiscOptions: [TWSTagValue] = []
    var solicited: Bool = false
    var randomizeSize: Bool = false
    var randomizePrice: Bool = false
    var referenceContractID: Int = 0
    var isPeggedChangeAmountDecrease: Bool = false
    var peggedChangeAmount: Double = 0
    var referenceChangeAmount: Double = 0
    var referenceExchangeID: String = ""
    var adjustedOrderType: String = ""
    var triggerPrice: Double? = nil
    var limitPriceOffset: Double? = nil
    var adjustedStopPrice: Double? = nil
    var adjustedStopLimitPrice: Double? = nil
    var adjustedTrailingAmount: Double? = nil
    var adjustableTrailingUnit: Int = 0
    var extOperator: String = ""
    var softDollarTierName: String = ""
    var softDollarTierValue: String = ""
    var softDollarTierDisplayName: String = ""
    var cashQuantity: Double? = nil
    var mifid2DecisionMaker: String = ""
    var mifid2DecisionAlgo: String = ""
    var mifid2ExecutionTrader: String = ""
    var mifid2ExecutionAlgo: String = ""
    var dontUseAutoPriceForHedge: Bool = false
    var isOMSContainer: Bool = false
    var discretionaryUpToLimitPrice: Bool = false
    var usePriceManagementAlgo: Bool? = nil
    var duration: Int? = nil
    var postToATS: Int? = nil
    var autoCancelParent: Bool = false
    var advancedErrorOverride: String = ""
    var manualOrderTime: String = ""
    var minimumTradeQuantity: Int? = nil
    var minimumCompeteSize: Int? = nil
    var competeAgainstBestOffset: Double? = nil
    var midOffsetAtWhole: Double? = nil
    var midOffsetAtHalf: Double? = nil
    var customerAccount: String = ""
    var professionalCustomer: Bool = false
    var bondAccruedInterest: String = ""
    var includeOvernight: Bool = false
    var manualOrderIndicator: Int? = nil
    var submitter: String = ""
    var imbalanceOnly: Bool = false

    init() {}

    init(copying other: TWSOrderStorage) {
        orderID = other.orderID
        clientID = other.clientID
        permID = other.permID
        action = other.action
        totalQuantity = other.totalQuantity
        orderType = other.orderType
        limitPrice = other.limitPrice
        auxPrice = other.auxPrice
        timeInForce = other.timeInForce
        ocaGroup = other.ocaGroup
        account = other.account
        openClose = other.openClose
        origin = other.origin
        orderRef = other.orderRef
        transmit = other.transmit
        parentID = other.parentID
        blockOrder = other.blockOrder
        sweepToFill = other.sweepToFill
        displaySize = other.displaySize
        triggerMethod = other.triggerMethod
        outsideRTH = other.outsideRTH
        hidden = other.hidden
        orderComboLegPrices = other.orderComboLegPrices
        smartComboRoutingParams = other.smartComboRoutingParams
        discretionaryAmount = other.discretionaryAmount
        goodAfterTime = other.goodAfterTime
        goodTillDate = other.goodTillDate
        faGroup = other.faGroup
        faMethod = other.faMethod
        faPercentage = other.faPercentage
        modelCode = other.modelCode
        shortSaleSlot = other.shortSaleSlot
        designatedLocation = other.designatedLocation
        exemptCode = other.exemptCode
        ocaType = other.ocaType
        rule80A = other.rule80A
        settlingFirm = other.settlingFirm
        allOrNone = other.allOrNone
        minimumQuantity = other.minimumQuantity
        percentOffset = other.percentOffset
        auctionStrategy = other.auctionStrategy
        startingPrice = other.startingPrice
        stockReferencePrice = other.stockReferencePrice
        delta = other.delta
        stockRangeLower = other.stockRangeLower
        stockRangeUpper = other.stockRangeUpper
        overridePercentageConstraints = other.overridePercentageConstraints
        volatility = other.volatility
        volatilityType = other.volatilityType
        deltaNeutralOrderType = other.deltaNeutralOrderType
        deltaNeutralAuxPrice = other.deltaNeutralAuxPrice
        deltaNeutralContractID = other.deltaNeutralContractID
        deltaNeutralSettlingFirm = other.deltaNeutralSettlingFirm
        deltaNeutralClearingAccount = other.deltaNeutralClearingAccount
        deltaNeutralClearingIntent = other.deltaNeutralClearingIntent
        deltaNeutralOpenClose = other.deltaNeutralOpenClose
        deltaNeutralShortSale = other.deltaNeutralShortSale
        deltaNeutralShortSaleSlot = other.deltaNeutralShortSaleSlot
        deltaNeutralDesignatedLocation = other.deltaNeutralDesignatedLocation
        continuousUpdate = other.continuousUpdate
        referencePriceType = other.referencePriceType
        trailStopPrice = other.trailStopPrice
        trailingPercent = other.trailingPercent
        basisPoints = other.basisPoints
        basisPointsType = other.basisPointsType
        scaleInitLevelSize = other.scaleInitLevelSize
        scaleSubsLevelSize = other.scaleSubsLevelSize
        scalePriceIncrement = other.scalePriceIncrement
        scalePriceAdjustValue = other.scalePriceAdjustValue
        scalePriceAdjustInterval = other.scalePriceAdjustInterval
        scaleProfitOffset = other.scaleProfitOffset
        scaleAutoReset = other.scaleAutoReset
        scaleInitPosition = other.scaleInitPosition
        scaleInitFillQuantity = other.scaleInitFillQuantity
        scaleRandomPercent = other.scaleRandomPercent
        scaleTable = other.scaleTable
        activeStartTime = other.activeStartTime
        activeStopTime = other.activeStopTime
        hedgeType = other.hedgeType
        hedgeParam = other.hedgeParam
        optOutSmartRouting = other.optOutSmartRouting
        clearingAccount = other.clearingAccount
        clearingIntent = other.clearingIntent
        notHeld = other.notHeld
        algoStrategy = other.algoStrategy
        algoParams = other.algoParams
        algoID = other.algoID
        whatIf = other.whatIf
        orderMiscOptions = other.orderMiscOptions
        solicited = other.solicited
        randomizeSize = other.randomizeSize
        randomizePrice = other.randomizePrice
        referenceContractID = other.referenceContractID
        isPeggedChangeAmountDecrease = other.isPeggedChangeAmountDecrease
        peggedChangeAmount = other.peggedChangeAmount
        referenceChangeAmount = other.referenceChangeAmount
        referenceExchangeID = other.referenceExchangeID
        adjustedOrderType = other.adjustedOrderType
        triggerPrice = other.triggerPrice
        limitPriceOffset = other.limitPriceOffset
        adjustedStopPrice = other.adjustedStopPrice
        adjustedStopLimitPrice = other.adjustedStopLimitPrice
        adjustedTrailingAmount = other.adjustedTrailingAmount
        adjustableTrailingUnit = other.adjustableTrailingUnit
        extOperator = other.extOperator
        softDollarTierName = other.softDollarTierName
        softDollarTierValue = other.softDollarTierValue
        softDollarTierDisplayName = other.softDollarTierDisplayName
        cashQuantity = other.cashQuantity
        mifid2DecisionMaker = other.mifid2DecisionMaker
        mifid2DecisionAlgo = other.mifid2DecisionAlgo
        mifid2ExecutionTrader = other.mifid2ExecutionTrader
        mifid2ExecutionAlgo = other.mifid2ExecutionAlgo
        dontUseAutoPriceForHedge = other.dontUseAutoPriceForHedge
        isOMSContainer = other.isOMSContainer
        discretionaryUpToLimitPrice = other.discretionaryUpToLimitPrice
        usePriceManagementAlgo = other.usePriceManagementAlgo
        duration = other.duration
        postToATS = other.postToATS
        autoCancelParent = other.autoCancelParent
        advancedErrorOverride = other.advancedErrorOverride
        manualOrderTime = other.manualOrderTime
        minimumTradeQuantity = other.minimumTradeQuantity
        minimumCompeteSize = other.minimumCompeteSize
        competeAgainstBestOffset = other.competeAgainstBestOffset
        midOffsetAtWhole = other.midOffsetAtWhole
        midOffsetAtHalf = other.midOffsetAtHalf
        customerAccount = other.customerAccount
        professionalCustomer = other.professionalCustomer
        bondAccruedInterest = other.bondAccruedInterest
        includeOvernight = other.includeOvernight
        manualOrderIndicator = other.manualOrderIndicator
        submitter = other.submitter
        imbalanceOnly = other.imbalanceOnly
    }

    func isEqual(to other: TWSOrderStorage) -> Bool {
        guard orderID == other.orderID,
            clientID == other.clientID,
            permID == other.permID,
            action == other.action,
            totalQuantity == other.totalQuantity,
            orderType == other.orderType,
            limitPrice == other.limitPrice,
            auxPrice == other.auxPrice,
            timeInForce == other.timeInForce,
            ocaGroup == other.ocaGroup,
            account == other.account,
            openClose == other.openClose,
            origin == other.origin,
            orderRef == other.orderRef,
            transmit == other.transmit,
            parentID == other.parentID,
            blockOrder == other.blockOrder,
            sweepToFill == other.sweepToFill,
            displaySize == other.displaySize,
            triggerMethod == other.triggerMethod,
            outsideRTH == other.outsideRTH,
            hidden == other.hidden,
            orderComboLegPrices == other.orderComboLegPrices,
            smartComboRoutingParams == other.smartComboRoutingParams,
            discretionaryAmount == other.discretionaryAmount,
            goodAfterTime == other.goodAfterTime,
            goodTillDate == other.goodTillDate,
            faGroup == other.faGroup,
            faMethod == other.faMethod,
            faPercentage == other.faPercentage,
            modelCode == other.modelCode,
            shortSaleSlot == other.shortSaleSlot,
            designatedLocation == other.designatedLocation,
            exemptCode == other.exemptCode,
            ocaType == other.ocaType,
            rule80A == other.rule80A,
            settlingFirm == other.settlingFirm,
            allOrNone == other.allOrNone,
            minimumQuantity == other.minimumQuantity,
            percentOffset == other.percentOffset,
            auctionStrategy == other.auctionStrategy,
            startingPrice == other.startingPrice,
            stockReferencePrice == other.stockReferencePrice,
            delta == other.delta,
            stockRangeLower == other.stockRangeLower,
            stockRangeUpper == other.stockRangeUpper,
            overridePercentageConstraints == other.overridePercentageConstraints,
            volatility == other.volatility,
            volatilityType == other.volatilityType,
            deltaNeutralOrderType == other.deltaNeutralOrderType,
            deltaNeutralAuxPrice == other.deltaNeutralAuxPrice,
            deltaNeutralContractID == other.deltaNeutralContractID,
            deltaNeutralSettlingFirm == other.deltaNeutralSettlingFirm,
            deltaNeutralClearingAccount == other.deltaNeutralClearingAccount,
            deltaNeutralClearingIntent == other.deltaNeutralClearingIntent,
            deltaNeutralOpenClose == other.deltaNeutralOpenClose,
            deltaNeutralShortSale == other.deltaNeutralShortSale,
            deltaNeutralShortSaleSlot == other.deltaNeutralShortSaleSlot,
            deltaNeutralDesignatedLocation == other.deltaNeutralDesignatedLocation,
            continuousUpdate == other.continuousUpdate,
            referencePriceType == other.referencePriceType,
            trailStopPrice == other.trailStopPrice,
            trailingPercent == other.trailingPercent,
            basisPoints == other.basisPoints,
            basisPointsType == other.basisPointsType,
            scaleInitLevelSize == other.scaleInitLevelSize,
            scaleSubsLevelSize == other.scaleSubsLevelSize,
            scalePriceIncrement == other.scalePriceIncrement,
            scalePriceAdjustValue == other.scalePriceAdjustValue,
            scalePriceAdjustInterval == other.scalePriceAdjustInterval,
            scaleProfitOffset == other.scaleProfitOffset,
            scaleAutoReset == other.scaleAutoReset,
            scaleInitPosition == other.scaleInitPosition,
            scaleInitFillQuantity == other.scaleInitFillQuantity,
            scaleRandomPercent == other.scaleRandomPercent,
            scaleTable == other.scaleTable,
            activeStartTime == other.activeStartTime,
            activeStopTime == other.activeStopTime,
            hedgeType == other.hedgeType,
            hedgeParam == other.hedgeParam,
            optOutSmartRouting == other.optOutSmartRouting,
            clearingAccount == other.clearingAccount,
            clearingIntent == other.clearingIntent,
            notHeld == other.notHeld,
            algoStrategy == other.algoStrategy,
            algoParams == other.algoParams,
            algoID == other.algoID,
            whatIf == other.whatIf,
            orderMiscOptions == other.orderMiscOptions,
            solicited == other.solicited,
            randomizeSize == other.randomizeSize,
            randomizePrice == other.randomizePrice,
            referenceContractID == other.referenceContractID,
            isPeggedChangeAmountDecrease == other.isPeggedChangeAmountDecrease,
            peggedChangeAmount == other.peggedChangeAmount,
            referenceChangeAmount == other.referenceChangeAmount,
            referenceExchangeID == other.referenceExchangeID,
            adjustedOrderType == other.adjustedOrderType,
            triggerPrice == other.triggerPrice,
            limitPriceOffset == other.limitPriceOffset,
            adjustedStopPrice == other.adjustedStopPrice,
            adjustedStopLimitPrice == other.adjustedStopLimitPrice,
            adjustedTrailingAmount == other.adjustedTrailingAmount,
            adjustableTrailingUnit == other.adjustableTrailingUnit,
            extOperator == other.extOperator,
            softDollarTierName == other.softDollarTierName,
            softDollarTierValue == other.softDollarTierValue,
            softDollarTierDisplayName == other.softDollarTierDisplayName,
            cashQuantity == other.cashQuantity,
            mifid2DecisionMaker == other.mifid2DecisionMaker,
            mifid2DecisionAlgo == other.mifid2DecisionAlgo,
            mifid2ExecutionTrader == other.mifid2ExecutionTrader,
            mifid2ExecutionAlgo == other.mifid2ExecutionAlgo,
            dontUseAutoPriceForHedge == other.dontUseAutoPriceForHedge,
            isOMSContainer == other.isOMSContainer,
            discretionaryUpToLimitPrice == other.discretionaryUpToLimitPrice,
            usePriceManagementAlgo == other.usePriceManagementAlgo,
            duration == other.duration,
            postToATS == other.postToATS,
            autoCancelParent == other.autoCancelParent,
            advancedErrorOverride == other.advancedErrorOverride,
            manualOrderTime == other.manualOrderTime,
            minimumTradeQuantity == other.minimumTradeQuantity,
            minimumCompeteSize == other.minimumCompeteSize,
            competeAgainstBestOffset == other.competeAgainstBestOffset,
            midOffsetAtWhole == other.midOffsetAtWhole,
            midOffsetAtHalf == other.midOffsetAtHalf,
            customerAccount == other.customerAccount,
            professionalCustomer == other.professionalCustomer,
            bondAccruedInterest == other.bondAccruedInterest,
            includeOvernight == other.includeOvernight,
            manualOrderIndicator == other.manualOrderIndicator,
            submitter == other.submitter,
            imbalanceOnly == other.imbalanceOnly
        else { return false }
        return true
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(orderID)
        hasher.combine(clientID)
        hasher.combine(permID)
        hasher.combine(action)
        hasher.combine(totalQuantity)
        hasher.combine(orderType)
        hasher.combine(limitPrice)
        hasher.combine(auxPrice)
        hasher.combine(timeInForce)
        hasher.combine(ocaGroup)
        hasher.combine(account)
        hasher.combine(openClose)
        hasher.combine(origin)
        hasher.combine(orderRef)
        hasher.combine(transmit)
        hasher.combine(parentID)
        hasher.combine(blockOrder)
        hasher.combine(sweepToFill)
        hasher.combine(displaySize)
        hasher.combine(triggerMethod)
        hasher.combine(outsideRTH)
        hasher.combine(hidden)
        hasher.combine(orderComboLegPrices)
        hasher.combine(smartComboRoutingParams)
        hasher.combine(discretionaryAmount)
        hasher.combine(goodAfterTime)
        hasher.combine(goodTillDate)
        hasher.combine(faGroup)
        hasher.combine(faMethod)
        hasher.combine(faPercentage)
        hasher.combine(modelCode)
        hasher.combine(shortSaleSlot)
        hasher.combine(designatedLocation)
        hasher.combine(exemptCode)
        hasher.combine(ocaType)
        hasher.combine(rule80A)
        hasher.combine(settlingFirm)
        hasher.combine(allOrNone)
        hasher.combine(minimumQuantity)
        hasher.combine(percentOffset)
        hasher.combine(auctionStrategy)
        hasher.combine(startingPrice)
        hasher.combine(stockReferencePrice)
        hasher.combine(delta)
        hasher.combine(stockRangeLower)
        hasher.combine(stockRangeUpper)
        hasher.combine(overridePercentageConstraints)
        hasher.combine(volatility)
        hasher.combine(volatilityType)
        hasher.combine(deltaNeutralOrderType)
        hasher.combine(deltaNeutralAuxPrice)
        hasher.combine(deltaNeutralContractID)
        hasher.combine(deltaNeutralSettlingFirm)
        hasher.combine(deltaNeutralClearingAccount)
        hasher.combine(deltaNeutralClearingIntent)
        hasher.combine(deltaNeutralOpenClose)
        hasher.combine(deltaNeutralShortSale)
        hasher.combine(deltaNeutralShortSaleSlot)
        hasher.combine(deltaNeutralDesignatedLocation)
        hasher.combine(continuousUpdate)
        hasher.combine(referencePriceType)
        hasher.combine(trailStopPrice)
        hasher.combine(trailingPercent)
        hasher.combine(basisPoints)
        hasher.combine(basisPointsType)
        hasher.combine(scaleInitLevelSize)
        hasher.combine(scaleSubsLevelSize)
        hasher.combine(scalePriceIncrement)
        hasher.combine(scalePriceAdjustValue)
        hasher.combine(scalePriceAdjustInterval)
        hasher.combine(scaleProfitOffset)
        hasher.combine(scaleAutoReset)
        hasher.combine(scaleInitPosition)
        hasher.combine(scaleInitFillQuantity)
        hasher.combine(scaleRandomPercent)
        hasher.combine(scaleTable)
        hasher.combine(activeStartTime)
        hasher.combine(activeStopTime)
        hasher.combine(hedgeType)
        hasher.combine(hedgeParam)
        hasher.combine(optOutSmartRouting)
        hasher.combine(clearingAccount)
        hasher.combine(clearingIntent)
        hasher.combine(notHeld)
        hasher.combine(algoStrategy)
        hasher.combine(algoParams)
        hasher.combine(algoID)
        hasher.combine(whatIf)
        hasher.combine(orderMiscOptions)
        hasher.combine(solicited)
        hasher.combine(randomizeSize)
        hasher.combine(randomizePrice)
        hasher.combine(referenceContractID)
        hasher.combine(isPeggedChangeAmountDecrease)
        hasher.combine(peggedChangeAmount)
        hasher.combine(referenceChangeAmount)
        hasher.combine(referenceExchangeID)
        hasher.combine(adjustedOrderType)
        hasher.combine(triggerPrice)
        hasher.combine(limitPriceOffset)
        hasher.combine(adjustedStopPrice)
        hasher.combine(adjustedStopLimitPrice)
        hasher.combine(adjustedTrailingAmount)
        hasher.combine(adjustableTrailingUnit)
        hasher.combine(extOperator)
        hasher.combine(softDollarTierName)
        hasher.combine(softDollarTierValue)
        hasher.combine(softDollarTierDisplayName)
        hasher.combine(cashQuantity)
        hasher.combine(mifid2DecisionMaker)
        hasher.combine(mifid2DecisionAlgo)
        hasher.combine(mifid2ExecutionTrader)
        hasher.combine(mifid2ExecutionAlgo)
        hasher.combine(dontUseAutoPriceForHedge)
        hasher.combine(isOMSContainer)
        hasher.combine(discretionaryUpToLimitPrice)
        hasher.combine(usePriceManagementAlgo)
        hasher.combine(duration)
        hasher.combine(postToATS)
        hasher.combine(autoCancelParent)
        hasher.combine(advancedErrorOverride)
        hasher.combine(manualOrderTime)
        hasher.combine(minimumTradeQuantity)
        hasher.combine(minimumCompeteSize)
        hasher.combine(competeAgainstBestOffset)
        hasher.combine(midOffsetAtWhole)
        hasher.combine(midOffsetAtHalf)
        hasher.combine(customerAccount)
        hasher.combine(professionalCustomer)
        hasher.combine(bondAccruedInterest)
        hasher.combine(includeOvernight)
        hasher.combine(manualOrderIndicator)
        hasher.combine(submitter)
        hasher.combine(imbalanceOnly)
    }
}
