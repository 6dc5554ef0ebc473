import TradingModel

/// The facts a rule may look at for one order, computed by the engine before evaluation.
public struct RiskView: Sendable {
    /// Decision time.
    public var now: Timestamp
    /// Account equity.
    public var equity: Money
    /// Gross exposure before the trade.
    public var grossExposure: Money
    /// Non-flat positions before the trade, pending orders included (see `pendingQuantity`).
    public var activePositionCount: Int
    /// The instrument's position before the trade.
    public var position: Position
    /// What the instrument's open orders will add to `position` once they trade, as the engine counts them:
    /// orders that increase a position always, orders that reduce it only when they are market orders sent now
    /// (a rebalance's own sells). Signed; zero when nothing is pending.
    public var pendingQuantity: Quantity
    /// Price used to value the trade (last mark), in the instrument's currency.
    public var referencePrice: Price
    /// Account currency per unit of the instrument's price currency (1 when they are the same): what converts
    /// `referencePrice` and a stop's distance into the money `equity` is in.
    public var valueRate = 1.0
    /// `true` when the order increases the position's absolute size.
    public var isEntry: Bool
    /// |position value| after the trade.
    public var postTradePositionValue: Money
    /// Gross exposure after the trade.
    public var postTradeGrossExposure: Money
    /// |Exposure of the instrument's sector| after the trade, when a sector limit is configured.
    public var postTradeSectorExposure: Money?
    /// Distance from entry to protective stop, for bracket entries.
    public var stopDistance: Price?
    /// Flags and levels kept by `RiskMonitor`.
    public var monitor: RiskMonitor.Status
    /// `true` when the order only protects a position held now (`EngineCore.protectsHeldPosition`): the kill switch
    /// lets it through.
    public var protectsHeldPosition = false
    /// Last price of the volatility symbol, when configured.
    public var volatilityLevel: Double?
    /// Cash available under T+N settlement.
    public var settledCash: Money?
    /// The instrument's return correlation with the rest of the book, when the correlation limit is on and there is
    /// enough common history.
    public var bookCorrelation: BookCorrelation?
    /// The book's initial margin requirement after the trade, when the margin rule is on.
    public var postTradeInitialMargin: Money?
    /// The commissions set aside: this order's at its size and the open orders' (`EngineConfig.commissionReserve`);
    /// what the exposure and cash limits leave room for.
    public var commissionReserve = Money.zero

    /// Creates a view.
    public init(
        now: Timestamp, equity: Money, position: Position, referencePrice: Price, isEntry: Bool,
        monitor: RiskMonitor.Status = RiskMonitor.Status()
    ) {
        self.now = now
        self.equity = equity
        self.grossExposure = .zero
        self.activePositionCount = 0
        self.position = position
        self.pendingQuantity = .zero
        self.referencePrice = referencePrice
        self.isEntry = isEntry
        self.postTradePositionValue = .zero
        self.postTradeGrossExposure = .zero
        self.postTradeSectorExposure = nil
        self.stopDistance = nil
        self.monitor = monitor
        self.volatilityLevel = nil
        self.settledCash = nil
        self.bookCorrelation = nil
        self.postTradeInitialMargin = nil
    }

    /// The position once the pending orders have traded, before this order.
    public var projectedQuantity: Quantity { position.quantity + pendingQuantity }
}

/// One small pre-trade check. Rules are pure: state (peaks, day starts) lives in `RiskMonitor`.
public protocol RiskRule: Sendable {
    /// Returns `nil` to allow the order, or the denial.
    func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial?
}

/// Denies everything while engaged, except an order that only protects a held position (`RiskView.protectsHeldPosition`:
/// a halt never leaves a position bare).
public struct KillSwitchRule: RiskRule {
    /// Creates the rule.
    public init() {}
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        if view.monitor.killSwitchEngaged, !view.protectsHeldPosition {
            return RiskDenial(rule: .killSwitch, detail: view.monitor.killSwitchDetail)
        }
        if view.monitor.entriesPaused, view.isEntry {
            return RiskDenial(rule: .killSwitch, detail: "entries paused by the operator")
        }
        return nil
    }
}

