import Foundation
import TradingEngine

/// Sets swept parameters on any built-in strategy through its `Codable` form, so every setting of every strategy
/// can be swept without a per-strategy table.
///
/// A name is a key of the strategy's config (`fastPeriod`, `lookback`, `oversold`), a dotted path into a nested
/// setting (`atrStops.stopMultiple`), or a short alias: `fast` → `fastPeriod`, `slow` → `slowPeriod`, and any
/// `x` → `xPeriod` when the config has that key. Whole values are written as integers so `Int` settings decode.
/// After decoding, the value is read back; a setting the config ignored is an error, not a silent no-op.
///
/// ```swift
/// let spec = try StrategyParameters.apply(ParameterSet([("fast", 5), ("slow", 40)]), to: .movingAverageCrossover(config: .init()))
/// ```
public enum StrategyParameters {
    /// The strategy's name in configs (`movingAverageCrossover`, `rsiMeanReversion`, …).
    public static func name(of spec: StrategySpec) -> String {
        switch spec {
        case .movingAverageCrossover: return "movingAverageCrossover"
        case .rsiMeanReversion: return "rsiMeanReversion"
        case .bollingerMeanReversion: return "bollingerMeanReversion"
        case .momentumRotation: return "momentumRotation"
        case .performanceAllocator: return "performanceAllocator"
        }
    }

    /// Returns `spec` with every parameter of `parameters` set.
    /// - Throws: `ResearchError.unknownStrategyParameter` naming the first parameter the strategy does not take.
    public static func apply(_ parameters: ParameterSet, to spec: StrategySpec) throws(ResearchError) -> StrategySpec {
        guard !parameters.entries.isEmpty else { return spec }
        let strategy = name(of: spec)
        var config = try configObject(of: spec)
        for entry in parameters.entries {
            let path = resolve(entry.name, in: config)
            config = set(path[...], to: jsonNumber(entry.value), in: config)
        }
        let updated = try decode(strategy: strategy, config: config, failing: parameters.entries.first?.name ?? "")
        // Read every value back: a key the decoder ignored must not pass silently.
        let check = try configObject(of: updated)
        for entry in parameters.entries {
            let path = resolve(entry.name, in: config)
            guard let read = get(path[...], in: check), numeric(read) == entry.value else {
                throw .unknownStrategyParameter(entry.name, strategy: strategy)
            }
        }
        return updated
    }

    private static func configObject(of spec: StrategySpec) throws(ResearchError) -> [String: Any] {
        let strategy = name(of: spec)
        guard let data = try? JSONEncoder().encode(spec),
            let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let wrapper = root[strategy] as? [String: Any], let config = wrapper["config"] as? [String: Any]
        else { throw .unknownStrategyParameter("config", strategy: strategy) }
        return config
    }

    private static func decode(
        strategy: String, config: [String: Any], failing parameter: String
    ) throws(ResearchError) -> StrategySpec {
        let root: [String: Any] = [strategy: ["config": config]]
        guard let data = try? JSONSerialization.data(withJSONObject: root),
            let spec = try? JSONDecoder().decode(StrategySpec.self, from: data)
        else { throw .unknownStrategyParameter(parameter, strategy: strategy) }
        return spec
    }

    /// The key path a parameter name refers to.
    static func resolve(_ name: String, in config: [String: Any]) -> [String] {
        let path = name.split(separator: ".").map(String.init)
        guard path.count == 1 else { return path }
        if config[name] != nil { return path }
        if config[name + "Period"] != nil { return [name + "Period"] }
        return path
    }

    /// A JSON number, or a decimal string (fixed-point values encode as strings).
    private static func numeric(_ value: Any) -> Double? {
        if let text = value as? String { return Double(text) }
        return (value as? NSNumber)?.doubleValue
    }

    private static func jsonNumber(_ value: Double) -> Any {
        if value == value.rounded(), abs(value) < 1e15 { return Int(value) }
        return value
    }

    private static func set(_ path: ArraySlice<String>, to value: Any, in object: [String: Any]) -> [String: Any] {
        guard let key = path.first else { return object }
        var object = object
        if path.count == 1 {
            object[key] = value
        } else {
            object[key] = set(path.dropFirst(), to: value, in: object[key] as? [String: Any] ?? [:])
        }
        return object
    }

    private static func get(_ path: ArraySlice<String>, in object: [String: Any]) -> Any? {
        guard let key = path.first else { return nil }
        if path.count == 1 { return object[key] }
        guard let inner = object[key] as? [String: Any] else { return nil }
        return get(path.dropFirst(), in: inner)
    }
}
