import Foundation

/// An order as placeOrder sends it and openOrder reports it (IB's `Order`).
///
/// Defaults are those of IB's official client; IB's unset values (`UNSET_DOUBLE`, `UNSET_INTEGER`,
/// `UNSET_DECIMAL`) are `nil`. Conditional groups follow PROTOCOL.md §5.10 / §6.10. Order conditions are not
/// modelled: a message with conditions fails to decode with a typed error.
public struct TWSOrder: Sendable, Equatable, Hashable, Codable {
    // MARK: - Identity (openOrder)
    /// The client's order id (openOrder; placeOrder carries it separately).
    public var orderID: Int = 0
    /// The placing client's id (openOrder).
    public var clientID: Int = 0
    /// TWS's permanent id, 64-bit from version 191 (openOrder).
    public var permID: Int64 = 0

    // MARK: - Main fields
    /// `BUY`, `SELL`, `SSHORT`.
    public var action: String = ""
    /// The quantity.
    public var totalQuantity: Decimal?
    /// `MKT`, `LMT`, `STP`, `STP LMT`, `TRAIL`, ...
    public var orderType: String = ""
    /// The limit price (`lmtPrice`).
    public var limitPrice: Double?
    /// Stop price / trailing amount.
    public var auxPrice: Double?
    /// `DAY`, `GTC`, `IOC`, `GTD`, `OPG`, `FOK`, `DTC` (`tif`).
    public var timeInForce: String = ""
    /// One-cancels-all group.
    public var ocaGroup: String = ""
    /// The account.
    public var account: String = ""
    /// `""`, `O` or `C`.
    public var openClose: String = ""
    /// 0 customer, 1 firm.
    public var origin: Int = 0
    /// Free-form reference.
    public var orderRef: String = ""
    /// Whether TWS transmits the order (false holds it, e.g. bracket parents).
    public var transmit: Bool = true
    /// The parent's order id, 0 for none.
    public var parentID: Int = 0
    /// Block order.
    public var blockOrder: Bool = false
    /// Sweep to fill.
    public var sweepToFill: Bool = false
    /// Iceberg display size (official default 0; TWS reports unset as `nil`).
    public var displaySize: Int? = 0
    /// Stop trigger method.
    public var triggerMethod: Int = 0
    /// Allow execution outside regular trading hours.
    public var outsideRTH: Bool = false
    /// Hidden order.
    public var hidden: Bool = false

    // MARK: - Combo
    /// Per-leg prices of a combo order.
    public var orderComboLegPrices: [Double?] = []
    /// Smart combo routing parameters.
    public var smartComboRoutingParams: [TWSTagValue] = []

