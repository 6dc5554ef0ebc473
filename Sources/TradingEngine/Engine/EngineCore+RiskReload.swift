import TradingModel

extension EngineCore {
    /// Replaces the risk limits of a running engine (the operator's reload): the rules, the equity monitor's limits
    /// (its day start, peak and halts kept: a halt is lifted by a reset, not by a looser limit), the margin rates,
    /// and the correlation history (kept when its window is unchanged, else started afresh).
    /// - Returns: what changed, one `key: old → new` per limit (`none` for unset).
    @discardableResult
    public mutating func replaceRisk(_ risk: RiskConfig) -> [String] {
        let before = config.risk
        config.risk = risk
        rules = risk.makeRules()
        monitorsEquity = risk.needsEquityMonitoring
        volatilityInstrument = risk.volatilitySymbol.flatMap { _state.universe.id(of: $0) }
        marginRates = MarginRates(config: risk, universe: _state.universe)
        _riskMonitor.replaceLimits(risk)
        let window = risk.correlationWindow ?? RiskConfig.defaultCorrelationWindow
        if risk.maxCorrelation == nil {
            _returns = nil
        } else if _returns?.window != window {
            _returns = ReturnHistory(instruments: _state.universe.count, window: window)
        }
        return RiskConfig.changes(from: before, to: risk)
    }
}

extension RiskConfig {
    /// The limits that differ, `key: old → new`, in declaration order (`none` for unset).
    public static func changes(from old: RiskConfig, to new: RiskConfig) -> [String] {
        let before = Mirror(reflecting: old).children, after = Mirror(reflecting: new).children
        return zip(before, after).compactMap { a, b in
            let (from, to) = (text(a.value), text(b.value))
            guard from != to, let key = a.label else { return nil }
            return "\(key): \(from) → \(to)"
        }
    }

    /// A limit as a person writes it: `none`, `40`, `true`, `TSLA 100`.
    private static func text(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "none" }
            return text(wrapped)
        }
        switch value {
        case let span as TimeSpan:
            let seconds = Double(span.nanoseconds) / 1e9
            return seconds == seconds.rounded() ? "\(Int64(seconds))s" : "\(seconds)s"
        case let number as Double: return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case let symbols as [Symbol: Double]:
            return symbols.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \(text($0.value))" }
                .joined(separator: ", ")
        default: return "\(value)"
        }
    }
}
