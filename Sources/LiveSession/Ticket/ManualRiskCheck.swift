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
    /// The account's open orders (reqAllOpenOrders: every client's, TWS's own included), counted as the engine
    /// counts its pending orders.
    public var pendingOrders: [ManualPendingOrder] = []

    /// Creates a state.
    public init(equity: Money, grossExposure: Money, activePositions: Int, position: Quantity) {
        self.equity = equity
        self.grossExposure = grossExposure
        self.activePositions = activePositions
        self.position = position
    }
}

/// An open order of the account, as the manual risk check counts it. Its whole quantity counts (TWS's open-order
/// message does not say how much has filled): a partly filled order counts its filled part twice, the safe side.
public struct ManualPendingOrder: Sendable, Hashable {
    /// Whether it is in the order's own contract.
    public var sameContract: Bool
    /// Buy or sell.
    public var side: Side
    /// Its total quantity.
    public var quantity: Quantity
    /// Its price (limit, else stop), `nil` for a market order.
    public var price: Price?
    /// Whether it would add to its contract's position (a buy with none or a long one, a sell with none or a short
    /// one): only those add exposure.
    public var increases: Bool
    /// Its contract's multiplier (a future's or an option's; 1 for stocks and currency pairs): its value is price ×
    /// quantity × this.
    public var multiplier: Int64 = 1
    /// Whether a buy pays its value in cash (`false` for a future: only its gains and losses move cash).
    public var paysNotional = true

    /// Creates a pending order.
    public init(sameContract: Bool, side: Side, quantity: Quantity, price: Price?, increases: Bool) {
        self.sameContract = sameContract
        self.side = side
        self.quantity = quantity
        self.price = price
        self.increases = increases
    }
}

/// The engine's pre-trade rules (`RiskConfig.makeRules()`, the same `RiskRule` values `EngineCore` runs) applied to
/// a manual order, with the `RiskView` built from the broker's account instead of the engine's portfolio.
///
/// Rules that need an equity history the manual tool does not have — `maxDrawdownPercent`, `rapidLossPercent` —
/// cannot trigger here; `maxDailyLossPercent` uses today's P&L from reqPnL; the volatility pause and sector limit
/// need data the tool does not load and are skipped (see docs/live-trading.md). As in the engine, the order is valued at
/// `OrderRequest.riskPrice(mark:)` (a buy limit above the market at its limit) times its contract's multiplier (a
/// future's contract value), the account's open orders count (those adding to a position in the gross exposure,
/// every buy against settled cash, each one's commission), the order leaves room for its own commission
/// (`commissionReserve`, the configured schedule's most), and the instrument's own rules apply first
/// (`InstrumentOrderCheck`: no entry into a contract month about to expire, IDEALPRO's order sizes).
public enum ManualRiskCheck {
    /// Why the rules deny the order, or `nil` to allow it.
    /// - Parameters:
    ///   - ticket: the order (for a bracket, the entry is checked with the stop-loss distance, like the engine).
    ///   - config: the risk limits.
    ///   - account: the broker's account state.
    ///   - referencePrice: the price that values the order (last trade, or the order's own price); `nil` when
    ///     unknown, which denies the order if a value-based limit is configured.
    ///   - now: the decision time.
    ///   - commissionReserve: what each order sets aside for its commission (`CommissionModel.reserve`).
    ///   - rollDays: business days before a contract month's last trading day from which it takes no entry
    ///     (`backtest.futuresRollDays`).
    public static func denial(
        _ ticket: ManualOrderTicket, config: RiskConfig, account: ManualAccountState,
        referencePrice: Price?, at now: Timestamp, commissionReserve: CommissionReserve = .none,
        rollDays: Int = FutureSpec.defaultRollDays
    ) -> RiskDenial? {
        let request = ticket.request(for: InstrumentID(index: 0))
        let instrument = InstrumentOrderCheck(kind: ticket.kind, held: account.position, rollDays: rollDays)
        if let denial = instrument.denial(request, at: now) { return denial }
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
        let price = request.riskPrice(mark: referencePrice ?? .zero)
        guard price.units > 0 else {
            if status.killSwitchEngaged { return RiskDenial(rule: .killSwitch, detail: "kill switch engaged") }
            let view = makeView(request, account, .zero, status, ticket, .none)
            return valued
                ? RiskDenial(rule: .invalidOrder, detail: "no price to value the order (no market data); give a --limit")
                : rules.lazy.compactMap { $0.evaluate(request, in: view) }.first
        }
        let view = makeView(request, account, price, status, ticket, commissionReserve)
        for rule in rules {
            if let denial = rule.evaluate(request, in: view) { return denial }
        }
        return nil
    }

    /// The view `EngineCore` would build, from the account's numbers.
    private static func makeView(
        _ request: OrderRequest, _ account: ManualAccountState, _ price: Price, _ status: RiskMonitor.Status,
        _ ticket: ManualOrderTicket, _ reserve: CommissionReserve
    ) -> RiskView {
        // Open orders: those in this contract that add to the position move it before this order; the others add
        // their value to the gross exposure (when they add to a position), their cost to what settled cash must
        // cover (buys), and their commission to the reserve. An unpriced one elsewhere is valued at nothing: the
        // tool has no price for another contract (docs/live-trading.md).
        var pendingHere: Int64 = 0
        var pendingGross = Money.zero
        var pendingCost = Money.zero
        var pendingCommission = Money.zero
        let kind = ticket.kind
        for order in account.pendingOrders {
            let at = order.price ?? (order.sameContract ? price : .zero)
            let value = Money(price: at, quantity: order.quantity).times(order.multiplier).magnitude
            if order.sameContract {
                if order.increases { pendingHere += order.side.sign * order.quantity.units }
            } else if order.increases {
                pendingGross += value
            }
            // A future's price is not paid: only a stock's or a pair's buy spends cash.
            if order.side == .buy, order.paysNotional { pendingCost += value }
            pendingCommission += reserve.amount(quantity: order.quantity, price: at, kind: order.sameContract ? kind : .stock)
        }
        let held = account.position.units
        let before = held + pendingHere
        let after = before + request.side.sign * request.quantity.units
        var view = RiskView(
            now: .zero, equity: account.equity, position: Position(instrument: request.instrument, kind: kind),
            referencePrice: price, isEntry: after.magnitude > before.magnitude, monitor: status)
        view.position.quantity = account.position
        view.grossExposure = account.grossExposure
        view.activePositionCount = account.activePositions
        view.pendingQuantity = Quantity(units: pendingHere)
        let heldValue = Money(units: FixedPoint.multiply(price.units, held)).times(kind.multiplier).magnitude
        let postValue = Money(units: FixedPoint.multiply(price.units, after)).times(kind.multiplier).magnitude
        view.postTradePositionValue = postValue
        view.postTradeGrossExposure = account.grossExposure - heldValue + pendingGross + postValue
        if !reserve.isNone {
            view.commissionReserve = pendingCommission + reserve.amount(quantity: request.quantity, price: price, kind: kind)
        }
        if let stop = ticket.stopLoss {
            view.stopDistance = Price(units: Int64(truncatingIfNeeded: (stop.units - price.units).magnitude))
        }
        view.settledCash = account.settledCash.map { $0 - pendingCost }
        return view
    }
}