    // MARK: - Extended fields
    /// Discretionary amount.
    public var discretionaryAmount: Double = 0
    /// Good-after time.
    public var goodAfterTime: String = ""
    /// Good-till date (GTD).
    public var goodTillDate: String = ""
    /// Financial advisor group.
    public var faGroup: String = ""
    /// Financial advisor method.
    public var faMethod: String = ""
    /// Financial advisor percentage.
    public var faPercentage: String = ""
    /// Model code.
    public var modelCode: String = ""
    /// Short sale slot.
    public var shortSaleSlot: Int = 0
    /// Designated location.
    public var designatedLocation: String = ""
    /// Exempt code.
    public var exemptCode: Int = -1
    /// OCA type.
    public var ocaType: Int = 0
    /// Rule 80A.
    public var rule80A: String = ""
    /// Settling firm.
    public var settlingFirm: String = ""
    /// All or none.
    public var allOrNone: Bool = false
    /// Minimum quantity.
    public var minimumQuantity: Int?
    /// Percent offset (relative orders).
    public var percentOffset: Double?
    /// Auction strategy.
    public var auctionStrategy: Int = 0
    /// Starting price (box orders).
    public var startingPrice: Double?
    /// Stock reference price.
    public var stockReferencePrice: Double?
    /// Delta.
    public var delta: Double?
    /// Stock range lower bound.
    public var stockRangeLower: Double?
    /// Stock range upper bound.
    public var stockRangeUpper: Double?
    /// Override percentage constraints.
    public var overridePercentageConstraints: Bool = false
    /// Volatility (VOL orders).
    public var volatility: Double?
    /// Volatility type.
    public var volatilityType: Int?
    /// Delta-neutral order type (TWS reports `None` for ordinary orders).
    public var deltaNeutralOrderType: String = ""
    /// Delta-neutral aux price.
    public var deltaNeutralAuxPrice: Double?
    /// Delta-neutral contract id.
    public var deltaNeutralContractID: Int = 0
    /// Delta-neutral settling firm.
    public var deltaNeutralSettlingFirm: String = ""
    /// Delta-neutral clearing account.
    public var deltaNeutralClearingAccount: String = ""
    /// Delta-neutral clearing intent.
    public var deltaNeutralClearingIntent: String = ""
    /// Delta-neutral open/close.
    public var deltaNeutralOpenClose: String = ""
    /// Delta-neutral short sale.
    public var deltaNeutralShortSale: Bool = false
    /// Delta-neutral short sale slot.
    public var deltaNeutralShortSaleSlot: Int = 0
    /// Delta-neutral designated location.
    public var deltaNeutralDesignatedLocation: String = ""
    /// Continuous update.
    public var continuousUpdate: Bool = false
    /// Reference price type.
    public var referencePriceType: Int?
    /// Initial stop of TRAIL / TRAIL LIMIT orders.
    public var trailStopPrice: Double?
    /// Trailing percent.
    public var trailingPercent: Double?
    /// Basis points (openOrder).
    public var basisPoints: Double?
    /// Basis points type (openOrder).
    public var basisPointsType: Int?

    // MARK: - Scale, hedge, algo
    /// Scale: initial level size.
    public var scaleInitLevelSize: Int?
    /// Scale: subsequent level size.
    public var scaleSubsLevelSize: Int?
    /// Scale: price increment; the other scale fields are sent only when it is > 0.
    public var scalePriceIncrement: Double?
    /// Scale: price adjust value.
    public var scalePriceAdjustValue: Double?
    /// Scale: price adjust interval.
    public var scalePriceAdjustInterval: Int?
    /// Scale: profit offset.
    public var scaleProfitOffset: Double?
    /// Scale: auto reset.
    public var scaleAutoReset: Bool = false
    /// Scale: initial position.
    public var scaleInitPosition: Int?
    /// Scale: initial fill quantity.
    public var scaleInitFillQuantity: Int?
    /// Scale: random percent.
    public var scaleRandomPercent: Bool = false
    /// Scale table.
    public var scaleTable: String = ""
    /// Active start time.
    public var activeStartTime: String = ""
    /// Active stop time.
    public var activeStopTime: String = ""
    /// Hedge type; `hedgeParam` is sent only when non-empty.
    public var hedgeType: String = ""
    /// Hedge parameter.
    public var hedgeParam: String = ""
    /// Opt out of smart routing.
    public var optOutSmartRouting: Bool = false
    /// Clearing account.
    public var clearingAccount: String = ""
    /// Clearing intent (`IB`, `Away`, `PTA`).
    public var clearingIntent: String = ""
    /// Not held.
    public var notHeld: Bool = false
    /// Algo strategy, e.g. `Adaptive`.
    public var algoStrategy: String = ""
    /// Algo parameters (sent only with a strategy).
    public var algoParams: [TWSTagValue] = []
    /// Algo id.
    public var algoID: String = ""
    /// What-if (margin preview) order.
    public var whatIf: Bool = false
    /// Miscellaneous options.
    public var orderMiscOptions: [TWSTagValue] = []
    /// Solicited.
    public var solicited: Bool = false
    /// Randomize size.
    public var randomizeSize: Bool = false
    /// Randomize price.
    public var randomizePrice: Bool = false

    // MARK: - Pegged to benchmark (PEG BENCH)
    /// Reference contract id.
    public var referenceContractID: Int = 0
    /// Whether the pegged change amount decreases.
    public var isPeggedChangeAmountDecrease: Bool = false
    /// Pegged change amount.
    public var peggedChangeAmount: Double = 0
    /// Reference change amount.
    public var referenceChangeAmount: Double = 0
    /// Reference exchange id.
    public var referenceExchangeID: String = ""

