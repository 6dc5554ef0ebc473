import TradingModel

/// When a market order fills in a bar-driven simulation.
public enum MarketFillTiming: String, Hashable, Sendable, Codable {
    /// At the open of the next bar after submission (the default, and the peers' reference semantics).
    case nextOpen
    /// At the close of the bar during which it was submitted (optimistic; no look-ahead beyond that close).
    case thisClose
}

/// How the simulator fills orders. `Codable` with defaults so it can live in a user's config file.
public struct SimulationConfig: Hashable, Sendable, Codable {
    /// Market-order timing.
    public var marketFill: MarketFillTiming
    /// Price slippage applied to market and triggered stop fills (never to limit fills).
    public var slippage: SlippageModel
    /// Commission schedule, charged per order: its minimum and maximum once across an order's partial fills
    /// (`CommissionCalculator`).
    public var commission: CommissionModel
    /// Largest fraction of a bar's volume one instrument's orders may take in that bar (e.g. 0.1);
    /// `nil` = unlimited. The rest rests and fills on later bars.
    public var maxVolumeParticipation: Double?
    /// Time between submission and the order becoming active.
    public var latency: TimeSpan
    /// Slippage of orders worked by IB's Adaptive algo, which the simulation fills as market orders (`nil`: as
    /// `slippage`).
    public var adaptiveSlippage: SlippageModel?
    /// How resting limit orders (and stop and trailing orders) fill on bars: `nil` when a bar's path trades through
    /// the level (at the level, or the open when it gaps through); else as the gateway simulator and IB work them,
    /// against the quote on the order's side (the ask for a buy, the bid for a sell: the bar's open and close moved by
    /// this spread model): a limit fills when the quote reaches it, a stop triggers there, a trailing stop follows
    /// the quotes, each at that quote. Bars' extremes are not quotes, so this is the stricter model.
    public var limitFillsAtQuotes: SlippageModel?
    /// Whether orders and fills may be fractions of a share (IB's fractional trading). Off, as IB trades stocks:
    /// every fill, a volume-capped partial one too, is a whole number of shares, and an order for a fraction is
    /// rejected.
    public var fractionalShares: Bool
    /// Which US stock sessions orders may trade in, on intraday data (`TradingSessions`); `nil`: every bar trades, for
    /// daily bars (whose midnight stamp is a date, not a time) and data of one session. The backtest and the gateway
    /// simulator set it for intraday data.
    public var sessions: TradingSessions?
    /// Buying power checked when an order fills (`FundsAtFill`): `.cash` for an unlevered run (a cash account, or a
    /// margin account without `risk.allowLeverage`), `.margin` with leverage; `nil`: no check (the peers' reference
    /// semantics, and a test's).
    public var buyingPower: FundsAtFill.Rule?

    /// Creates a configuration; the defaults are next-open market fills, no costs, no caps, no latency.
    public init(
        marketFill: MarketFillTiming = .nextOpen,
        slippage: SlippageModel = .none,
        commission: CommissionModel = .none,
        maxVolumeParticipation: Double? = nil,
        latency: TimeSpan = .zero
    ) {
        self.marketFill = marketFill
        self.slippage = slippage
        self.commission = commission
        self.maxVolumeParticipation = maxVolumeParticipation
        self.latency = latency
        self.adaptiveSlippage = nil
        self.limitFillsAtQuotes = nil
        self.fractionalShares = false
        self.sessions = nil
        self.buyingPower = nil
    }
}

/// Price slippage models.
public enum SlippageModel: Hashable, Sendable, Codable {
    /// No slippage.
    case none
    /// A fixed cost in basis points: buys fill `bps` higher, sells lower.
    case fixedBasisPoints(Double)
    /// Zipline-style volume share: the price moves by `priceImpact × (quantity / barVolume)²` (as a fraction),
    /// against the order.
    case volumeShare(priceImpact: Double)
    /// Crossing a quoted spread the way the gateway simulator quotes it (`QuoteModel`): a spread of
    /// n = max(1, round(price × `basisPoints` / 10⁴ / `tick`)) ticks around the (tick-rounded) price; buys pay the
    /// ask, price + (n − n/2) ticks, sells get the bid, price − n/2 ticks. With `basisPoints: 2, tick: 0.01` a
    /// backtest fills market orders at the simulator's prices (see the parity test, `docs/live-trading.md`).
    case quotedSpread(basisPoints: Double, tick: Price)
    /// `quotedSpread` on each instrument's own tick, as the gateway simulator quotes every instrument: 0.01 a stock,
    /// 0.25 an E-mini (the drift report's backtest of a mixed universe); a currency pair one tick wide (0.00005 on
    /// EUR.USD: IDEALPRO's spread is a fraction of a pip, not basis points).
    case quotedSpreadOnInstrumentTick(basisPoints: Double)

