import Foundation

/// What a configuration is made of, in rising precedence: the schema's defaults, the files (a later file over an
/// earlier one), the `.env` file next to the first file, the process environment, then the flags.
public struct ConfigSources: Sendable {
    /// Config files (YAML or JSON).
    public var files: [String] = []
    /// A config given as text instead of a file (the bundled example): its text and the name errors use.
    public var embedded: (text: String, name: String)?
    /// The process environment.
    public var environment: [String: String] = [:]
    /// Values from flags, applied last.
    public var flags: [ConfigOverride] = []
    /// The strategies known by name.
    public var catalog: StrategyCatalog = .builtIn
    /// Read `.env` next to the first file.
    public var readsDotEnv = true

    /// Sources with nothing but defaults.
    public init() {}

    /// Sources of these files, environment and flags.
    public init(
        files: [String], environment: [String: String] = [:], flags: [ConfigOverride] = [],
        catalog: StrategyCatalog = .builtIn
    ) {
        self.files = files
        self.environment = environment
        self.flags = flags
        self.catalog = catalog
    }
}

/// A key set on the command line.
public struct ConfigOverride: Sendable, Hashable {
    /// The key path (`connection.port`).
    public var path: String
    /// The value as typed.
    public var value: String
    /// The flag, as typed (`--port`), named in errors and by `config show`.
    public var flag: String

    /// An override.
    public init(path: String, value: String, flag: String) {
        self.path = path
        self.value = value
        self.flag = flag
    }
}

/// A decoded configuration with where each value came from.
public struct LoadedConfiguration: Sendable {
    /// The settings.
    public var settings: TraderConfiguration
    /// Origins by key path.
    public var record: ConfigRecord
    /// The files read, in order.
    public var files: [String]
    /// The strategies known by name.
    public var catalog: StrategyCatalog
    /// What it was loaded from (files, environment, flags): a running bot's `reload` reads them again.
    public var sources: ConfigSources?

    /// Every effective value with its origin, in schema order; risk limits the strategy implies
    /// (`RiskSettings.profile(for:)`) are shown with their reason.
    public var shownValues: [ConfigShownValue] {
        let profile = settings.risk.profile(for: settings.strategy.spec)
        let risk = RiskSettings.schema.show(
            RiskSettings(limits: profile.config, from: settings.risk), path: "risk", record: record)
        return TraderConfiguration.schema(catalog: catalog).show(settings, path: "", record: record).map { value in
            guard value.path.hasPrefix("risk."), let reason = profile.defaultReasons[String(value.path.dropFirst(5))],
                let shown = risk.first(where: { $0.path == value.path })
            else {
                return value
            }
            return ConfigShownValue(path: value.path, text: shown.text, origin: .derived(reason))
        }
    }

    /// The origin of a key's value.
    public func origin(of path: String) -> ConfigOrigin { record.origin(of: path) }
}

/// Reads, layers and checks a configuration; nothing runs before it succeeds.
///
/// ```swift
/// let loaded = try ConfigLoader.load(ConfigSources(files: ["bot.yaml"], environment: ProcessInfo.processInfo.environment))
/// loaded.settings.connection.port
/// ```
public enum ConfigLoader {
    /// Loads and checks a configuration.
    /// - Throws: `ConfigError` naming the file, line and column (or the variable, or the flag), the key and what
    ///   is allowed.
    public static func load(_ sources: ConfigSources) throws(ConfigError) -> LoadedConfiguration {
        var tree = ConfigNode.emptyMapping(origin: .defaultValue)
        for file in sources.files {
            if let node = try ConfigText.parse(try readFile(file), path: file) { tree = try merge(tree, node) }
        }
        if let embedded = sources.embedded, let node = try ConfigText.parse(embedded.text, path: embedded.name) {
            tree = try merge(tree, node)
        }
        let variables = try environmentVariables(sources)
        // Environment keys depend on the strategy (its parameters): find its name from every layer first.
        var strategyName = sources.catalog.entry(named: "momentum") != nil ? "momentum" : sources.catalog.names.first ?? ""
        var named = false
        if let name = tree["strategy"]?["name"]?.scalar { (strategyName, named) = (name, true) }
        if let name = variables.last(where: { EnvironmentOverrides.fold($0.name) == "IBTRADERSTRATEGYNAME" }) {
            (strategyName, named) = (name.value, true)
        }
        if let flag = sources.flags.last(where: { $0.path == "strategy.name" }) { (strategyName, named) = (flag.value, true) }
        // The performance allocator without a name runs sma-cross on each symbol (StrategySettings).
        let allocated = tree["strategy"]?["allocator"] != nil
            || variables.contains { EnvironmentOverrides.fold($0.name) == "IBTRADERSTRATEGYALLOCATOR" }
            || sources.flags.contains { $0.path == "strategy.allocator" }
        if !named, allocated, strategyName == "momentum", sources.catalog.entry(named: "sma-cross") != nil {
            strategyName = "sma-cross"
        }
        var keys = TraderConfiguration.schema(catalog: sources.catalog).describe(
            TraderConfiguration(catalog: sources.catalog), path: "")
        keys += sources.catalog.entry(named: strategyName)?.describe(path: "strategy.parameters") ?? []
        for (path, node) in try EnvironmentOverrides.overrides(variables, keys: keys) {
            tree = tree.setting(path.split(separator: ".").map(String.init)[...], to: node)
        }
        for flag in sources.flags {
            let node = try ConfigText.value(flag.value, origin: .flag(flag.flag))
            tree = tree.setting(flag.path.split(separator: ".").map(String.init)[...], to: node)
        }
        var settings = TraderConfiguration(catalog: sources.catalog)
        var record = ConfigRecord()
        try TraderConfiguration.schema(catalog: sources.catalog).decode(tree, into: &settings, path: "", record: &record)
        if record.origins["journal.path"] == nil, let path = settings.journal.path {
            // The default journal sits next to the config file it belongs to.
            let file = sources.files.first ?? sources.embedded?.name
            let base: ConfigOrigin = file.map { .file(path: $0, line: 1, column: 1) } ?? .defaultValue
            settings.journal.path = ConfigPaths.resolve(path, from: base)
        }
        return LoadedConfiguration(
            settings: settings, record: record, files: sources.files, catalog: sources.catalog, sources: sources)
    }

    private static func merge(_ tree: ConfigNode, _ node: ConfigNode) throws(ConfigError) -> ConfigNode {
        guard node.entries != nil else {
            throw ConfigError(
                "the top level must be a mapping of sections (\(TraderConfiguration.sections.joined(separator: ", ")))",
                at: node.origin)
        }
        return tree.merging(node)
    }

    private static func readFile(_ path: String) throws(ConfigError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read as UTF-8 text" : "no such file"
            throw ConfigError("\(path): \(reason)")
        }
    }

    private static func environmentVariables(_ sources: ConfigSources) throws(ConfigError) -> [EnvironmentOverrides.Variable] {
        var variables: [String: EnvironmentOverrides.Variable] = [:]
        if sources.readsDotEnv, let first = sources.files.first {
            let path = URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent(".env").path
            if FileManager.default.fileExists(atPath: path) {
                for variable in try DotEnvFile(text: try readFile(path), path: path).variables {
                    variables[variable.name] = .init(
                        name: variable.name, value: variable.value,
                        origin: .environment(name: variable.name, dotEnv: "\(path):\(variable.line)"))
                }
            }
        }
        for (name, value) in sources.environment where name.hasPrefix("IBTRADER_") {
            variables[name] = .init(name: name, value: value, origin: .environment(name: name, dotEnv: nil))
        }
        return Array(variables.values)
    }
}
