import Foundation
import TradingEngine
import TradingModel

/// `strategy:` which strategy runs, with what capital and parameters, and optionally under the performance
/// allocator.
public struct StrategySettings: Sendable {
    /// The strategy with its parameters (under an allocator: the strategy each symbol runs).
    public var choice: StrategyChoice
    /// The engine's capital (it may be less than the account's).
    public var cash: Double = 100_000
    /// The currency of `cash`, equity and reports (an instrument priced in another converts at its pair's rate).
    public var currency = "USD"
    /// `performance`: the performance-weighted allocator runs `choice` on every symbol (`nil`: no allocator).
    public var allocator: String?
    /// The allocator's settings (its `base` is `choice`'s; see `spec`).
    public var allocation = PerformanceAllocatorConfig()

    /// The strategy's name (under an allocator: the base strategy's).
    public var name: String { choice.name }

    /// The built-in strategy that runs: `choice`'s, or the allocator over it (`nil` for a user's strategy).
    public var spec: StrategySpec? {
        guard allocator != nil else { return choice.spec }
        guard let base = choice.spec else { return nil }
        var config = allocation
        config.base = base
        return .performanceAllocator(config: config)
    }

    /// How the strategy that runs is run (backtests, walk-forward windows, live runs and replays).
    public var runner: StrategyRunner {
        if allocator != nil, let spec { return StrategyRunner(spec: spec) }
        return choice.runner
    }

