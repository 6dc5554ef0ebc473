import Foundation

/// An order as placeOrder sends it and openOrder reports it (IB's `Order`).
///
/// Defaults are those of IB's official client; IB's unset values (`UNSET_DOUBLE`, `UNSET_INTEGER`,
/// `UNSET_DECIMAL`) are `nil`. Conditional groups follow PROTOCOL.md §5.10 / §6.10. Order conditions are not
/// modelled: a message with conditions fails to decode with a typed error.
///
/// A value type over shared storage (`TWSOrderStorage`, copy on write): copying an order is one retain.
public struct TWSOrder: Sendable, Equatable, Hashable {
    private var storage = TWSOrderStorage()

    /// The storage, copied first when another order shares it.
    private mutating func uniqueStorage() -> TWSOrderStorage {
        if !isKnownUniquelyReferenced(&storage) { storage = TWSOrderStorage(copying: storage) }
        return storage
    }

    /// Field by field, as the synthesized equality was.
    public static func == (lhs: TWSOrder, rhs: TWSOrder) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.isEqual(to: rhs.storage)
    }

    /// Every field, as the synthesized hash was.
    public func hash(into hasher: inout Hasher) { storage.hash(into: &hasher) }

    // MARK: - Identity (openOrder)
    /// The client's order id (openOrder; placeOrder carries it separately).
    public var orderID: Int { get { storage.orderID } set { uniqueStorage().orderID = newValue } }
    /// The placing client's id (openOrder).
    public var clientID: Int { get { storage.clientID } set { uniqueStorage().clientID = newValue } }
    /// TWS's permanent id, 64-bit from version 191 (openOrder).
    public var permID: Int64 { get { storage.permID } set { uniqueStorage().permID = newValue } }

    // MARK: - Main fields
    /// `BUY`, `SELL`, `SSHORT`.
    public var action: String { get { storage.action } set { uniqueStorage().action = newValue } }
    /// The quantity.
    public var totalQuantity: Decimal? {
        get { storage.totalQuantity }
        set { uniqueStorage().totalQuantity = newValue }
    }
    /// `MKT`, `LMT`, `STP`, `STP LMT`, `TRAIL`, ...
    public var orderType: String { get { storage.orderType } set { uniqueStorage().orderType = newValue } }
    /// The limit price (`lmtPrice`).
    public var limitPrice: Double? { get { storage.limitPrice } set { uniqueStorage().limitPrice = newValue } }
    /// Stop price / trailing amount.
    public var auxPrice: Double? { get { storage.auxPrice } set { uniqueStorage().auxPrice = newValue } }
    /// `DAY`, `GTC`, `IOC`, `GTD`, `OPG`, `FOK`, `DTC` (`tif`).
    public var timeInForce: String { get { storage.timeInForce } set { uniqueStorage().timeInForce = newValue } }
    /// One-cancels-all group.
    public var ocaGroup: String { get { storage.ocaGroup } set { uniqueStorage().ocaGroup = newValue } }
    /// The account.
    public var account: String { get { storage.account } set { uniqueStorage().account = newValue } }
    /// `""`, `O` or `C`.
    public var openClose: String { get { storage.openClose } set { uniqueStorage().openClose = newValue } }
    /// 0 customer, 1 firm.
    public var origin: Int { get { storage.origin } set { uniqueStorage().origin = newValue } }
    /// Free-form reference.
    public var orderRef: String { get { storage.orderRef } set { uniqueStorage().orderRef = newValue } }
    /// Whether TWS transmits the order (false holds it, e.g. bracket parents).
    public var transmit: Bool { get { storage.transmit } set { uniqueStorage().transmit = newValue } }
    /// The parent's order id, 0 for none.
    public var parentID: Int { get { storage.parentID } set { uniqueStorage().parentID = newValue } }
    /// Block order.
    public var blockOrder: Bool { get { storage.blockOrder } set { uniqueStorage().blockOrder = newValue } }
    /// Sweep to fill.
    public var sweepToFill: Bool { get { storage.sweepToFill } set { uniqueStorage().sweepToFill = newValue } }
    /// Iceberg display size (official default 0; TWS reports unset as `nil`).
    public var displaySize: Int? { get { storage.displaySize } set { uniqueStorage().displaySize = newValue } }
    /// Stop trigger method.
    public var triggerMethod: Int { get { storage.triggerMethod } set { uniqueStorage().triggerMethod = newValue } }
    /// Allow execution outside regular trading hours.
    public var outsideRTH: Bool { get { storage.outsideRTH } set { uniqueStorage().outsideRTH = newValue } }
    /// Hidden order.
    public var hidden: Bool { get { storage.hidden } set { uniqueStorage().hidden = newValue } }

    // MARK: - Combo
    /// Per-leg prices of a combo order.
    public var orderComboLegPrices: [Double?] {
        get { storage.orderComboLegPrices }
        set { uniqueStorage().orderComboLegPrices = newValue }
    }
    /// Smart combo routing parameters.
    public var smartComboRoutingParams: [TWSTagValue] {
        get { storage.smartComboRoutingParams }
        set { uniqueStorage().smartComboRoutingParams = newValue }
    }

    // MARK: - Extended fields
    /// Discretionary amount.
    public var discretionaryAmount: Double {
        get { storage.discretionaryAmount }
        set { uniqueStorage().discretionaryAmount = newValue }
    }
    /// Good-after time.
    public var goodAfterTime: String { get { storage.goodAfterTime } set { uniqueStorage().goodAfterTime = newValue } }
    /// Good-till date (GTD).
    public var goodTillDate: String { get { storage.goodTillDate } set { uniqueStorage().goodTillDate = newValue } }
    /// Financial advisor group.
    public var faGroup: String { get { storage.faGroup } set { uniqueStorage().faGroup = newValue } }
    /// Financial advisor method.
    public var faMethod: String { get { storage.faMethod } set { uniqueStorage().faMethod = newValue } }
    /// Financial advisor percentage.
    public var faPercentage: String { get { storage.faPercentage } set { uniqueStorage().faPercentage = newValue } }
    /// Model code.
    public var modelCode: String { get { storage.modelCode } set { uniqueStorage().modelCode = newValue } }
    /// Short sale slot.
    public var shortSaleSlot: Int { get { storage.shortSaleSlot } set { uniqueStorage().shortSaleSlot = newValue } }
    /// Designated location.
    public var designatedLocation: String {
        get { storage.designatedLocation }
        set { uniqueStorage().designatedLocation = newValue }
    }
    /// Exempt code.
    public var exemptCode: Int { get { storage.exemptCode } set { uniqueStorage().exemptCode = newValue } }
    /// OCA type.
    public var ocaType: Int { get { storage.ocaType } set { uniqueStorage().ocaType = newValue } }
    /// Rule 80A.
    public var rule80A: String { get { storage.rule80A } set { uniqueStorage().rule80A = newValue } }
    /// Settling firm.
    public var settlingFirm: String { get { storage.settlingFirm } set { uniqueStorage().settlingFirm = newValue } }
    /// All or none.
    public var allOrNone: Bool { get { storage.allOrNone } set { uniqueStorage().allOrNone = newValue } }
    /// Minimum quantity.
    public var minimumQuantity: Int? {
        get { storage.minimumQuantity }
        set { uniqueStorage().minimumQuantity = newValue }
    }
    /// Percent offset (relative orders).
    public var percentOffset: Double? { get { storage.percentOffset } set { uniqueStorage().percentOffset = newValue } }
    /// Auction strategy.
    public var auctionStrategy: Int {
        get { storage.auctionStrategy }
        set { uniqueStorage().auctionStrategy = newValue }
    }
    /// Starting price (box orders).
    public var startingPrice: Double? { get { storage.startingPrice } set { uniqueStorage().startingPrice = newValue } }
    /// Stock reference price.
    public var stockReferencePrice: Double? {
        get { storage.stockReferencePrice }
        set { uniqueStorage().stockReferencePrice = newValue }
    }
    /// Delta.
    public var delta: Double? { get { storage.delta } set { uniqueStorage().delta = newValue } }
    /// Stock range lower bound.
    public var stockRangeLower: Double? {
        get { storage.stockRangeLower }
        set { uniqueStorage().stockRangeLower = newValue }
    }
    /// Stock range upper bound.
    public var stockRangeUpper: Double? {
        get { storage.stockRangeUpper }
        set { uniqueStorage().stockRangeUpper = newValue }
    }
    /// Override percentage constraints.
    public var overridePercentageConstraints: Bool {
        get { storage.overridePercentageConstraints }
        set { uniqueStorage().overridePercentageConstraints = newValue }
    }
    /// Volatility (VOL orders).
    public var volatility: Double? { get { storage.volatility } set { uniqueStorage().volatility = newValue } }
    /// Volatility type.
    public var volatilityType: Int? { get { storage.volatilityType } set { uniqueStorage().volatilityType = newValue } }
    /// Delta-neutral order type (TWS reports `None` for ordinary orders).
    public var deltaNeutralOrderType: String {
        get { storage.deltaNeutralOrderType }
        set { uniqueStorage().deltaNeutralOrderType = newValue }
    }
    /// Delta-neutral aux price.
    public var deltaNeutralAuxPrice: Double? {
        get { storage.deltaNeutralAuxPrice }
        set { uniqueStorage().deltaNeutralAuxPrice = newValue }
    }
    /// Delta-neutral contract id.
    public var deltaNeutralContractID: Int {
        get { storage.deltaNeutralContractID }
        set { uniqueStorage().deltaNeutralContractID = newValue }
    }
    /// Delta-neutral settling firm.
    public var deltaNeutralSettlingFirm: String {
        get { storage.deltaNeutralSettlingFirm }
        set { uniqueStorage().deltaNeutralSettlingFirm = newValue }
    }
    /// Delta-neutral clearing account.
    public var deltaNeutralClearingAccount: String {
        get { storage.deltaNeutralClearingAccount }
        set { uniqueStorage().deltaNeutralClearingAccount = newValue }
    }
    /// Delta-neutral clearing intent.
    public var deltaNeutralClearingIntent: String {
        get { storage.deltaNeutralClearingIntent }
        set { uniqueStorage().deltaNeutralClearingIntent = newValue }
    }
    /// Delta-neutral open/close.
    public var deltaNeutralOpenClose: String {
        get { storage.deltaNeutralOpenClose }
        set { uniqueStorage().deltaNeutralOpenClose = newValue }
    }
    /// Delta-neutral short sale.
    public var deltaNeutralShortSale: Bool {
        get { storage.deltaNeutralShortSale }
        set { uniqueStorage().deltaNeutralShortSale = newValue }
    }
    /// Delta-neutral short sale slot.
    public var deltaNeutralShortSaleSlot: Int {
        get { storage.deltaNeutralShortSaleSlot }
        set { uniqueStorage().deltaNeutralShortSaleSlot = newValue }
    }
    /// Delta-neutral designated location.
    public var deltaNeutralDesignatedLocation: String {
        get { storage.deltaNeutralDesignatedLocation }
        set { uniqueStorage().deltaNeutralDesignatedLocation = newValue }
    }
    /// Continuous update.
    public var continuousUpdate: Bool {
        get { storage.continuousUpdate }
        set { uniqueStorage().continuousUpdate = newValue }
    }
    /// Reference price type.
    public var referencePriceType: Int? {
        get { storage.referencePriceType }
        set { uniqueStorage().referencePriceType = newValue }
    }
    /// Initial stop of TRAIL / TRAIL LIMIT orders.
    public var trailStopPrice: Double? {
        get { storage.trailStopPrice }
        set { uniqueStorage().trailStopPrice = newValue }
    }
    /// Trailing percent.
    public var trailingPercent: Double? {
        get { storage.trailingPercent }
        set { uniqueStorage().trailingPercent = newValue }
    }
    /// Basis points (openOrder).
    public var basisPoints: Double? { get { storage.basisPoints } set { uniqueStorage().basisPoints = newValue } }
    /// Basis points type (openOrder).
    public var basisPointsType: Int? {
        get { storage.basisPointsType }
        set { uniqueStorage().basisPointsType = newValue }
    }

    // MARK: - Scale, hedge, algo
    /// Scale: initial level size.
    public var scaleInitLevelSize: Int? {
        get { storage.scaleInitLevelSize }
        set { uniqueStorage().scaleInitLevelSize = newValue }
    }
    /// Scale: subsequent level size.
    public var scaleSubsLevelSize: Int? {
        get { storage.scaleSubsLevelSize }
        set { uniqueStorage().scaleSubsLevelSize = newValue }
    }
    /// Scale: price increment; the other scale fields are sent only when it is > 0.
    public var scalePriceIncrement: Double? {
        get { storage.scalePriceIncrement }
        set { uniqueStorage().scalePriceIncrement = newValue }
    }
    /// Scale: price adjust value.
    public var scalePriceAdjustValue: Double? {
        get { storage.scalePriceAdjustValue }
        set { uniqueStorage().scalePriceAdjustValue = newValue }
    }
    /// Scale: price adjust interval.
    public var scalePriceAdjustInterval: Int? {
        get { storage.scalePriceAdjustInterval }
        set { uniqueStorage().scalePriceAdjustInterval = newValue }
    }
    /// Scale: profit offset.
    public var scaleProfitOffset: Double? {
        get { storage.scaleProfitOffset }
        set { uniqueStorage().scaleProfitOffset = newValue }
    }
    /// Scale: auto reset.
    public var scaleAutoReset: Bool { get { storage.scaleAutoReset } set { uniqueStorage().scaleAutoReset = newValue } }
    /// Scale: initial position.
    public var scaleInitPosition: Int? {
        get { storage.scaleInitPosition }
        set { uniqueStorage().scaleInitPosition = newValue }
    }
    /// Scale: initial fill quantity.
    public var scaleInitFillQuantity: Int? {
        get { storage.scaleInitFillQuantity }
        set { uniqueStorage().scaleInitFillQuantity = newValue }
    }
    /// Scale: random percent.
    public var scaleRandomPercent: Bool {
        get { storage.scaleRandomPercent }
        set { uniqueStorage().scaleRandomPercent = newValue }
    }
    /// Scale table.
    public var scaleTable: String { get { storage.scaleTable } set { uniqueStorage().scaleTable = newValue } }
    /// Active start time.
    public var activeStartTime: String {
        get { storage.activeStartTime }
        set { uniqueStorage().activeStartTime = newValue }
    }
    /// Active stop time.
    public var activeStopTime: String {
        get { storage.activeStopTime }
        set { uniqueStorage().activeStopTime = newValue }
    }
    /// Hedge type; `hedgeParam` is sent only when non-empty.
    public var hedgeType: String { get { storage.hedgeType } set { uniqueStorage().hedgeType = newValue } }
    /// Hedge parameter.
    public var hedgeParam: String { get { storage.hedgeParam } set { uniqueStorage().hedgeParam = newValue } }
    /// Opt out of smart routing.
    public var optOutSmartRouting: Bool {
        get { storage.optOutSmartRouting }
        set { uniqueStorage().optOutSmartRouting = newValue }
    }
    /// Clearing account.
    public var clearingAccount: String {
        get { storage.clearingAccount }
        set { uniqueStorage().clearingAccount = newValue }
    }
    /// Clearing intent (`IB`, `Away`, `PTA`).
    public var clearingIntent: String {
        get { storage.clearingIntent }
        set { uniqueStorage().clearingIntent = newValue }
    }
    /// Not held.
    public var notHeld: Bool { get { storage.notHeld } set { uniqueStorage().notHeld = newValue } }
    /// Algo strategy, e.g. `Adaptive`.
    public var algoStrategy: String { get { storage.algoStrategy } set { uniqueStorage().algoStrategy = newValue } }
    /// Algo parameters (sent only with a strategy).
    public var algoParams: [TWSTagValue] { get { storage.algoParams } set { uniqueStorage().algoParams = newValue } }
    /// Algo id.
    public var algoID: String { get { storage.algoID } set { uniqueStorage().algoID = newValue } }
    /// What-if (margin preview) order.
    public var whatIf: Bool { get { storage.whatIf } set { uniqueStorage().whatIf = newValue } }
    /// Miscellaneous options.
    public var orderMiscOptions: [TWSTagValue] {
        get { storage.orderMiscOptions }
        set { uniqueStorage().orderMiscOptions = newValue }
    }
    /// Solicited.
    public var solicited: Bool { get { storage.solicited } set { uniqueStorage().solicited = newValue } }
    /// Randomize size.
    public var randomizeSize: Bool { get { storage.randomizeSize } set { uniqueStorage().randomizeSize = newValue } }
    /// Randomize price.
    public var randomizePrice: Bool { get { storage.randomizePrice } set { uniqueStorage().randomizePrice = newValue } }

    // MARK: - Pegged to benchmark (PEG BENCH)
    /// Reference contract id.
    public var referenceContractID: Int {
        get { storage.referenceContractID }
        set { uniqueStorage().referenceContractID = newValue }
    }
    /// Whether the pegged change amount decreases.
    public var isPeggedChangeAmountDecrease: Bool {
        get { storage.isPeggedChangeAmountDecrease }
        set { uniqueStorage().isPeggedChangeAmountDecrease = newValue }
    }
    /// Pegged change amount.
    public var peggedChangeAmount: Double {
        get { storage.peggedChangeAmount }
        set { uniqueStorage().peggedChangeAmount = newValue }
    }
    /// Reference change amount.
    public var referenceChangeAmount: Double {
        get { storage.referenceChangeAmount }
        set { uniqueStorage().referenceChangeAmount = newValue }
    }
    /// Reference exchange id.
    public var referenceExchangeID: String {
        get { storage.referenceExchangeID }
        set { uniqueStorage().referenceExchangeID = newValue }
    }

    // MARK: - Adjusted orders, tiers, MiFID II
    /// Adjusted order type (TWS reports `None`).
    public var adjustedOrderType: String {
        get { storage.adjustedOrderType }
        set { uniqueStorage().adjustedOrderType = newValue }
    }
    /// Trigger price.
    public var triggerPrice: Double? { get { storage.triggerPrice } set { uniqueStorage().triggerPrice = newValue } }
    /// Limit price offset (TRAIL LIMIT).
    public var limitPriceOffset: Double? {
        get { storage.limitPriceOffset }
        set { uniqueStorage().limitPriceOffset = newValue }
    }
    /// Adjusted stop price.
    public var adjustedStopPrice: Double? {
        get { storage.adjustedStopPrice }
        set { uniqueStorage().adjustedStopPrice = newValue }
    }
    /// Adjusted stop limit price.
    public var adjustedStopLimitPrice: Double? {
        get { storage.adjustedStopLimitPrice }
        set { uniqueStorage().adjustedStopLimitPrice = newValue }
    }
    /// Adjusted trailing amount.
    public var adjustedTrailingAmount: Double? {
        get { storage.adjustedTrailingAmount }
        set { uniqueStorage().adjustedTrailingAmount = newValue }
    }
    /// Adjustable trailing unit.
    public var adjustableTrailingUnit: Int {
        get { storage.adjustableTrailingUnit }
        set { uniqueStorage().adjustableTrailingUnit = newValue }
    }
    /// External operator (CME tagging).
    public var extOperator: String { get { storage.extOperator } set { uniqueStorage().extOperator = newValue } }
    /// Soft dollar tier name.
    public var softDollarTierName: String {
        get { storage.softDollarTierName }
        set { uniqueStorage().softDollarTierName = newValue }
    }
    /// Soft dollar tier value.
    public var softDollarTierValue: String {
        get { storage.softDollarTierValue }
        set { uniqueStorage().softDollarTierValue = newValue }
    }
    /// Soft dollar tier display name (openOrder).
    public var softDollarTierDisplayName: String {
        get { storage.softDollarTierDisplayName }
        set { uniqueStorage().softDollarTierDisplayName = newValue }
    }
    /// Cash quantity.
    public var cashQuantity: Double? { get { storage.cashQuantity } set { uniqueStorage().cashQuantity = newValue } }
    /// MiFID II decision maker.
    public var mifid2DecisionMaker: String {
        get { storage.mifid2DecisionMaker }
        set { uniqueStorage().mifid2DecisionMaker = newValue }
    }
    /// MiFID II decision algo.
    public var mifid2DecisionAlgo: String {
        get { storage.mifid2DecisionAlgo }
        set { uniqueStorage().mifid2DecisionAlgo = newValue }
    }
    /// MiFID II execution trader.
    public var mifid2ExecutionTrader: String {
        get { storage.mifid2ExecutionTrader }
        set { uniqueStorage().mifid2ExecutionTrader = newValue }
    }
    /// MiFID II execution algo.
    public var mifid2ExecutionAlgo: String {
        get { storage.mifid2ExecutionAlgo }
        set { uniqueStorage().mifid2ExecutionAlgo = newValue }
    }
    /// Don't use auto price for hedge.
    public var dontUseAutoPriceForHedge: Bool {
        get { storage.dontUseAutoPriceForHedge }
        set { uniqueStorage().dontUseAutoPriceForHedge = newValue }
    }
    /// OMS container.
    public var isOMSContainer: Bool { get { storage.isOMSContainer } set { uniqueStorage().isOMSContainer = newValue } }
    /// Discretionary up to limit price.
    public var discretionaryUpToLimitPrice: Bool {
        get { storage.discretionaryUpToLimitPrice }
        set { uniqueStorage().discretionaryUpToLimitPrice = newValue }
    }
    /// Use the price management algo; `nil` lets IB decide.
    public var usePriceManagementAlgo: Bool? {
        get { storage.usePriceManagementAlgo }
        set { uniqueStorage().usePriceManagementAlgo = newValue }
    }
    /// Duration.
    public var duration: Int? { get { storage.duration } set { uniqueStorage().duration = newValue } }
    /// Post to ATS.
    public var postToATS: Int? { get { storage.postToATS } set { uniqueStorage().postToATS = newValue } }
    /// Auto-cancel the parent.
    public var autoCancelParent: Bool {
        get { storage.autoCancelParent }
        set { uniqueStorage().autoCancelParent = newValue }
    }
    /// Advanced error override.
    public var advancedErrorOverride: String {
        get { storage.advancedErrorOverride }
        set { uniqueStorage().advancedErrorOverride = newValue }
    }
    /// Manual order time.
    public var manualOrderTime: String {
        get { storage.manualOrderTime }
        set { uniqueStorage().manualOrderTime = newValue }
    }
    /// Minimum trade quantity (sent only for exchange `IBKRATS`).
    public var minimumTradeQuantity: Int? {
        get { storage.minimumTradeQuantity }
        set { uniqueStorage().minimumTradeQuantity = newValue }
    }
    /// PEG BEST: minimum compete size.
    public var minimumCompeteSize: Int? {
        get { storage.minimumCompeteSize }
        set { uniqueStorage().minimumCompeteSize = newValue }
    }
    /// PEG BEST: compete-against-best offset; `.infinity` means "up to mid".
    public var competeAgainstBestOffset: Double? {
        get { storage.competeAgainstBestOffset }
        set { uniqueStorage().competeAgainstBestOffset = newValue }
    }
    /// PEG BEST/MID: mid offset at whole.
    public var midOffsetAtWhole: Double? {
        get { storage.midOffsetAtWhole }
        set { uniqueStorage().midOffsetAtWhole = newValue }
    }
    /// PEG BEST/MID: mid offset at half.
    public var midOffsetAtHalf: Double? {
        get { storage.midOffsetAtHalf }
        set { uniqueStorage().midOffsetAtHalf = newValue }
    }
    /// Customer account (≥ 183).
    public var customerAccount: String {
        get { storage.customerAccount }
        set { uniqueStorage().customerAccount = newValue }
    }
    /// Professional customer (≥ 184).
    public var professionalCustomer: Bool {
        get { storage.professionalCustomer }
        set { uniqueStorage().professionalCustomer = newValue }
    }
    /// Bond accrued interest (openOrder ≥ 185).
    public var bondAccruedInterest: String {
        get { storage.bondAccruedInterest }
        set { uniqueStorage().bondAccruedInterest = newValue }
    }
    /// Include overnight (≥ 189).
    public var includeOvernight: Bool {
        get { storage.includeOvernight }
        set { uniqueStorage().includeOvernight = newValue }
    }
    /// Manual order indicator (≥ 192 / openOrder ≥ 193).
    public var manualOrderIndicator: Int? {
        get { storage.manualOrderIndicator }
        set { uniqueStorage().manualOrderIndicator = newValue }
    }
    /// Submitter (openOrder ≥ 198).
    public var submitter: String { get { storage.submitter } set { uniqueStorage().submitter = newValue } }
    /// Imbalance only (≥ 199).
    public var imbalanceOnly: Bool { get { storage.imbalanceOnly } set { uniqueStorage().imbalanceOnly = newValue } }

    /// Creates an order with the official client's defaults.
    public init(action: String = "", totalQuantity: Decimal? = nil, orderType: String = "") {
        self.action = action
        self.totalQuantity = totalQuantity
        self.orderType = orderType
    }

    /// Whether the order is pegged to a benchmark (carries the PEG BENCH block).
    var isPegBench: Bool { Self.isPegBench(orderType) }
    /// Whether the order is PEG BEST.
    var isPegBest: Bool { Self.isPegBest(orderType) }
    /// Whether the order is PEG MID.
    var isPegMid: Bool { Self.isPegMid(orderType) }

    static func isPegBench(_ orderType: String) -> Bool { orderType == "PEG BENCH" || orderType == "PEGBENCH" }
    static func isPegBest(_ orderType: String) -> Bool { orderType == "PEG BEST" || orderType == "PEGBEST" }
    static func isPegMid(_ orderType: String) -> Bool { orderType == "PEG MID" || orderType == "PEGMID" }

    /// Whether the scale extras are on the wire.
    var hasScaleExtras: Bool {
        guard let increment = scalePriceIncrement else { return false }
        return increment > 0
    }
}