    // MARK: - Adjusted orders, tiers, MiFID II
    /// Adjusted order type (TWS reports `None`).
    public var adjustedOrderType: String = ""
    /// Trigger price.
    public var triggerPrice: Double?
    /// Limit price offset (TRAIL LIMIT).
    public var limitPriceOffset: Double?
    /// Adjusted stop price.
    public var adjustedStopPrice: Double?
    /// Adjusted stop limit price.
    public var adjustedStopLimitPrice: Double?
    /// Adjusted trailing amount.
    public var adjustedTrailingAmount: Double?
    /// Adjustable trailing unit.
    public var adjustableTrailingUnit: Int = 0
    /// External operator (CME tagging).
    public var extOperator: String = ""
    /// Soft dollar tier name.
    public var softDollarTierName: String = ""
    /// Soft dollar tier value.
    public var softDollarTierValue: String = ""
    /// Soft dollar tier display name (openOrder).
    public var softDollarTierDisplayName: String = ""
    /// Cash quantity.
    public var cashQuantity: Double?
    /// MiFID II decision maker.
    public var mifid2DecisionMaker: String = ""
    /// MiFID II decision algo.
    public var mifid2DecisionAlgo: String = ""
    /// MiFID II execution trader.
    public var mifid2ExecutionTrader: String = ""
    /// MiFID II execution algo.
    public var mifid2ExecutionAlgo: String = ""
    /// Don't use auto price for hedge.
    public var dontUseAutoPriceForHedge: Bool = false
    /// OMS container.
    public var isOMSContainer: Bool = false
    /// Discretionary up to limit price.
    public var discretionaryUpToLimitPrice: Bool = false
    /// Use the price management algo; `nil` lets IB decide.
    public var usePriceManagementAlgo: Bool?
    /// Duration.
    public var duration: Int?
    /// Post to ATS.
    public var postToATS: Int?
    /// Auto-cancel the parent.
    public var autoCancelParent: Bool = false
    /// Advanced error override.
    public var advancedErrorOverride: String = ""
    /// Manual order time.
    public var manualOrderTime: String = ""
    /// Minimum trade quantity (sent only for exchange `IBKRATS`).
    public var minimumTradeQuantity: Int?
    /// PEG BEST: minimum compete size.
    public var minimumCompeteSize: Int?
    /// PEG BEST: compete-against-best offset; `.infinity` means "up to mid".
    public var competeAgainstBestOffset: Double?
    /// PEG BEST/MID: mid offset at whole.
    public var midOffsetAtWhole: Double?
    /// PEG BEST/MID: mid offset at half.
    public var midOffsetAtHalf: Double?
    /// Customer account (≥ 183).
    public var customerAccount: String = ""
    /// Professional customer (≥ 184).
    public var professionalCustomer: Bool = false
    /// Bond accrued interest (openOrder ≥ 185).
    public var bondAccruedInterest: String = ""
    /// Include overnight (≥ 189).
    public var includeOvernight: Bool = false
    /// Manual order indicator (≥ 192 / openOrder ≥ 193).
    public var manualOrderIndicator: Int?
    /// Submitter (openOrder ≥ 198).
    public var submitter: String = ""
    /// Imbalance only (≥ 199).
    public var imbalanceOnly: Bool = false

    /// Creates an order with the official client's defaults.
    public init(action: String = "", totalQuantity: Decimal? = nil, orderType: String = "") {
        self.action = action
        self.totalQuantity = totalQuantity
        self.orderType = orderType
    }

    /// Whether the order is pegged to a benchmark (carries the PEG BENCH block).
    var isPegBench: Bool { orderType == "PEG BENCH" || orderType == "PEGBENCH" }
    /// Whether the order is PEG BEST.
    var isPegBest: Bool { orderType == "PEG BEST" || orderType == "PEGBEST" }
    /// Whether the order is PEG MID.
    var isPegMid: Bool { orderType == "PEG MID" || orderType == "PEGMID" }
    /// Whether the scale extras are on the wire.
    var hasScaleExtras: Bool {
        guard let increment = scalePriceIncrement else { return false }
        return increment > 0
    }
}
