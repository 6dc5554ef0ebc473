import TradingEngine
import TradingModel

/// The account as the broker reports it, for a manual order's risk check.
public struct ManualAccountState: Sendable, Hashable {
    /// Net liquidation value (the engine's equity).
    public var equity: Money
    /// Gross position value.
    public var grossExposure: Money
    /// Non-flat positions of the account.
    public var activePositions: Int
    /// The position in the order's instrument (signed).
    public var position: Quantity
    /// Today's P&L (reqPnL), when known: feeds `maxDailyLossPercent`.
    public var dailyPnL: Money?
    /// Settled cash (`SettledCash`), when known: feeds `requireSettledCash`.
    public var settledCash: Money?
    /// The operator's kill switch (`IBTRADER_KILL_SWITCH`).
    public var killSwitchEngaged = false

    /// Creates a state.
    public init(equity: Money, grossExposure: Money, activePositions: Int, position: Quantity) {
        self.equity = equity
        self.grossExposure = grossExposure
        self.activePositions = activePositions
        self.position = position
    }
}

/// The engine's pre-trade rules (`RiskConfig.makeRules()`, the same `RiskRule` values `EngineCore` runs) applied to
/// a manual order, with the `RiskView` built from the broker's account instead of the engine's portfolio.
///
/// Rules that need an equity history the manual tool does not have — `maxDrawdownPercent`, `rapidLossPercent` —
/// cannot trigger here; `maxDailyLossPercent` uses today's P&L from reqPnL; the volatility pause and sector limit
/// need data the tool does not load and are skipped (see docs/live-trading.md).
public enum ManualRiskCheck {
    /// Why the rules deny the order, or `nil` to allow it.
    /// - Parameters:
    ///   - ticket: the order (for a bracket, the entry is checked with the stop-loss distance, like the engine).
    ///   - config: the risk limits.
    ///   - account: the broker's account state.
    ///   - referencePrice: the price that values the order (last trade, or the order's own price); `nil` when
    ///     unknown, which denies the order if a value-based limit is configured.
    ///   - now: the decision time.
    public static func denial(
        _ ticket: ManualOrderTicket, config: RiskConfig, account: ManualAccountState,
        referencePrice: Price?, at now: Timestamp
    ) -> RiskDenial? {
        let request = ticket.request(for: InstrumentID(index: 0))
        var status = RiskMonitor.Status()
        status.killSwitchEngaged = account.killSwitchEngaged
        if let limit = config.maxDailyLossPercent, let pnl = account.dailyPnL {
            let start = account.equity - pnl
            status.dailyLossBreached = start.units > 0 && account.equity.doubleValue < start.doubleValue * (1 - limit / 100)
        }
        let rules = config.makeRules()
        let valued = config.maxPositionValue != nil || config.maxPositionPercentOfEquity != nil
            || config.maxGrossExposureRatio != nil || config.maxRiskPerTradePercent != nil
            || config.requireSettledCash == true
        guard let price = referencePrice ?? ownPrice(ticket.type) else {
            if status.killSwitchEngaged { return RiskDenial(rule: .killSwitch, detail: "kill switch engaged") }
            return valued
                ? RiskDenial(rule: .invalidOrder, detail: "no price to value the order (no market data); give a --limit")
                : rules.lazy.compactMap { $0.evaluate(request, in: makeView(request, account, .zero, status, ticket)) }.first
        }
        let view = makeView(request, account, price, status, ticket)
        for rule in rules {
            if let denial = rule.evaluate(request, in: view) { return denial }
        }
        return nil
    }

    /// The view `EngineCore` would build, from the account's numbers.
    private static func makeView(
        _ request: OrderRequest, _ account: ManualAccountState, _ price: Price, _ status: RiskMonitor.Status,
        _ ticket: ManualOrderTicket
    ) -> RiskView {
        let before = account.position.units
        let after = before + request.side.sign * request.quantity.units
        var view = RiskView(
            now: .zero, equity: account.equity, position: Position(instrument: request.instrument),
            referencePrice: price, isEntry: after.magnitude > before.magnitude, monitor: status)
        view.position.quantity = account.position
        view.grossExposure = account.grossExposure
        view.activePositionCount = account.activePositions
        let beforeValue = Money(units: FixedPoint.multiply(price.units, before)).magnitude
        let postValue = Money(units: FixedPoint.multiply(price.units, after)).magnitude
        view.postTradePositionValue = postValue
        view.postTradeGrossExposure = account.grossExposure - beforeValue + postValue
        if let stop = ticket.stopLoss {
            view.stopDistance = Price(units: Int64(truncatingIfNeeded: (stop.units - price.units).magnitude))
        }
        view.settledCash = account.settledCash
        return view
    }

    private static func ownPrice(_ type: OrderType) -> Price? {
        switch type {
        case .limit(let p), .stop(let p), .stopLimit(let p, _): p
        default: nil
        }
    }
}