    /// The slipped price of a fill.
    /// - Parameters:
    ///   - price: the un-slipped fill price.
    ///   - side: buys slip up, sells down.
    ///   - share: fill quantity divided by bar volume (0 when unknown).
    ///   - instrumentTick: the instrument's tick (`quotedSpreadOnInstrumentTick`; 0.01 when not given).
    ///   - currencyPair: the instrument is a currency pair (`quotedSpreadOnInstrumentTick`: one tick wide).
    public func apply(
        to price: Price, side: Side, volumeShare share: Double, tick instrumentTick: Price? = nil, currencyPair: Bool = false
    ) -> Price {
        let fraction: Double
        switch self {
        case .none: return price
        case let .quotedSpreadOnInstrumentTick(bps):
            return SlippageModel.quotedSpread(
                basisPoints: currencyPair ? 0 : bps, tick: instrumentTick ?? Price(units: FixedPoint.scale / 100)
            ).apply(to: price, side: side, volumeShare: share)
        case let .quotedSpread(bps, tick):
            guard tick.units > 0 else { return price }
            let ticks = max(1, Int64((Double(price.units) * bps / 10_000 / Double(tick.units)).rounded()))
            let half = ticks / 2
            return Price(units: side == .buy ? price.units + (ticks - half) * tick.units : price.units - half * tick.units)
        case let .fixedBasisPoints(bps): fraction = bps / 10_000
        case let .volumeShare(impact): fraction = impact * share * share
        }
        if fraction == 0 { return price }
        let delta = Int64((Double(price.units) * fraction).rounded())
        return Price(units: side == .buy ? price.units + delta : price.units - delta)
    }
}

extension SimulationConfig {
    /// Decodes a config in which every key is optional; missing keys take the defaults of `init()`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        marketFill = try c.decode(.marketFill, default: d.marketFill)
        slippage = try c.decode(.slippage, default: d.slippage)
        commission = try c.decode(.commission, default: d.commission)
        maxVolumeParticipation = try c.decodeOptional(.maxVolumeParticipation, default: d.maxVolumeParticipation)
        latency = try c.decode(.latency, default: d.latency)
        adaptiveSlippage = try c.decodeOptional(.adaptiveSlippage, default: d.adaptiveSlippage)
        limitFillsAtQuotes = try c.decodeOptional(.limitFillsAtQuotes, default: d.limitFillsAtQuotes)
        fractionalShares = try c.decode(.fractionalShares, default: d.fractionalShares)
        sessions = try c.decodeOptional(.sessions, default: d.sessions)
        buyingPower = try c.decodeOptional(.buyingPower, default: d.buyingPower)
    }

    /// The slippage of an order's aggressive fills.
    func slippage(adaptive: Bool) -> SlippageModel { adaptive ? adaptiveSlippage ?? slippage : slippage }
}

extension SlippageModel {
    /// Reads the text form people write (`--slippage`, config `slippage`): `bps:N` (a fixed N basis points),
    /// `impact:K` (volume share, K × (quantity / bar volume)²), `spread:BPS` (crossing a quoted spread of BPS basis
    /// points on the instrument's tick: 0.01 a stock, 0.25 an E-mini, 0.00005 EUR.USD), or `none`.
    /// - Returns: `nil` when the text is none of these (the caller names what is allowed).
    public init?(text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        if parts == ["none"] {
            self = .none
            return
        }
        guard parts.count == 2, let value = Double(parts[1]), value.isFinite, value >= 0 else { return nil }
        switch parts[0] {
        case "bps": self = .fixedBasisPoints(value)
        case "impact": self = .volumeShare(priceImpact: value)
        case "spread": self = .quotedSpreadOnInstrumentTick(basisPoints: value)
        default: return nil
        }
    }
}
