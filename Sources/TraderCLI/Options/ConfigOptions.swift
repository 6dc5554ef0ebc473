import ArgumentParser
import Foundation
import TraderConfig

/// `--config FILE` (repeatable; a later file overrides an earlier one) and `--set KEY=VALUE` (any key).
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "A config file (YAML or JSON; see docs/configuration.md). Repeatable: a later file overrides an earlier one.",
        valueName: "file"))
    var config: [String] = []

    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Set any config key, e.g. --set risk.maxDrawdownPercent=20 or --set strategy.parameters.threshold=2. Repeatable.",
        valueName: "key=value"))
    var assignments: [String] = []

    // An option the command does not take (an old spelling among them) lands here, so its error can give the new
    // name instead of ArgumentParser's bare "unknown option".
    @Argument(parsing: .allUnrecognized, help: .hidden) var unrecognized: [String] = []

    func validate() throws {
        guard let first = unrecognized.first else { return }
        throw ValidationError(
            ConfigRenames.message(
                for: first, keys: ConfigHelp.keys.compactMap { info in info.flag.map { ($0, info.settablePath) } }))
    }

    /// The `--set` assignments as overrides.
    func setOverrides() throws -> [ConfigOverride] {
        try assignments.map { text in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw ValidationError("--set takes KEY=VALUE (e.g. risk.maxDrawdownPercent=20), got '\(text)'")
            }
            let key = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
            return ConfigOverride(
                path: key, value: String(text[text.index(after: equals)...]), flag: "--set \(key)")
        }
    }

    /// Loads the configuration: the files, `.env`, the environment, then `flags` and `--set`.
    /// - Throws: `ConfigError` before anything runs.
    func load(flags: [ConfigOverride], embedded: (text: String, name: String)? = nil) throws -> LoadedConfiguration {
        var sources = ConfigSources(
            files: config, environment: ProcessInfo.processInfo.environment, flags: flags + (try setOverrides()),
            catalog: StrategyCatalogContext.current)
        sources.embedded = embedded
        return try ConfigLoader.load(sources)
    }
}

/// The strategies the running program knows (the built-ins, plus a user package's), for the duration of `main`.
enum StrategyCatalogContext {
    @TaskLocal static var current: StrategyCatalog = .builtIn
}

/// `--host --port --client-id --account` of `run` (and `config show`): the `connection` keys.
struct ConnectionKeyOptions: ParsableArguments {
    @Option(name: .long, help: ConfigHelp.help("connection.host")) var host: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("connection.port")) var port: String?
    @Option(name: .long, parsing: .unconditional, help: ConfigHelp.help("connection.clientId")) var clientId: String?
    @Option(name: .long, help: ConfigHelp.help("connection.account")) var account: String?

    /// The options given, as configuration overrides.
    var overrides: [ConfigOverride] {
        [
            override("connection.host", host), override("connection.port", port),
            override("connection.clientId", clientId), override("connection.account", account),
        ].compactMap { $0 }
    }
}
