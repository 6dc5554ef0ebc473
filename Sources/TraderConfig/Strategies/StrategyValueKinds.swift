import TradingEngine
import TradingModel

/// The strategy-specific value shapes, read by hand: sizing, rebalance schedules and ATR stops.
extension ConfigKind where Value == PositionSizer {
    /// `percentOfEquity: 10`, `fixed: 100` or `riskBased: {riskPercent: 1, atrMultiple: 2}` (with optional
    /// `minimumATRPercent` and `maxPercentOfEquity`; a flag may say `fixed:100` or `percentOfEquity:10`).
    public static var sizing: ConfigKind<PositionSizer> {
        let allowed = "percentOfEquity: P | fixed: UNITS | riskBased: {riskPercent: P, atrMultiple: M, "
            + "minimumATRPercent: F, maxPercentOfEquity: C} (the last two optional)"
        let kinds = ["percentOfEquity", "fixed", "riskBased"]
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                var name: String, value: ConfigNode
                if let entries = node.entries {
                    guard entries.count == 1, let entry = entries.first else {
                        throw ConfigError("expected exactly one of \(kinds.joined(separator: ", ")), e.g. 'percentOfEquity: 10'", key: key, at: node.origin)
                    }
                    (name, value) = (entry.key, entry.value)
                } else if let text = node.scalar, let colon = text.firstIndex(of: ":") {
                    name = text[..<colon].trimmingSpaces
                    value = .scalar(text[text.index(after: colon)...].trimmingSpaces, origin: node.origin)
                } else {
                    throw ConfigError("expected \(allowed), got \(node.shapeDescription)", key: key, at: node.origin)
                }
                let inner = "\(key).\(name)"
                switch name {
                case "percentOfEquity":
                    return .percentOfEquity(try ConfigKind<Double>.percent().read(value, inner))
                case "fixed":
                    let shares = try ConfigKind<Double>.number(.above(0, atMost: 1_000_000_000)).read(value, inner)
                    return .fixedQuantity(Quantity(units: Int64((shares * 1e8).rounded())))
                case "riskBased":
                    var risk = RiskBasedSizing()
                    var record = ConfigRecord()
                    try RiskBasedSizing.schema.decode(value, into: &risk, path: inner, record: &record)
                    guard value.entries != nil else {
                        throw ConfigError("expected {riskPercent: P, atrMultiple: M}", key: inner, at: value.origin)
                    }
                    return .riskBased(
                        riskPercent: risk.riskPercent, atrMultiple: risk.atrMultiple,
                        minimumATRPercent: risk.minimumATRPercent, maxPercentOfEquity: risk.maxPercentOfEquity)
                default:
                    throw ConfigError(
                        "unknown sizing '\(name)'; expected \(kinds.joined(separator: ", "))"
                            + KeySuggestion.phrase(for: name == "fixedQuantity" ? "fixed" : name, in: kinds),
                        key: key, at: node.origin)
                }
            },
            format: { sizer in
                switch sizer {
                case .percentOfEquity(let percent): "{percentOfEquity: \(ConfigFormat.number(percent))}"
                case .fixedQuantity(let quantity): "{fixed: \(quantity)}"
                case .riskBased(let risk, let multiple, let floor, let cap):
                    "{riskBased: {riskPercent: \(ConfigFormat.number(risk)), atrMultiple: \(ConfigFormat.number(multiple)), "
                        + "minimumATRPercent: \(ConfigFormat.number(floor)), maxPercentOfEquity: \(ConfigFormat.number(cap))}}"
                }
            })
    }
}

/// `riskBased:`'s keys.
struct RiskBasedSizing: Hashable {
    var riskPercent = 1.0
    var atrMultiple = 2.0
    var minimumATRPercent = 0.5
    var maxPercentOfEquity = 100.0

    static var schema: ConfigSection<RiskBasedSizing> {
        ConfigSection([
            .value("riskPercent", \.riskPercent, .percent(), summary: "Equity risked per trade, percent."),
            .value(
                "atrMultiple", \.atrMultiple, .number(.above(0, atMost: 100)),
                summary: "The stop's distance in ATRs, which sizes the position."),
            .value(
                "minimumATRPercent", \.minimumATRPercent, .number(.init(0...100)),
                summary: "The ATR used is at least this % of the price (a quiet stretch cannot ask for a huge position)."),
            .value(
                "maxPercentOfEquity", \.maxPercentOfEquity, .percent(),
                summary: "Never more than this % of equity in one entry, whatever the stop's distance."),
        ])
    }
}

extension ConfigKind where Value == RebalanceSchedule {
    /// `daily`, `weekly`, `monthly`, or a whole number of bars.
    public static var schedule: ConfigKind<RebalanceSchedule> {
        let allowed = "daily | weekly | monthly | N (every N bars, 1 to 100000)"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                if let entries = node.entries, let first = entries.first {
                    let human = first.key == "everyBars" ? (first.value.entries?.first?.value.scalar ?? "N") : first.key
                    throw ConfigError(
                        "write the schedule as a word or a number of bars ('rebalance: \(human)'), not as a mapping",
                        key: key, at: node.origin)
                }
                let text = try ConfigKind<String>.text(node, key, expecting: allowed)
                switch text {
                case "daily": return .daily
                case "weekly": return .weekly
                case "monthly": return .monthly
                default:
                    guard let bars = Int(text), (1...100_000).contains(bars) else {
                        throw ConfigError(
                            "must be \(allowed), got '\(text)'"
                                + KeySuggestion.phrase(for: text, in: ["daily", "weekly", "monthly"]),
                            key: key, at: node.origin)
                    }
                    return .everyBars(bars)
                }
            },
            format: { schedule in
                switch schedule {
                case .daily: "daily"
                case .weekly: "weekly"
                case .monthly: "monthly"
                case .everyBars(let bars): String(bars)
                }
            })
    }
}

extension ConfigKind where Value == ATRStopConfig? {
    /// `atrStops: 2` (a stop 2 ATR(14)s away), `{period: 14, stopMultiple: 2, takeProfitMultiple: 3}`, or none.
    public static var atrStops: ConfigKind<ATRStopConfig?> {
        let allowed = "none, a stop distance in ATR(14)s (e.g. 2), or {period, stopMultiple, takeProfitMultiple}"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                if node.isNull || node.scalar?.lowercased() == "none" { return nil }
                if node.scalar != nil {
                    let multiple = try ConfigKind<Double>.number(.above(0, atMost: 100)).read(node, key)
                    return ATRStopConfig(period: 14, stopMultiple: multiple)
                }
                var stops = ATRStopConfig()
                var record = ConfigRecord()
                try atrStopSchema.decode(node, into: &stops, path: key, record: &record)
                return stops
            },
            format: { stops in
                guard let stops else { return "none" }
                var text = "{period: \(stops.period), stopMultiple: \(ConfigFormat.number(stops.stopMultiple))"
                if let target = stops.takeProfitMultiple { text += ", takeProfitMultiple: \(ConfigFormat.number(target))" }
                return text + "}"
            })
    }

    static var atrStopSchema: ConfigSection<ATRStopConfig> {
        ConfigSection([
            .value("period", \.period, .integer(1...1000), summary: "ATR period."),
            .value("stopMultiple", \.stopMultiple, .number(.above(0, atMost: 100)), summary: "Stop distance in ATRs."),
            .value(
                "takeProfitMultiple", \.takeProfitMultiple, ConfigKind<Double>.number(.above(0, atMost: 100)).optional,
                summary: "Take-profit distance in ATRs (none: no target)."),
        ])
    }
}
