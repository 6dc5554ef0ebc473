import ArgumentParser
import Foundation
import GatewayCore
import InteractiveBrokers
import Logging
import TraderConfig
import TraderKit
import TradingModel
import TWSClient

/// `ibtrader run`: the engine against TWS / IB Gateway (paper by default), or against the in-process simulator.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a strategy against TWS / IB Gateway (paper by default) or the built-in simulator.",
        discussion: """
            Reads --config FILE (docs/configuration.md; every key overridable by IBTRADER_<SECTION>_<KEY>, a .env \
            file next to the config, or a flag) and checks all of it before connecting. A live (non-DU) account is \
            refused unless --live is given and confirmed, or --confirm-live ACCOUNT. --simulated starts the gateway \
            simulator in-process on a free loopback port (bundled 1-minute stocks) and, without --config, runs \
            examples/momentum-paper.yaml. Ctrl-C / SIGTERM stop gracefully (a second one: fast stop). See \
            docs/live-trading.md.
            """
    )

    @OptionGroup var config: ConfigOptions
    @Option(name: .long, help: ConfigHelp.help("strategy.name", valueName: "name")) var strategy: String?
    @Option(name: .long, help: ConfigHelp.help("universe.symbols", valueName: "A,B,…")) var symbols: String?
    @OptionGroup var connection: ConnectionKeyOptions

    @Flag(name: .long, help: "Run against the in-process gateway simulator (bundled 1-minute stocks).")
    var simulated = false
    @Option(name: .long, help: "Simulator replay speed: data seconds per wall second (up to 1000000), or 'max'.")
    var speed: String = "10"
    @Option(name: .long, help: "The simulator's account code (try U1234567 to see a live account refused).")
    var simulatedAccount: String = "DU1234567"
    @Option(name: .long, help: "Stop after this long (30s, 5m, 2h, 1d; at most 365d).") var duration: String?
    @Flag(name: .long, help: "Allow a live (non-paper) account after an interactive confirmation.") var live = false
    @Option(name: .long, help: "Trade this live account without asking (unattended use).") var confirmLive: String?
    @Flag(name: .long, help: "Run without a journal; the config must say journal: none too (never for a live account).")
    var noJournal = false

    func validate() throws {
        if config.config.isEmpty, !simulated {
            throw ValidationError("give --config FILE, or --simulated to try the bundled example against the simulator")
        }
    }

    func run() async throws {
        let overrides = [override("strategy.name", strategy), override("universe.symbols", symbols)].compactMap { $0 }
            + connection.overrides
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("ibtrader-run-\(ProcessInfo.processInfo.processIdentifier)")
        let embedded = config.config.isEmpty
            ? (BundledRunConfig.text(strategy: strategy), scratch.appendingPathComponent("momentum-paper.yaml (bundled)").path) : nil
        let loaded = try config.load(flags: overrides, embedded: embedded)
        var options = LiveRunOptions()
        options.duration = try duration.map(LiveConfirmation.duration)
        options.confirmedLiveAccount = confirmLive
        options.asksForLiveConfirmation = live
        options.allowsNoJournal = noJournal
        do { options.crashPoint = try CrashPoint.from(environment: ProcessInfo.processInfo.environment) } catch {
            throw CLIError(error.description)
        }
        let logger = try RunLogging.logger(loaded.settings.logging)
        // Everything is checked (and the journal opened) before connecting; with --simulated, before the simulator.
        let configuration = try LiveRunSetup.configuration(for: loaded, options: options)
        let strategy = loaded.settings.strategy
        let surface = try OperatorSetup(loaded, journal: configuration.journal?.path, logger: logger, simulated: simulated)
        guard simulated else {
            try await runLive(configuration, strategy: strategy, logger: logger, surface: surface)
            return
        }
        let (rule, cash) = (loaded.settings.fundsRule, loaded.settings.strategy.cash)  // the account the backtest's is
        try await GatewaySetup.withSimulated(account: simulatedAccount, speed: try LiveConfirmation.speed(speed), buyingPower: rule, cash: cash, logger: logger) { port in
            var configuration = configuration
            (configuration.connection.host, configuration.connection.port) = ("127.0.0.1", port)
            try await runLive(configuration, strategy: strategy, logger: logger, surface: surface)
        }
    }

    private func runLive(
        _ configuration: LiveRunnerConfiguration, strategy: StrategySettings, logger: Logger, surface: OperatorSetup
    ) async throws {
        var configuration = configuration
        if live, confirmLive == nil {
            configuration.session.confirmedLiveAccount = try await LiveConfirmation.ask(
                connection: configuration.connection, account: configuration.session.account)
        }
        let summary = try await LiveRunService.run(configuration, strategy: strategy, logger: logger, surface: surface)
        print(summary.endText(journal: configuration.journal?.path, simulatedBroker: simulated))
    }
}
