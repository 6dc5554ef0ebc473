import Foundation
import GatewayCore
import GatewaySimulator
import InteractiveBrokers
import LiveSession
import Logging
import SimulatedVenue
import Storage
import TraderConfig
import TradingModel

/// What `ibtrader sandbox` does: the bot of `ibtrader run` (the same configuration, the same code: client, driver,
/// session core, journal) against the in-process gateway simulator in virtual time, where the clock jumps to the
/// next timer whenever the bot waits; then the drift report against a plain backtest of the bars it traded on.
///
/// The replay moves at speed 1 on the virtual clock (a 5-second step every 5 virtual seconds), so every timer of the
/// bot (order timeouts, the position check, the journal's checkpoints) runs as it would live; a week of it takes
/// the CPU time its work takes.
public enum SandboxJob {
    /// What the command line chooses.
    public struct Options: Sendable {
        /// The replayed data (`bundled:NAME`, a folder of bar files).
        public var data = GatewaySetup.demoData
        /// Where the replay starts (`nil`: the demo's start for its data, else the data set's default start).
        public var start: Timestamp?
        /// How much time the bot runs for.
        public var duration: Duration = .seconds(7 * 86_400)
        /// The journal to write (`nil`: a new one in a temporary folder). Must not exist yet.
        public var journal: String?
        /// The clock to stamp the run's log lines with (`RunLogging.logger(clock:)`): it follows the bot's once the
        /// run starts.
        public var logClock = LogClock()

        /// The defaults: a week of `run --simulated`'s data from its start.
        public init() {}
    }

    /// What a sandbox run did.
    public struct Report: Sendable {
        /// The bot's summary, as `ibtrader run` ends with.
        public var summary: LiveRunSummary
        /// The journal written.
        public var journal: String
        /// The drift report, or why there is none (a user's own strategy).
        public var drift: Result<DriftJob.Report, TraderError>
        /// The bot's time and the wall time it took.
        public var simulated: Duration
        public var wall: Duration
        /// The replay's span.
        public var from: Timestamp
        public var to: Timestamp

        /// `2d 3h 0m 5s`.
        static func text(_ duration: Duration) -> String {
            let seconds = Int(duration.components.seconds)
            let parts = [(seconds / 86_400, "d"), (seconds / 3600 % 24, "h"), (seconds / 60 % 60, "m"), (seconds % 60, "s")]
            let shown = parts.drop { $0.0 == 0 }
            return shown.isEmpty ? "0s" : shown.map { "\($0.0)\($0.1)" }.joined(separator: " ")
        }

        /// Drift as an error line, `nil` when every order is the backtest's or there is no drift report (a user's
        /// own strategy): `ibtrader sandbox` exits 1 with it unless `--allow-drift`, so a script or CI sees drift.
        public var driftFailure: String? {
            guard case .success(let drift) = drift, !drift.differences.isEmpty else { return nil }
            return "error: \(drift.differences.count) orders differ between the bot and the backtest (drift; "
                + "--allow-drift only reports it)"
        }

        /// The report's lines.
        public var lines: [String] {
            var lines = [
                String(
                    format: "sandbox: %@ of the bot's time (%@ to %@) in %.1f s of wall time", Self.text(simulated),
                    "\(from)", "\(to)", wall.secondsValue),
                summary.endText(journal: journal, simulatedBroker: true),
            ]
            switch drift {
            case .success(let report): lines += report.lines
            case .failure(let error): lines.append("no drift report: \(error)")
            }
            return lines
        }
    }

