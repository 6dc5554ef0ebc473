import TradingModel

/// Everything the engine reacts to, in the order the runner delivers it.
public enum EngineEvent: Hashable, Sendable, Codable {
    /// A bar of an instrument closed.
    case bar(InstrumentID, Bar)
    /// A quote of an instrument arrived.
    case quote(InstrumentID, Quote)
    /// The broker or simulator reported on an order.
    case execution(ExecutionReport)
    /// Time advanced without data (fires due timers and order timeouts).
    case clock(Timestamp)
    /// Every bar stamped with this time has been delivered (multi-instrument decisions happen here).
    case barsClosed(Timestamp)
    /// The kill switch was engaged (`true`) or released (`false`).
    case killSwitch(engaged: Bool)
}

/// What the engine asks its runner to do, in the imperative.
public enum EngineCommand: Hashable, Sendable {
    /// Send an order.
    case submit(Order)
    /// Send a bracket: the parent first, then its children (which work only once the parent has filled).
    case submitBracket(parent: Order, children: [Order])
    /// Cancel an order.
    case cancel(OrderID)
    /// Modify an order; `filledQuantity` is what has already traded.
    case modify(OrderID, OrderModification, filledQuantity: Quantity)
}

/// Static settings of one engine. `Codable` with defaults.
public struct EngineConfig: Hashable, Sendable, Codable {
    /// Starting cash.
    public var initialCash: Money
    /// T+N settlement of sale proceeds (0 = immediate).
    public var settlementDays: Int
    /// Pre-trade risk limits.
    public var risk: RiskConfig
    /// Business days before a futures contract's last trading day that a position leaves it for the next: a
    /// continuous future rolls then, and no contract month is entered from then on.
    public var futuresRollDays: Int
    /// A continuous future also rolls earlier, on the trading day after the next month traded more contracts
    /// (`backtest.futuresRollBy: volume`).
    public var futuresRollByVolume = false
    /// The currency of `initialCash`, equity and every total; an instrument priced in another converts at the rate
    /// of the universe's pair of the two (`CurrencyConversion`).
    public var accountCurrency = "USD"
    /// Currency pairs in the universe only for their rates (`accountCurrency`'s conversion): their bars mark the
    /// rate; the strategy never sees them and no order trades them.
    public var rateOnlySymbols: [String] = []
    /// What the risk check sets aside for each order's commission (the run's schedule, the same in a backtest and
    /// live), so an entry sized to the cash left pays its commission too.
    public var commissionReserve = CommissionReserve.none

    /// Creates a configuration; defaults: 100,000 cash, immediate settlement, no risk limits, futures rolled 5
    /// business days before their last trading day.
    public init(
        initialCash: Money = Money(100_000), settlementDays: Int = 0, risk: RiskConfig = RiskConfig(),
        futuresRollDays: Int = FutureSpec.defaultRollDays
    ) {
        self.initialCash = initialCash
        self.settlementDays = settlementDays
        self.risk = risk
        self.futuresRollDays = futuresRollDays
    }
}

extension EngineConfig {
    /// Decodes a config in which every key is optional; missing keys take the defaults of `init()`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        initialCash = try c.decode(.initialCash, default: d.initialCash)
        settlementDays = try c.decode(.settlementDays, default: d.settlementDays)
        risk = try c.decode(.risk, default: d.risk)
        futuresRollDays = try c.decode(.futuresRollDays, default: d.futuresRollDays)
        futuresRollByVolume = try c.decode(.futuresRollByVolume, default: d.futuresRollByVolume)
        accountCurrency = try c.decode(.accountCurrency, default: d.accountCurrency)
        rateOnlySymbols = try c.decode(.rateOnlySymbols, default: d.rateOnlySymbols)
        commissionReserve = try c.decode(.commissionReserve, default: d.commissionReserve)
    }
}
