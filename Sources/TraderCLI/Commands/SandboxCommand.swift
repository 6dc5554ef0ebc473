import ArgumentParser
import Foundation
import TraderConfig
import TraderKit

/// `ibtrader sandbox`: the bot against the in-process simulator in virtual time, then the drift report.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run the bot of `run` over history at CPU speed against the built-in simulator, then the drift report.",
        discussion: """
            The same configuration and code as `ibtrader run` (client, driver, journal), against the gateway simulator \
            in process, on a clock that jumps ahead whenever the bot waits: an hour of trading takes seconds. \
            Without --config, the bundled example (examples/momentum-paper.yaml). Ends with the run's summary and \
            the drift report against a backtest of the same bars (docs/live-trading.md, Sandbox); exits 1 on drift.
            """
    )

    @OptionGroup var config: ConfigOptions
    @Option(name: .long, help: ConfigHelp.help("strategy.name", valueName: "name")) var strategy: String?
    @Option(name: .long, help: ConfigHelp.help("universe.symbols", valueName: "A,B,…")) var symbols: String?
    @Option(name: .long, help: "The replayed data: bundled:NAME, a folder of bar files or parquet:DIR (a catalogue).")
    var data: String = GatewaySetup.demoData
    @Option(name: .long, help: "Where the replay starts: YYYY-MM-DD (its 09:30 New York open) or a New York time YYYY-MM-DD HH:MM (a trailing Z: UTC); default: the data's, 2011-01-18 15:30 UTC for the demo's.")
    var start: String?
    @Option(name: .long, help: "How long the bot runs, in its own time: 30m, 8h, 5d.")
    var duration: String = "7d"
    @Option(name: .long, help: "The journal to write (a new file; default: one in a temporary folder).")
    var journal: String?
    @Flag(name: .long, help: "Exit 0 on drift (orders that differ are only reported).") var allowDrift = false

    func run() async throws {
        let overrides = [override("strategy.name", strategy), override("universe.symbols", symbols)].compactMap { $0 }
        let embedded = config.config.isEmpty
            ? (BundledRunConfig.text(strategy: strategy), "momentum-paper.yaml (bundled)") : nil
        let loaded = try config.load(flags: overrides, embedded: embedded)
        var options = SandboxJob.Options()
        options.data = data
        options.start = try start.map(GatewaySetup.start)
        options.duration = try LiveConfirmation.duration(duration)
        options.journal = journal
        let logger = try RunLogging.logger(loaded.settings.logging, clock: options.logClock)
        let report = try await SandboxJob.run(loaded, options: options, logger: logger)
        print(report.lines.joined(separator: "\n"))
        if !allowDrift, let failure = report.driftFailure { Terminal.printError(failure); throw ExitCode(1) }
    }
}
