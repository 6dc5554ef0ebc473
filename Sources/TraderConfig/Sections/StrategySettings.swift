/// `strategy:` which strategy runs, with what capital and parameters.
public struct StrategySettings: Sendable {
    /// The strategy with its parameters.
    public var choice: StrategyChoice
    /// The engine's capital (it may be less than the account's).
    public var cash: Double = 100_000

    /// The strategy's name.
    public var name: String { choice.name }

    /// The default strategy of `catalog` (momentum, else the first).
    public init(catalog: StrategyCatalog) {
        let entry = catalog.entry(named: "momentum") ?? catalog.entries[0]
        choice = entry.defaults
    }

    /// The section as a field: `name` is read first (from the merged value), then `parameters` against that
    /// strategy's own keys.
    static func field(catalog: StrategyCatalog) -> ConfigField<TraderConfiguration> {
        let names = catalog.names
        let nameKind = ConfigKind<String>.choice(names)
        let cashKind = ConfigKind<Double>.money
        let keys = ["name", "cash", "parameters"]
        return ConfigField(
            key: "strategy",
            decode: { (node, root, path, record) throws(ConfigError) in
                if node.isNull { return }
                guard let entries = node.entries else {
                    throw ConfigError(
                        "expected a mapping of keys (name, cash, parameters), got \(node.shapeDescription)", key: path,
                        at: node.origin)
                }
                for entry in entries where !keys.contains(entry.key) {
                    throw ConfigError(
                        "unknown key" + (KeySuggestion.nearest(to: entry.key, in: keys).map { "; did you mean '\($0)'?" }
                            ?? "; known keys: name, cash, parameters"), key: path + "." + entry.key, at: entry.keyOrigin)
                }
                if let nameNode = node["name"] {
                    let name = try nameKind.read(nameNode, path + ".name")
                    record.origins[path + ".name"] = nameNode.origin
                    if name != root.strategy.name, let entry = catalog.entry(named: name) {
                        root.strategy.choice = entry.defaults
                    }
                }
                if let cashNode = node["cash"] {
                    root.strategy.cash = try cashKind.read(cashNode, path + ".cash")
                    record.origins[path + ".cash"] = cashNode.origin
                }
                if let parameters = node["parameters"], let entry = catalog.entry(named: root.strategy.name) {
                    root.strategy.choice = try entry.decode(
                        parameters, root.strategy.choice, path + ".parameters", &record)
                }
            },
            show: { root, path, record in
                [
                    ConfigShownValue(path: path + ".name", text: root.strategy.name, origin: record.origin(of: path + ".name")),
                    ConfigShownValue(
                        path: path + ".cash", text: cashKind.format(root.strategy.cash), origin: record.origin(of: path + ".cash")),
                ] + root.strategy.choice.shownParameters(path: path + ".parameters", record: record)
            },
            describe: { defaults, path in
                [
                    ConfigKeyInfo(
                        path: path, summary: "Which strategy runs, with what capital and parameters.", allowed: "a mapping",
                        defaultText: "", isSection: true),
                    ConfigKeyInfo(
                        path: path + ".name", summary: "The strategy.", allowed: nameKind.allowed,
                        defaultText: defaults.strategy.name, flag: "--strategy"),
                    ConfigKeyInfo(
                        path: path + ".cash", summary: "The engine's capital (it may be less than the account's).",
                        allowed: cashKind.allowed, defaultText: cashKind.format(defaults.strategy.cash), flag: "--cash"),
                    ConfigKeyInfo(
                        path: path + ".parameters",
                        summary: "The strategy's own settings; only the keys written change its defaults (see Strategies).",
                        allowed: "a mapping", defaultText: "", isSection: true),
                ]
            })
    }
}

/// `universe:` the symbols traded.
public struct UniverseSettings: Hashable, Sendable {
    /// The symbols (a backtest: a filter of the data's symbols; empty: all of them).
    public var symbols: [String] = []

    /// Creates the defaults.
    public init() {}

    /// The schema of the section.
    public static var schema: ConfigSection<UniverseSettings> {
        ConfigSection([
            .value(
                "symbols", \.symbols, .symbols,
                summary: "The symbols traded (run: required; backtests: a filter of the data, empty for all).", flag: true),
        ])
    }
}