    /// The strategy as reports name it: `momentum`, `performance allocator over sma-cross`.
    public var title: String { allocator == nil ? name : "performance allocator over \(name)" }

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
        let currencyKind = ConfigKind<String>.choice(CurrencyPair.currencies.sorted())
        let keys = ["name", "cash", "currency", "allocator", "allocation", "parameters"]
        let allocatorKind = AllocationSchema.allocatorKind
        return ConfigField(
            key: "strategy",
            decode: { (node, root, path, record) throws(ConfigError) in
                if node.isNull { return }
                guard let entries = node.entries else {
                    throw ConfigError(
                        "expected a mapping of keys (\(keys.joined(separator: ", "))), got \(node.shapeDescription)", key: path,
                        at: node.origin)
                }
                for entry in entries where !keys.contains(entry.key) {
                    throw ConfigError(
                        "unknown key" + (KeySuggestion.nearest(to: entry.key, in: keys).map { "; did you mean '\($0)'?" }
                            ?? "; known keys: \(keys.joined(separator: ", "))"), key: path + "." + entry.key, at: entry.keyOrigin)
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
                if let currencyNode = node["currency"] {
                    root.strategy.currency = try currencyKind.read(currencyNode, path + ".currency")
                    record.origins[path + ".currency"] = currencyNode.origin
                }
                if let allocatorNode = node["allocator"] {
                    root.strategy.allocator = try allocatorKind.read(allocatorNode, path + ".allocator")
                    record.origins[path + ".allocator"] = allocatorNode.origin
                    // The allocator needs a per-symbol strategy: without a name, sma-cross rather than momentum.
                    if root.strategy.allocator != nil, node["name"] == nil, root.strategy.name == "momentum",
                        let entry = catalog.entry(named: "sma-cross")
                    {
                        root.strategy.choice = entry.defaults
                    }
                }
                if let allocation = node["allocation"] {
                    try AllocationSchema.schema.decode(
                        allocation, into: &root.strategy.allocation, path: path + ".allocation", record: &record)
                }
                if let parameters = node["parameters"], let entry = catalog.entry(named: root.strategy.name) {
                    root.strategy.choice = try entry.decode(
                        parameters, root.strategy.choice, path + ".parameters", &record)
                }
                try AllocationSchema.check(root.strategy, record: record, path: path)
            },
            show: { root, path, record in
                [
                    ConfigShownValue(path: path + ".name", text: root.strategy.name, origin: record.origin(of: path + ".name")),
                    ConfigShownValue(
                        path: path + ".cash", text: cashKind.format(root.strategy.cash), origin: record.origin(of: path + ".cash")),
                    ConfigShownValue(
                        path: path + ".currency", text: root.strategy.currency, origin: record.origin(of: path + ".currency")),
                    ConfigShownValue(
                        path: path + ".allocator", text: allocatorKind.format(root.strategy.allocator),
                        origin: record.origin(of: path + ".allocator")),
                ]
                    + (root.strategy.allocator == nil
                        ? [] : AllocationSchema.schema.show(root.strategy.allocation, path: path + ".allocation", record: record))
                    + root.strategy.choice.shownParameters(path: path + ".parameters", record: record)
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
                        path: path + ".currency",
                        summary: "The account's currency: cash, equity, P&L and reports are in it. An instrument priced in "
                            + "another needs the universe's pair of the two (EUR.USD for ES in an account in EUR), whose "
                            + "prices convert it; live, a pair the universe lacks is watched for its rate alone.",
                        allowed: currencyKind.allowed, defaultText: defaults.strategy.currency, flag: "--currency"),
                    ConfigKeyInfo(
                        path: path + ".allocator",
                        summary: "performance: run the strategy on every symbol in the shadow and move capital to the "
                            + "symbols where it earns (name a per-symbol strategy: \(AllocationSchema.baseStrategies.joined(separator: ", ")); "
                            + "sma-cross when no name is given).", allowed: allocatorKind.allowed,
                        defaultText: allocatorKind.format(defaults.strategy.allocator), flag: "--allocator"),
                    ConfigKeyInfo(
                        path: path + ".allocation", summary: "The performance allocator's settings (with allocator: performance).",
                        allowed: "a mapping", defaultText: "", isSection: true),
                ] + AllocationSchema.schema.describe(defaults.strategy.allocation, path: path + ".allocation") + [
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
    /// Sectors by symbol, for `risk.maxSectorPercentOfEquity` (empty: from the data's sectors.csv, live from the
    /// contract details' industry).
    public var sectors: [String: String] = [:]

    /// Creates the defaults.
    public init() {}

    /// The schema of the section.
    public static var schema: ConfigSection<UniverseSettings> {
        ConfigSection([
            .value(
                "symbols", \.symbols, .symbols,
                summary: "The symbols traded (run: required; backtests: a filter of the data, empty for all).", flag: true),
            .value(
                "sectors", \.sectors, sectorsKind,
                summary: "Sectors by symbol for risk.maxSectorPercentOfEquity, e.g. {AAPL: Technology, XOM: Energy}. "
                    + "Others: backtests from the data's sectors.csv, run from the contract details' industry; a "
                    + "symbol with none is its own bucket."),
        ])
    }

    static var sectorsKind: ConfigKind<[String: String]> {
        let allowed = "a mapping of symbols to sector names, or a .csv file (symbol,sector columns) or .yaml file of one"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                if let text = node.scalar, !node.isNull { return try sectorFile(text, key: key, at: node.origin) }
                guard let entries = node.entries else {
                    if node.isNull { return [:] }
                    throw ConfigError("expected \(allowed), got \(node.shapeDescription)", key: key, at: node.origin)
                }
                var sectors: [String: String] = [:]
                for entry in entries {
                    let entryKey = key + "." + entry.key
                    try ConfigKind<String>.checkSymbol(entry.key, key: entryKey, at: entry.value.origin)
                    let sector = try ConfigKind<String>.text(entry.value, entryKey, expecting: "a sector name")
                    guard !sector.trimmingCharacters(in: .whitespaces).isEmpty else {
                        throw ConfigError("a sector name may not be empty", key: entryKey, at: entry.value.origin)
                    }
                    sectors[entry.key.uppercased()] = sector
                }
                return sectors
            },
            format: { sectors in "{" + sectors.keys.sorted().map { "\($0): \(sectors[$0]!)" }.joined(separator: ", ") + "}" })
    }

    /// A sector map read from a file named in the config (relative to the config's folder): `.csv` with `symbol` and
    /// `sector` columns (`SectorFile`), or `.yaml`/`.yml` holding the same mapping as the inline form.
    static func sectorFile(_ text: String, key: String, at origin: ConfigOrigin) throws(ConfigError) -> [String: String] {
        let path = ConfigPaths.resolve(text, from: origin)
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") {
            do throws(SectorFile.Problem) { return try SectorFile.read(path: path) } catch {
                throw ConfigError(error.description, key: key, at: origin)
            }
        }
        guard lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") else {
            throw ConfigError(
                "'\(text)' is not a sector file: give a .csv file (symbol,sector columns) or a .yaml file (SYMBOL: "
                    + "Sector lines), or write the mapping here", key: key, at: origin)
        }
        guard let data = FileManager.default.contents(atPath: path), let yaml = String(data: data, encoding: .utf8) else {
            throw ConfigError("\(path): cannot read the sector file (it must exist and be UTF-8 text)", key: key, at: origin)
        }
        guard let root = try ConfigText.parse(yaml, path: path) else { return [:] }
        guard root.entries != nil else {
            throw ConfigError("\(path): a sector file holds a mapping of symbols to sectors (AAPL: Technology)",
                              key: key, at: origin)
        }
        return try sectorsKind.read(root, key)
    }
}
