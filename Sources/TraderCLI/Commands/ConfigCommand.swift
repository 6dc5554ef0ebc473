import ArgumentParser
import Foundation
import TraderConfig
import TraderKit

/// `ibtrader config init|check|show|docs`: write, validate and explain configuration files.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Write a commented config, check one, or show every effective value with its source.",
        discussion: "The keys, defaults and ranges: docs/configuration.md (`ibtrader config docs` prints it).",
        subcommands: [ConfigInit.self, ConfigCheck.self, ConfigShow.self, ConfigDocs.self]
    )
}

/// `ibtrader config init [--strategy NAME] [--out FILE]`.
struct ConfigInit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Write a commented template with every key and its default.")

    @Option(name: .long, help: "The strategy whose parameters the template lists (default momentum).")
    var strategy = "momentum"
    @Option(name: .long, help: "Write the template to this file (default: standard output; an existing file is kept).")
    var out: String?

    func run() throws {
        print(try ConfigInitJob.run(strategy: strategy, out: out, catalog: StrategyCatalogContext.current), terminator: "")
    }
}

/// `ibtrader config check FILE… [--for run]`.
struct ConfigCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate config files (layered in order, with the environment) and print what they set.",
        discussion: "Exits non-zero with file:line:column, the key and what is allowed at the first problem.")

    @Argument(help: "Config files (YAML or JSON); a later file overrides an earlier one.") var files: [String]
    @Option(name: .customLong("for"), help: "Also check what this command needs: run (symbols, a journal).")
    var command: String?
    @Flag(name: .long, help: "Print nothing when the files are valid.") var quiet = false
    @Flag(name: .long, help: "Print every key with its source, defaults included.") var all = false

    func validate() throws {
        if let command, command != "run" { throw ValidationError("--for takes run, got '\(command)'") }
    }

    func run() throws {
        let loaded = try ConfigLoader.load(ConfigSources(
            files: files, environment: ProcessInfo.processInfo.environment, catalog: StrategyCatalogContext.current))
        if command == "run" { try loaded.settings.checkRunnable(record: loaded.record) }
        guard !quiet else { return }
        print(ConfigRendering.check(loaded, files: files, all: all), terminator: "")
    }
}

/// `ibtrader config show [--config FILE]… [flags]`.
struct ConfigShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print every effective value with its source: default, file, env or flag.",
        discussion: "The output is itself a valid config. Takes the flags of run, backtest, optimize and walkforward.")

    @OptionGroup var config: ConfigOptions
    @OptionGroup var strategy: StrategyOptions
    @OptionGroup var data: BacktestDataOptions
    @OptionGroup var risk: RiskOptions
    @OptionGroup var sweep: SweepOptions
    @OptionGroup var windows: WalkforwardOptions
    @OptionGroup var connection: ConnectionKeyOptions

    func run() throws {
        let loaded = try config.load(
            flags: strategy.overrides + data.overrides + risk.overrides + sweep.overrides + windows.overrides
                + connection.overrides)
        print(ConfigRendering.show(loaded), terminator: "")
    }
}

/// `ibtrader config docs`: docs/configuration.md, generated from the schema.
struct ConfigDocs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docs", abstract: "Print the configuration reference (docs/configuration.md) from the schema.")

    func run() throws {
        print(ConfigDocumentation.markdown(catalog: StrategyCatalogContext.current), terminator: "")
    }
}
