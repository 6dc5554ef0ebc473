import TradingModel

/// The rules an instrument's kind sets on every order, whatever the risk configuration: no entry into a futures
/// contract month about to expire, and currency orders within IDEALPRO's sizes. The engine (`EngineCore.evaluate`)
/// and the manual tools (`ManualRiskCheck`) run the same check.
///
/// ```swift
/// let check = InstrumentOrderCheck(kind: universe[id].kind, held: position.quantity, rollDays: 5)
/// if let denial = check.denial(request, at: now) { … }      // contractExpiry or forexOrderSize
/// ```
public struct InstrumentOrderCheck: Sendable {
    /// The instrument's kind (a contract month's terms, a pair's sizes).
    public var kind: InstrumentKind
    /// The position held in it before the order (signed).
    public var held: Quantity
    /// Business days before a contract month's last trading day from which it takes no new entry
    /// (`EngineConfig.futuresRollDays`, `backtest.futuresRollDays`; 5 by default).
    public var rollDays: Int

    /// Creates a check.
    public init(kind: InstrumentKind, held: Quantity, rollDays: Int = FutureSpec.defaultRollDays) {
        self.kind = kind
        self.held = held
        self.rollDays = rollDays
    }

    /// Why the order may not go, or `nil`: `contractExpiry`, then `forexOrderSize`.
    /// - Parameters:
    ///   - request: the order.
    ///   - now: the decision time (the trading day it falls on decides the expiry rule).
    public func denial(_ request: OrderRequest, at now: Timestamp) -> RiskDenial? {
        expiryDenial(request, at: now) ?? forexSizeDenial(request)
    }

    /// A futures contract month is not entered from the day a rolled position would leave it
    /// (`FutureSpec.rollDay(of:days:)`, `rollDays` before its last trading day) on: what is left of its life is the
    /// roll's and expiry's. Orders that reduce the position go.
    func expiryDenial(_ request: OrderRequest, at now: Timestamp) -> RiskDenial? {
        guard case let .future(future) = kind, let month = future.month else { return nil }
        let reduces = held.units != 0 && (held.units > 0) != (request.side == .buy)
        let rollDay = future.spec.rollDay(of: month, days: rollDays)
        guard !reduces, FutureSpec.tradingDay(of: now) >= rollDay else { return nil }
        let last = Timestamp(nanoseconds: future.spec.lastTradingDay(of: month) * Timestamp.nanosecondsPerDay)
        let leave = Timestamp(nanoseconds: rollDay * Timestamp.nanosecondsPerDay)
        return RiskDenial(
            rule: .contractExpiry,
            detail: "\(future) stops trading on \(last.description.prefix(10)); no new entry from \(leave.description.prefix(10)) on "
                + "(\(rollDays) business days before): trade the next contract month")
    }

    /// A currency order within IDEALPRO's sizes (`CurrencyPair.idealproSizes`): an entry below the minimum is refused
    /// (IB routes it to IDEAL, its odd-lot venue for converting balances, at wider prices: not a way to trade), and so
    /// is any order above the maximum. An exit below the minimum goes: it closes what is held.
    func forexSizeDenial(_ request: OrderRequest) -> RiskDenial? {
        guard case let .forex(pair) = kind, let sizes = pair.idealproSizes else { return nil }
        let quantity = request.quantity.wholeUnits
        if sizes.maximum > 0, quantity > sizes.maximum {
            return RiskDenial(
                rule: .forexOrderSize,
                detail: "\(pair) order of \(quantity) \(pair.base) is above IDEALPRO's maximum of \(sizes.maximum) \(pair.base)")
        }
        let held = held.units
        let reduces = held != 0 && (held > 0) != (request.side == .buy) && request.quantity.units <= held.magnitude
        guard !reduces, quantity < sizes.minimum else { return nil }
        return RiskDenial(
            rule: .forexOrderSize,
            detail: "\(pair) order of \(quantity) \(pair.base) is below IDEALPRO's minimum of \(sizes.minimum) \(pair.base) "
                + "(IB would route it to IDEAL, its odd-lot venue, at wider prices)")
    }
}