    /// Runs the configured bot in the sandbox.
    /// - Throws: `TraderError` for data or a journal that cannot be used, or a run that could not start.
    /// Every symbol of the universe is one the data serves (matched by instrument: `ES 2013-12` is `ESZ2013`), so a
    /// universe that does not fit the data is said before the bot asks the simulator for contracts it does not know.
    /// - Throws: `TraderError` naming the symbols missing and what the data holds.
    static func checkSymbols(_ symbols: [String], servedBy data: MarketDataSet, argument: String) throws(TraderError) {
        let served = Set(data.instruments.map { InstrumentKind.canonicalName(of: $0.symbol) })
        // A continuous future (`ES continuous`) is served by its contract months.
        let roots = Set(data.instruments.compactMap { instrument -> String? in
            guard case let .future(future) = InstrumentKind(symbol: Symbol(instrument.symbol)), future.month != nil else {
                return nil
            }
            return future.spec.root
        })
        let absent = symbols.filter { name in
            if case let .future(future) = InstrumentKind(symbol: Symbol(name)), future.month == nil {
                return !roots.contains(future.spec.root)
            }
            return !served.contains(InstrumentKind.canonicalName(of: name))
        }
        guard !absent.isEmpty else { return }
        let names = data.instruments.prefix(8).map(\.symbol).joined(separator: ", ")
        throw TraderError(
            "universe.symbols (--symbols): \(absent.joined(separator: ", ")) not in --data \(argument), which serves "
                + "\(names)\(data.instruments.count > 8 ? ", …" : "")")
    }

    public static func run(_ loaded: LoadedConfiguration, options: Options, logger: Logger) async throws -> Report {
        try loaded.settings.checkRunnable(record: loaded.record)  // what `run` refuses, the sandbox refuses
        let data = try GatewaySetup.data(options.data, synthetic: nil, seed: 0)
        try Self.checkSymbols(loaded.settings.universe.symbols, servedBy: data, argument: options.data)
        if let given = options.start { try GatewaySetup.check(start: given, within: data) }
        let start = options.start ?? (options.data == GatewaySetup.demoData ? GatewaySetup.demoStart : data.defaultStart)
        let path = options.journal ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("ibtrader-sandbox-\(ProcessInfo.processInfo.processIdentifier)")
            .appendingPathComponent("journal.sqlite").path
        guard !FileManager.default.fileExists(atPath: path) else {
            throw TraderError("the journal \(path) exists: the sandbox writes a new one (give another --journal)")
        }
        let journal: OrderJournal
        do {
            // No sync per commit: the sandbox kills no process, and it runs at CPU speed.
            journal = try OrderJournal(path: path, durability: .processCrashSafe)
        } catch {
            throw TraderError("\(error)")
        }
        let strategy = loaded.settings.strategy
        var configuration = LiveRunSetup.runner(loaded.settings, options: LiveRunOptions())
        configuration.journal = journal
        configuration.duration = options.duration
        // Hours of the bot's time go by in seconds here: its summary is logged every hour of that time, not every
        // `logging.summaryInterval` (30 s: 5,760 lines in a two-day run); the summary itself runs as configured.
        configuration.session.summaryLogInterval = .seconds(3_600)
        // The simulated account holds the bot's capital (`strategy.cash`) in its currency, and is the kind the
        // configuration names: a fill that capital cannot pay is cut alike here and in the backtest (a million in the
        // account, as before, paid what the backtest cut).
        var gateway = GatewayConfiguration(startingCash: strategy.cash)
        gateway.simulation.buyingPower = loaded.settings.fundsRule
        gateway.baseCurrency = (try? GatewaySetup.baseCurrency(strategy.currency, flag: "strategy.currency", data: data)) ?? "USD"
        let simulator = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: data, gateway: gateway, start: start, clock: .speed(1, tick: 5))
        let wall = ContinuousClock()
        let began = wall.now
        let prepared = configuration
        let (summary, simulated) = try await VirtualVenue.run(
            simulator: simulator, timeLimit: options.duration + .seconds(86_400)
        ) { venue in
            var configuration = prepared
            venue.attach(&configuration)
            options.logClock.follow(configuration.clock.now)
            let summary: LiveRunSummary
            if let spec = strategy.spec {
                summary = try await LiveRunner.run(spec: spec, configuration: configuration, logger: logger)
            } else {
                let service = strategy.runner.liveService(configuration, logger)
                try await service.run()
                guard let result = service.summary else { throw TraderError("the run ended without a summary") }
                summary = result
            }
            return (summary, venue.elapsed)
        }
        let drift: Result<DriftJob.Report, TraderError>
        do { drift = .success(try DriftJob.report(journal: path, session: nil)) } catch { drift = .failure(error) }
        return Report(
            summary: summary, journal: path, drift: drift, simulated: simulated, wall: wall.now - began,
            from: start, to: start + TimeSpan(simulated))
    }
}