/// Caps one position's value, absolutely and as % of equity.
public struct MaxPositionValueRule: RiskRule {
    /// Largest position value, if set.
    public var maxValue: Money?
    /// The limit in percent of equity.
    public var maxPercentOfEquity: Double?
    /// Creates the rule.
    public init(maxValue: Money?, maxPercentOfEquity: Double?) {
        self.maxValue = maxValue
        self.maxPercentOfEquity = maxPercentOfEquity
    }
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        guard view.isEntry else { return nil }
        if let cap = maxValue, view.postTradePositionValue > cap {
            return RiskDenial(rule: .maxPositionValue, detail: "position value \(view.postTradePositionValue.centsDescription) > \(cap.centsDescription)")
        }
        if let pct = maxPercentOfEquity, view.postTradePositionValue.doubleValue > view.equity.doubleValue * pct / 100 {
            return RiskDenial(rule: .maxPositionPercentOfEquity, detail: "position value \(view.postTradePositionValue.centsDescription) > \(pct)% of equity \(view.equity.centsDescription)")
        }
        return nil
    }
}

/// Caps gross exposure / equity.
public struct MaxGrossExposureRule: RiskRule {
    /// Largest gross exposure / equity.
    public var maxRatio: Double
    /// Creates the rule.
    public init(maxRatio: Double) { self.maxRatio = maxRatio }
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        // Equity less the commissions the trades will cost: an unlevered book that spends its last dollar keeps its
        // commission in cash.
        let room = view.equity - view.commissionReserve
        guard view.isEntry, view.postTradeGrossExposure.doubleValue > room.doubleValue * maxRatio else { return nil }
        let less = view.commissionReserve.units > 0
            ? " (less \(view.commissionReserve.centsDescription) set aside for commissions)" : ""
        return RiskDenial(
            rule: .maxGrossExposure,
            detail: "gross exposure \(view.postTradeGrossExposure.centsDescription) > \(maxRatio) × equity "
                + "\(view.equity.centsDescription)\(less)")
    }
}

/// Caps the number of non-flat positions.
public struct MaxActivePositionsRule: RiskRule {
    /// Most non-flat positions.
    public var maxCount: Int
    /// Creates the rule.
    public init(maxCount: Int) { self.maxCount = maxCount }
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        guard view.isEntry, view.projectedQuantity.units == 0, view.activePositionCount >= maxCount else { return nil }
        return RiskDenial(
            rule: .maxActivePositions,
            detail: "\(view.activePositionCount) positions open or pending, limit \(maxCount)")
    }
}

/// Blocks entries after the daily loss limit was hit, until the next UTC day.
public struct MaxDailyLossRule: RiskRule {
    /// Creates the rule.
    public init() {}
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        guard view.isEntry, view.monitor.dailyLossBreached else { return nil }
        return RiskDenial(rule: .maxDailyLoss, detail: "daily loss limit hit; entries blocked until next session")
    }
}

/// Blocks entries for good after the drawdown limit was hit.
public struct MaxDrawdownRule: RiskRule {
    /// Creates the rule.
    public init() {}
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        guard view.isEntry, view.monitor.drawdownHalted else { return nil }
        return RiskDenial(rule: .maxDrawdown, detail: "max drawdown hit; trading halted")
    }
}

/// Blocks entries for good after a rapid loss.
public struct RapidLossRule: RiskRule {
    /// Creates the rule.
    public init() {}
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        guard view.isEntry, view.monitor.rapidLossHalted else { return nil }
        return RiskDenial(rule: .rapidLoss, detail: "rapid loss detected; trading halted")
    }
}

