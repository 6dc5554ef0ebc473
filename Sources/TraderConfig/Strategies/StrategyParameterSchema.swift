import TradingEngine

/// How one strategy's `strategy.parameters` are read, checked, shown and documented. The built-in strategies
/// conform to it here; a user's strategy conforms through `ConfigurableStrategy`.
public protocol StrategyParameterSchema: Sendable {
    /// The strategy's parameters (a value type).
    associatedtype Parameters: Hashable & Sendable
    /// The name in configs and on the command line (`momentum`, `my-strategy`).
    static var name: String { get }
    /// One sentence for the docs.
    static var summary: String { get }
    /// The parameters a config that names the strategy starts from.
    static var defaults: Parameters { get }
    /// The keys of `strategy.parameters`.
    static var schema: ConfigSection<Parameters> { get }
    /// Checks against other sections (e.g. leverage against `risk.allowLeverage`).
    /// - Parameters:
    ///   - parameters: the decoded parameters.
    ///   - risk: the decoded risk section.
    ///   - origin: where `key` was set, for the error.
    static func check(_ parameters: Parameters, risk: RiskSettings, origin: (String) -> ConfigOrigin?) throws(ConfigError)
    /// The built-in strategy these parameters describe (`nil` for a user's strategy).
    static func builtIn(_ parameters: Parameters) -> StrategySpec?
    /// How to run the strategy with these parameters.
    static func runner(_ parameters: Parameters) -> StrategyRunner
}

extension StrategyParameterSchema {
    public static func check(
        _ parameters: Parameters, risk: RiskSettings, origin: (String) -> ConfigOrigin?
    ) throws(ConfigError) {}

    public static func builtIn(_ parameters: Parameters) -> StrategySpec? { nil }

    /// The catalog entry of this strategy.
    public static var entry: StrategyEntry { StrategyEntry(self) }
}

/// A strategy the commands know by name: how to decode its parameters (type-erased).
public struct StrategyEntry: Sendable {
    /// The name (`momentum`).
    public let name: String
    /// One sentence for the docs.
    public let summary: String
    let makeDefaults: @Sendable () -> StrategyChoice
    let decode: @Sendable (ConfigNode, StrategyChoice, String, inout ConfigRecord) throws(ConfigError) -> StrategyChoice
    let describeKeys: @Sendable (String) -> [ConfigKeyInfo]
    let keys: @Sendable () -> [String]

    /// The entry of a schema.
    public init<Schema: StrategyParameterSchema>(_ schema: Schema.Type) {
        name = Schema.name
        summary = Schema.summary
        makeDefaults = { StrategyChoice(Schema.self, Schema.defaults) }
        decode = { (node, current, path, record) throws(ConfigError) in
            var parameters = (current.value as? Schema.Parameters) ?? Schema.defaults
            let schema = Schema.schema
            // A key of another strategy (or a typo) names this strategy and its keys.
            for entry in node.entries ?? [] where !schema.keys.contains(entry.key) {
                throw ConfigError(
                    "\(Schema.name) has no parameter '\(entry.key)'" + KeySuggestion.phrase(for: entry.key, in: schema.keys)
                        + " (its parameters: \(schema.keys.joined(separator: ", ")))", key: path + "." + entry.key,
                    at: entry.keyOrigin)
            }
            try schema.decode(node, into: &parameters, path: path, record: &record)
            return StrategyChoice(Schema.self, parameters)
        }
        describeKeys = { path in Schema.schema.describe(Schema.defaults, path: path) }
        keys = { Schema.schema.keys }
    }

    /// The strategy with its default parameters.
    public var defaults: StrategyChoice { makeDefaults() }

    /// Every parameter key with its default, under `path`.
    public func describe(path: String) -> [ConfigKeyInfo] { describeKeys(path) }

    /// The parameter keys.
    public var parameterKeys: [String] { keys() }
}

/// The chosen strategy with its decoded parameters.
public struct StrategyChoice: Sendable {
    /// The strategy's name.
    public let name: String
    /// The parameters (of the strategy's own type).
    public let value: any Hashable & Sendable
    /// The built-in strategy, for the runners that take a `StrategySpec`.
    public let spec: StrategySpec?
    /// The strategy bound to its type, for the backtest, walk-forward and live runners.
    public let runner: StrategyRunner
    let show: @Sendable (String, ConfigRecord) -> [ConfigShownValue]
    let check: @Sendable (RiskSettings, (String) -> ConfigOrigin?) throws(ConfigError) -> Void
    let apply: @Sendable (ConfigNode, String, inout ConfigRecord) throws(ConfigError) -> StrategyChoice
    let checkOne: @Sendable (String, ConfigNode) throws(ConfigError) -> Void

    init<Schema: StrategyParameterSchema>(_ schema: Schema.Type, _ parameters: Schema.Parameters) {
        name = Schema.name
        value = parameters
        spec = Schema.builtIn(parameters)
        runner = Schema.runner(parameters)
        show = { path, record in Schema.schema.show(parameters, path: path, record: record) }
        check = { (risk, origin) throws(ConfigError) in try Schema.check(parameters, risk: risk, origin: origin) }
        apply = { (node, path, record) throws(ConfigError) in
            var updated = parameters
            try Schema.schema.decode(node, into: &updated, path: path, record: &record)
            return StrategyChoice(Schema.self, updated)
        }
        checkOne = { (key, node) throws(ConfigError) in
            let schema = Schema.schema
            let path = "strategy.parameters." + key
            // A dotted name sets a key inside a mapping-valued parameter (`atrStops.stopMultiple`).
            let components = key.split(separator: ".").map(String.init)
            var node = node
            for component in components.dropFirst().reversed() {
                node = ConfigNode.emptyMapping(origin: node.origin).setting([component], to: node)
            }
            let head = components.first ?? key
            guard let field = schema.fields.first(where: { $0.key == head }) else {
                throw ConfigError(
                    "\(Schema.name) has no parameter '\(key)'" + KeySuggestion.phrase(for: key, in: schema.keys)
                        + " (its parameters: \(schema.keys.joined(separator: ", ")))", key: path, at: node.origin)
            }
            var scratch = parameters
            var record = ConfigRecord()
            try field.decode(node, &scratch, "strategy.parameters." + head, &record)
        }
    }

    /// Checks one parameter value against its key's kind and range (not against the other keys: a sweep's
    /// combinations are checked by its `where` relations).
    /// - Parameters:
    ///   - key: the parameter key.
    ///   - value: the value as text.
    ///   - origin: named in errors.
    public func check(key: String, value: String, origin: ConfigOrigin) throws(ConfigError) {
        try checkOne(key, .scalar(value, origin: origin))
    }

    /// The parameters as `config show` prints them.
    public func shownParameters(path: String, record: ConfigRecord) -> [ConfigShownValue] { show(path, record) }

    /// These parameters with some set from numbers (a sweep's configuration), each checked like a config value.
    /// - Parameters:
    ///   - values: parameter keys and values.
    ///   - origin: named in errors (e.g. `--parameter fastPeriod`).
    public func setting(_ values: [(key: String, value: String)], origin: ConfigOrigin) throws(ConfigError) -> StrategyChoice {
        var node = ConfigNode.emptyMapping(origin: origin)
        for (key, value) in values { node = node.setting([key], to: .scalar(value, origin: origin)) }
        var record = ConfigRecord()
        return try apply(node, "strategy.parameters", &record)
    }
}
