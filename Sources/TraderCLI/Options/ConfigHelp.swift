import ArgumentParser
import TraderConfig

/// Help texts of the flags that set configuration keys, taken from the schema (so `--help`, the docs and the
/// template say the same thing).
enum ConfigHelp {
    /// Every key of the schema, with the built-in strategies' parameters.
    static let keys: [ConfigKeyInfo] = {
        let catalog = StrategyCatalog.builtIn
        var keys = TraderConfiguration.schema(catalog: catalog).describe(TraderConfiguration(catalog: catalog), path: "")
        for entry in catalog.entries { keys += entry.describe(path: "strategy.parameters.\(entry.name)") }
        return keys
    }()

    /// The help of the flag for `path` (`risk.maxDrawdownPercent`).
    static func help(_ path: String, valueName: String? = nil) -> ArgumentHelp {
        guard let key = keys.first(where: { $0.path == path }) else { return ArgumentHelp(path) }
        return ArgumentHelp("\(key.summary) Key \(path); \(key.allowed).", valueName: valueName)
    }

    /// The help of a strategy parameter flag, naming the built-in strategies that take it.
    static func parameter(_ name: String, valueName: String? = nil) -> ArgumentHelp {
        let matches = keys.filter { $0.path.hasPrefix("strategy.parameters.") && $0.path.hasSuffix("." + name) }
        guard let first = matches.first else { return ArgumentHelp(name) }
        let strategies = matches.map { $0.path.split(separator: ".")[2] }.joined(separator: ", ")
        return ArgumentHelp(
            "\(strategies): \(first.summary) Key strategy.parameters.\(name); \(first.allowed).", valueName: valueName)
    }
}

/// A flag's value as a configuration override, named like the flag (`--slow-period` for `slowPeriod`).
func override(_ path: String, _ value: String?) -> ConfigOverride? {
    guard let value else { return nil }
    let key = path.split(separator: ".").last.map(String.init) ?? path
    let flag = ConfigHelp.keys.first { $0.path == path }?.flag ?? ConfigKeyInfo.flagName(for: key)
    return ConfigOverride(path: path, value: value, flag: flag)
}

/// A boolean flag's override (`true` when given).
func override(_ path: String, _ flag: Bool) -> ConfigOverride? { override(path, flag ? "true" : nil) }
