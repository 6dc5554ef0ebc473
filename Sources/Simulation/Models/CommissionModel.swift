import TradingModel

/// Commission schedules, charged **per order** as IBKR charges them: a schedule's minimum and maximum apply once to an
/// order, across all its partial fills (`OrderCommission`), never to each execution.
public enum CommissionModel: Hashable, Sendable, Codable {
    /// No commission.
    case none
    /// IBKR Fixed: `perShare` (0.005) × shares, at least `minimum` (1.00) and at most `maximumPercent` (1 %) of the
    /// trade value, per order.
    case ibkrFixed(IBKRFixedSchedule)
    /// IBKR Tiered: a per-share rate falling with the month's cumulative share volume, at least `minimum` (0.35) and
    /// at most `maximumPercent` (1 %) of the trade value, per order. Exchange, clearing and regulatory fees are not
    /// modelled.
    case ibkrTiered(IBKRTieredSchedule)
    /// A percentage of trade value (e.g. 0.1 = 0.1 %).
    case percentage(Double)

    /// IBKR's published US stock Fixed schedule.
    public static let ibkrFixedDefault = CommissionModel.ibkrFixed(IBKRFixedSchedule())
    /// IBKR's published US stock Tiered schedule.
    public static let ibkrTieredDefault = CommissionModel.ibkrTiered(IBKRTieredSchedule())
}

extension CommissionModel {
    /// The most this schedule charges one order, for the pre-trade check (`EngineConfig.commissionReserve`): Tiered
    /// at its first, dearest band.
    public var reserve: CommissionReserve {
        let futures = IBKRContractRates.futuresPerContract
        let (bps, least) = (IBKRContractRates.forexBasisPoints, IBKRContractRates.forexMinimum)
        switch self {
        case .none:
            return .none
        case let .ibkrFixed(s):
            return CommissionReserve(
                perShare: s.perShare, minimum: s.minimum, maximumPercent: s.maximumPercent, perContract: futures,
                forexBasisPoints: bps, forexMinimum: least)
        case let .ibkrTiered(s):
            return CommissionReserve(
                perShare: s.tiers.map(\.perShare).max() ?? .zero, minimum: s.minimum, maximumPercent: s.maximumPercent,
                perContract: futures, forexBasisPoints: bps, forexMinimum: least)
        case let .percentage(percent):
            return CommissionReserve(valuePercent: percent)
        }
    }
}

/// What IBKR charges for futures and currencies under either of its stock schedules (IBKR Pro, US futures and
/// IDEALPRO, the first volume band; interactivebrokers.com, "Commissions Futures" and "Commissions Forex").
public enum IBKRContractRates {
    /// Per futures contract: IBKR's 0.85 plus exchange, clearing and regulatory fees, taken as 1.40 (about CME's
    /// non-member Globex fee for an E-mini and NFA's 0.02; micro contracts pay less, metals and energy a little more).
    public static let futuresPerContract = Money(units: 225_000_000)
    /// A currency trade pays 0.2 basis points of its value …
    public static let forexBasisPoints = 0.2
    /// … and at least 2.00 per order (once per order, across its partial fills, as IBKR charges it).
    public static let forexMinimum = Money(2)
}

/// Parameters of IBKR's Fixed pricing.
public struct IBKRFixedSchedule: Hashable, Sendable, Codable {
    /// Rate per share.
    public var perShare: Money
    /// Minimum per order.
    public var minimum: Money
    /// Cap per order, in percent of the order's trade value.
    public var maximumPercent: Double
    /// Creates a schedule; defaults are IBKR's US stock rates (0.005, 1.00, 1 %).
    public init(perShare: Money = Money(units: 500_000), minimum: Money = Money(1), maximumPercent: Double = 1.0) {
        self.perShare = perShare
        self.minimum = minimum
        self.maximumPercent = maximumPercent
    }
}

/// Parameters of IBKR's Tiered pricing.
public struct IBKRTieredSchedule: Hashable, Sendable, Codable {
    /// One volume band: shares traded this month up to `upToShares` (inclusive) pay `perShare`.
    public struct Tier: Hashable, Sendable, Codable {
        /// Upper bound of the band in shares (`nil` = unbounded).
        public var upToShares: Int64?
        /// Rate per share in the band.
        public var perShare: Money
        /// Creates a band.
        public init(upToShares: Int64?, perShare: Money) {
            self.upToShares = upToShares
            self.perShare = perShare
        }
    }
    /// Bands in increasing order.
    public var tiers: [Tier]
    /// Minimum per order.
    public var minimum: Money
    /// Cap per order, in percent of the order's trade value.
    public var maximumPercent: Double
    /// Creates a schedule; defaults are IBKR's US stock tiers (0.0035 / 0.002 / 0.0015 / 0.001 / 0.0005, min 0.35,
    /// max 1 %).
    public init(
        tiers: [Tier] = [
            Tier(upToShares: 300_000, perShare: Money(units: 350_000)),
            Tier(upToShares: 3_000_000, perShare: Money(units: 200_000)),
            Tier(upToShares: 20_000_000, perShare: Money(units: 150_000)),
            Tier(upToShares: 100_000_000, perShare: Money(units: 100_000)),
            Tier(upToShares: nil, perShare: Money(units: 50_000)),
        ],
        minimum: Money = Money(units: 35_000_000),
        maximumPercent: Double = 1.0
    ) {
        self.tiers = tiers
        self.minimum = minimum
        self.maximumPercent = maximumPercent
    }

    /// The rate for an execution given the shares already traded this month (the band is chosen by the volume
    /// before the execution; the whole execution pays that band's rate).
    public func rate(monthToDateShares: Int64) -> Money {
        for tier in tiers where tier.upToShares.map({ monthToDateShares < $0 }) ?? true {
            return tier.perShare
        }
        return tiers.last?.perShare ?? .zero
    }
}

extension IBKRFixedSchedule {
    /// Decodes a schedule in which every key is optional; missing keys take IBKR's published defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        perShare = try c.decode(.perShare, default: d.perShare)
        minimum = try c.decode(.minimum, default: d.minimum)
        maximumPercent = try c.decode(.maximumPercent, default: d.maximumPercent)
    }
}

extension IBKRTieredSchedule {
    /// Decodes a schedule in which every key is optional; missing keys take IBKR's published defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        tiers = try c.decode(.tiers, default: d.tiers)
        minimum = try c.decode(.minimum, default: d.minimum)
        maximumPercent = try c.decode(.maximumPercent, default: d.maximumPercent)
    }
}