/// Caps one sector's exposure as % of equity.
public struct SectorAllocationRule: RiskRule {
    /// The limit in percent of equity.
    public var maxPercentOfEquity: Double
    /// Creates the rule.
    public init(maxPercentOfEquity: Double) { self.maxPercentOfEquity = maxPercentOfEquity }
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        guard view.isEntry, let exposure = view.postTradeSectorExposure,
            exposure.doubleValue > view.equity.doubleValue * maxPercentOfEquity / 100
        else { return nil }
        return RiskDenial(
            rule: .sectorAllocation,
            detail: "sector exposure \(exposure.centsDescription) > \(maxPercentOfEquity)% of equity \(view.equity.centsDescription)")
    }
}

/// Blocks entries while a volatility gauge is above a threshold.
public struct VolatilityPauseRule: RiskRule {
    /// Level above which entries pause.
    public var threshold: Double
    /// Creates the rule.
    public init(threshold: Double) { self.threshold = threshold }
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        guard view.isEntry, let level = view.volatilityLevel, level > threshold else { return nil }
        return RiskDenial(rule: .volatilityPause, detail: "volatility \(level) above \(threshold)")
    }
}

/// Caps the loss at the stop of a bracket entry as % of equity.
public struct RiskPerTradeRule: RiskRule {
    /// The limit in percent of equity.
    public var maxPercentOfEquity: Double
    /// Creates the rule.
    public init(maxPercentOfEquity: Double) { self.maxPercentOfEquity = maxPercentOfEquity }
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        guard view.isEntry, let distance = view.stopDistance else { return nil }
        let risk = Money(price: distance, quantity: request.quantity).times(view.position.multiplier)
            .converted(at: view.valueRate)
        guard risk.doubleValue > view.equity.doubleValue * maxPercentOfEquity / 100 else { return nil }
        return RiskDenial(rule: .riskPerTrade, detail: "risk at stop \(risk.centsDescription) > \(maxPercentOfEquity)% of equity")
    }
}

/// Denies buys that settled cash cannot pay for (cash accounts, T+N).
public struct SettledCashRule: RiskRule {
    /// Creates the rule.
    public init() {}
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        // A future's price is not paid in cash (its margin is the margin rule's).
        guard request.side == .buy, view.position.paysNotional, let settled = view.settledCash else { return nil }
        let cost = Money(price: view.referencePrice, quantity: request.quantity).converted(at: view.valueRate)
        guard cost + view.commissionReserve > settled else { return nil }
        let commissions = view.commissionReserve.units > 0
            ? " and \(view.commissionReserve.centsDescription) of commissions" : ""
        return RiskDenial(
            rule: .settledCash,
            detail: "buy of \(cost.centsDescription)\(commissions) exceeds settled cash \(settled.centsDescription) "
                + "(pending buys deducted)")
    }
}

extension RiskConfig {
    /// The rules this configuration enables, kill switch first.
    public func makeRules() -> [any RiskRule] {
        var rules: [any RiskRule] = [KillSwitchRule()]
        if maxPositionValue != nil || maxPositionPercentOfEquity != nil {
            rules.append(MaxPositionValueRule(maxValue: maxPositionValue, maxPercentOfEquity: maxPositionPercentOfEquity))
        }
        if let r = maxGrossExposureRatio { rules.append(MaxGrossExposureRule(maxRatio: r)) }
        if let n = maxActivePositions { rules.append(MaxActivePositionsRule(maxCount: n)) }
        if maxDailyLossPercent != nil { rules.append(MaxDailyLossRule()) }
        if maxDrawdownPercent != nil { rules.append(MaxDrawdownRule()) }
        if rapidLossPercent != nil { rules.append(RapidLossRule()) }
        if let p = maxSectorPercentOfEquity { rules.append(SectorAllocationRule(maxPercentOfEquity: p)) }
        if volatilitySymbol != nil, let t = volatilityThreshold { rules.append(VolatilityPauseRule(threshold: t)) }
        if let p = maxRiskPerTradePercent { rules.append(RiskPerTradeRule(maxPercentOfEquity: p)) }
        if requireSettledCash == true { rules.append(SettledCashRule()) }
        if let c = maxCorrelation { rules.append(CorrelationRule(maxCorrelation: c)) }
        if initialMarginPercent != nil { rules.append(MarginRule()) }
        return rules
    }
}
