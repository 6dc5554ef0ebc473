import TradingModel

/// Margin rates by instrument: the rule's initial and maintenance percentages, a symbol's own rate for both.
public struct MarginRates: Sendable, Hashable {
    /// Initial margin as a fraction of a position's value.
    public var initial: Double
    /// Maintenance margin as a fraction.
    public var maintenance: Double
    /// Instruments with their own rate (a fraction, initial and maintenance alike), by index.
    public var byInstrument: [Int: Double]

    /// The rates of a risk configuration; `nil` when the margin rule is off.
    public init?(config: RiskConfig, universe: Universe) {
        guard let initial = config.initialMarginPercent else { return nil }
        self.initial = initial / 100
        maintenance = (config.maintenanceMarginPercent ?? RiskConfig.defaultMaintenanceMarginPercent) / 100
        byInstrument = [:]
        for (symbol, percent) in config.marginPercentBySymbol ?? [:] {
            if let id = universe.id(of: symbol) { byInstrument[id.index] = percent / 100 }
        }
    }

    /// The initial rate of an instrument.
    public func initial(_ index: Int) -> Double { byInstrument[index] ?? initial }
    /// The maintenance rate of an instrument.
    public func maintenance(_ index: Int) -> Double { byInstrument[index] ?? maintenance }
}

/// The margin rule: an entry whose initial margin requirement after the trade (the book's, pending orders counted,
/// plus the instrument's at its new size) would exceed equity is a sizing limit (scaled down to fit, or denied);
/// while the maintenance requirement exceeds equity the book is reduce-only.
public struct MarginRule: RiskRule {
    /// Creates the rule.
    public init() {}
    /// Evaluates the order; `nil` allows it.
    public func evaluate(_ request: OrderRequest, in view: RiskView) -> RiskDenial? {
        guard view.isEntry else { return nil }
        if view.monitor.maintenanceMarginBreached {
            return RiskDenial(
                rule: .maintenanceMargin, detail: "maintenance margin above equity: reduce-only until it is met again")
        }
        guard let required = view.postTradeInitialMargin, required > view.equity else { return nil }
        return RiskDenial(
            rule: .initialMargin,
            detail: "initial margin \(required.centsDescription) after the trade > equity \(view.equity.centsDescription) "
                + "(buying power would be \((view.equity - required).centsDescription))")
    }
}

extension EngineCore {
    /// Reduce-only while the book's maintenance requirement exceeds its equity (checked on every bar).
    @usableFromInline
    mutating func checkMaintenanceMargin() {
        let breached = maintenanceMarginRequirement > _state.portfolio.equity
        if breached != _riskMonitor.status.maintenanceMarginBreached { _riskMonitor.setMaintenanceMarginBreached(breached) }
    }

    /// The book's maintenance margin requirement now (0 with the margin rule off): gross exposure at the common
    /// rate, corrected for the instruments with a rate of their own (so cheap enough for every bar).
    public var maintenanceMarginRequirement: Money { marginRequirement(rate: marginRates?.maintenance) }

    /// The book's initial margin requirement now (0 with the margin rule off), as `maintenanceMarginRequirement`.
    public var initialMarginRequirement: Money { marginRequirement(rate: marginRates?.initial) }

    /// `true` when the margin rule is on (`risk.initialMarginPercent`).
    public var hasMarginRule: Bool { marginRates != nil }

    func marginRequirement(rate common: Double?) -> Money {
        guard let rates = marginRates, let common else { return .zero }
        let portfolio = _state.portfolio
        var required = Double(portfolio.grossExposure.units) * common
        for (index, rate) in rates.byInstrument {
            let id = InstrumentID(index: index)
            required += Double(portfolio.exposure(of: id, quantity: portfolio.positions[index].quantity.units).units)
                * (rate - common)
        }
        return Money(units: Int64(required.rounded(.up)))
    }
}
