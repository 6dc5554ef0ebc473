import ArgumentParser
import BundledData
import Foundation
import GatewaySimulator
import InteractiveBrokers
import Logging
import ServiceLifecycle
import Storage
import TWSClient
import TradingModel
import UnixSignals

/// `ibtrader run`: the engine against TWS / IB Gateway (paper by default), or against the in-process simulator.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a strategy against TWS / IB Gateway (paper by default) or the built-in simulator.",
        discussion: """
            Reads --config FILE (YAML: connection, universe, strategy, risk, orders, data, journal, logging; every \
            key overridable by IBTRADER_<SECTION>_<KEY>). A live (non-DU) account is refused unless --live is given \
            and confirmed, or --confirm-live ACCOUNT. --simulated starts the gateway simulator in-process on a free \
            loopback port (bundled daily stocks) and, without --config, runs examples/momentum-paper.yaml. \
            Ctrl-C / SIGTERM stop gracefully (a second one: fast stop). See docs/live-trading.md.
            """
    )

    @Option(name: .long, help: "The run's YAML config.")
    var config: String?

    @Flag(name: .long, help: "Run against the in-process gateway simulator (bundled daily stocks).")
    var simulated = false

    @Option(name: .long, help: "Simulator replay speed: data seconds per wall second, or 'max'.")
    var speed: String = "10"

    @Option(name: .long, help: "The simulator's account code (try U1234567 to see a live account refused).")
    var simulatedAccount: String = "DU1234567"

    @Option(name: .long, help: "Stop after this long (e.g. 60s, 5m, 2h).")
    var duration: String?

    @Flag(name: .long, help: "Allow a live (non-paper) account after an interactive confirmation.")
    var live = false

    @Option(name: .long, help: "Trade this live account without asking (unattended use).")
    var confirmLive: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var settings: RunSettings
        if let config {
            settings = try await RunSettings.load(file: config, environment: environment)
        } else if simulated {
            settings = try RunSettings.load(
                text: RunCommand.defaultConfig, source: "examples/momentum-paper.yaml (bundled)",
                baseDirectory: FileManager.default.temporaryDirectory
                    .appendingPathComponent("ibtrader-run-\(ProcessInfo.processInfo.processIdentifier)"),
                environment: environment)
        } else {
            throw ValidationError("give --config FILE, or --simulated to try the bundled example against the simulator")
        }
        let bound = try duration.map(Self.parseDuration)
        let logger = try makeLogger(settings)
        if simulated {
            let speedValue = try Self.parseSpeed(speed)
            let data: MarketDataSet
            do { data = try MarketDataSet.bundled(.stocksUnadjusted) } catch { throw CLIError("\(error)") }
            var gatewayLogger = Logger(label: "ibtrader.gateway")
            gatewayLogger.logLevel = .warning
            let simulator = GatewaySimulator(
                configuration: GatewaySimulatorConfiguration(
                    host: "127.0.0.1", port: 0, data: data,
                    gateway: GatewayConfiguration(accountCode: simulatedAccount), start: data.defaultStart + .seconds(3600),
                    clock: .speed(speedValue)),
                logger: gatewayLogger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await simulator.run() }
                let port = await simulator.listeningPort()
                logger.notice("simulator listening on 127.0.0.1:\(port), replay x\(speedValue), bundled stocks")
                settings.host = "127.0.0.1"
                settings.port = port
                try await runLive(settings, duration: bound, logger: logger)
                group.cancelAll()
            }
        } else {
            try await runLive(settings, duration: bound, logger: logger)
        }
    }

    private func runLive(_ settings: RunSettings, duration: Duration?, logger: Logger) async throws {
        var connection = TWSConnectionConfiguration(host: settings.host, port: settings.port, clientID: settings.clientID)
        connection.readyTimeout = .seconds(20)
        var configuration = LiveRunnerConfiguration(
            connection: connection, symbols: settings.symbols.map { Symbol($0) }, engine: settings.engineConfig)
        configuration.account = settings.account
        configuration.warmupBarSize = settings.barSize
        configuration.warmupDuration = settings.warmup
        configuration.marketDataType = settings.marketDataType == "realtime" ? nil : settings.twsMarketDataType
        configuration.outsideRegularTradingHours = settings.outsideRth
        configuration.cancelOnExit = settings.cancelOnExit
        configuration.orderEfficiency = settings.orderEfficiency
        configuration.summaryInterval = .milliseconds(Int64(settings.summaryInterval * 1000))
        configuration.duration = duration
        configuration.orderTimeout = settings.orderTimeout.map { .milliseconds(Int64($0 * 1000)) }
        configuration.resilience = settings.resilience
        configuration.quotes = settings.quotes
        configuration.busyPolls = settings.busyPoll
        configuration.busyPollCPU = settings.busyPollCPU
        configuration.keepWarmInterval = settings.keepWarm ? .milliseconds(1) : nil
        // orderRefs: the runner allocates the run's namespace (IBT:R<run>: from the journal) at start.
        configuration.resendPolicy = settings.resendPolicy
        configuration.unknownOrders = settings.unknownOrders == "cancel" ? .cancel : .adopt
        do {  // test-only crash hook, read once here
            configuration.crashPoint = try CrashPoint.from(environment: ProcessInfo.processInfo.environment)
        } catch { throw CLIError(error.description) }
        if let path = settings.journalPath {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            // Manual checkpoints: the journal's own thread checkpoints every second (JournalCheckpointer), never inside
            // an intent's commit. NORMAL (the default) survives a kill -9 at once and reaches the disk at that
            // checkpoint (docs/live-trading.md, Journal).
            let durability: OrderJournal.Durability = settings.journalDurability == "full" ? .full : .processCrashSafe
            do {
                configuration.journal = try OrderJournal(path: path, durability: durability, checkpoints: .manual)
            } catch {
                throw CLIError("\(settings.source): 'journal.path': \(error)")
            }
            logger.info("journal: \(path)")
        }
        // Held for the whole run (released when `wakeLatency` goes out of scope, or by the process exit).
        var wakeLatency: CPUWakeLatencyRequest?
        if let microseconds = settings.cpuWakeLatency {
            do {
                wakeLatency = try CPUWakeLatencyRequest(microseconds: Int32(microseconds))
                logger.notice("CPU wake-up latency held at ≤ \(microseconds) µs (/dev/cpu_dma_latency) while running")
            } catch {
                logger.warning("latency.cpuWakeLatency not applied: \(error)")
            }
        }
        defer { wakeLatency?.release() }
        configuration.confirmedLiveAccount = confirmLive
        if live, confirmLive == nil {
            configuration.confirmedLiveAccount = try await askLiveConfirmation(connection, account: settings.account)
        }
        var service = LiveRunnerService(spec: try settings.strategySpec(), configuration: configuration, logger: logger)
        // Ctrl-C / SIGTERM: graceful shutdown (the runner's stop); the same signal again during the stop: fast stop.
        service.escalationSignals = [.sigterm, .sigint]
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
            guard let summary = service.summary else { throw CLIError("the run ended without a summary") }
            let positions = summary.brokerPositions.filter { $0.value != .zero }
                .map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
            print(
                "run ended (\(summary.stopReason)): account \(summary.account), \(summary.bars) bars after "
                    + "\(summary.warmupBars) warm-up bars, \(summary.commands) orders/cancels, \(summary.fills) fills, "
                    + "\(summary.denials) risk denials, realized P&L \(summary.realizedPnL.centsDescription) before "
                    + "commissions; broker positions: [\(positions)]")
        } catch let error as LiveRunnerError {
            throw CLIError(error.description)
        }
    }

    /// Asks the operator to type the live account's code.
    private func askLiveConfirmation(_ connection: TWSConnectionConfiguration, account: String?) async throws -> String? {
        let managed = try await TWSConnection.connect(connection) { _, session in session.accounts }
        let target = account ?? managed.first ?? ""
        guard !target.hasPrefix("DU") else { return nil }
        FileHandle.standardError.write(Data("LIVE account \(target): real money. Type the account code to trade it: ".utf8))
        guard let answer = readLine()?.trimmingCharacters(in: .whitespaces), answer == target else {
            throw CLIError("live trading of \(target) not confirmed; nothing was sent")
        }
        return target
    }

    private func makeLogger(_ settings: RunSettings) throws -> Logger {
        let level = Logger.Level(rawValue: settings.logLevel) ?? .info
        var fileHandler: FileLogHandler?
        if let path = settings.logFile {
            fileHandler = try FileLogHandler(path: path, label: "ibtrader.run")
        }
        var logger = Logger(label: "ibtrader.run") { label in
            let console = StreamLogHandler.standardError(label: label)
            guard let fileHandler else { return console }
            return MultiplexLogHandler([console, fileHandler])
        }
        logger.logLevel = level
        return logger
    }

    /// `60s`, `5m`, `2h`, or seconds.
    static func parseDuration(_ text: String) throws -> Duration {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            if let value = Double(text.dropLast(suffix.count)), value > 0 {
                return .milliseconds(Int64(value * factor * 1000))
            }
        }
        if let value = Double(text), value > 0 { return .milliseconds(Int64(value * 1000)) }
        throw ValidationError("--duration must look like 60s, 5m or 2h, got '\(text)'")
    }

    /// A replay multiplier, or `max`.
    static func parseSpeed(_ text: String) throws -> Double {
        if text == "max" { return 10_000 }
        guard let value = Double(text), value > 0, value <= 1_000_000 else {
            throw ValidationError("--speed must be a number in (0, 1000000] or 'max', got '\(text)'")
        }
        return value
    }
}

/// Appends log lines to a file; at `maxBytes` the file is renamed to `<path>.1` (replacing the previous one) and a
/// new file is started.
struct FileLogHandler: LogHandler {
    final class Sink: @unchecked Sendable {
        let path: String
        let maxBytes: UInt64
        let lock = NSLock()
        var handle: FileHandle
        var written: UInt64

        init(path: String, maxBytes: UInt64) throws {
            self.path = path
            self.maxBytes = maxBytes
            (handle, written) = try Self.open(path)
        }

        static func open(_ path: String) throws -> (FileHandle, UInt64) {
            if !FileManager.default.fileExists(atPath: path) {
                try FileManager.default.createDirectory(
                    at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: path, contents: nil)
            }
            guard let handle = FileHandle(forWritingAtPath: path) else { throw CLIError("cannot open log file '\(path)'") }
            return (handle, handle.seekToEndOfFile())
        }

        func write(_ line: String) {
            lock.withLock {
                let data = Data(line.utf8)
                handle.write(data)
                written += UInt64(data.count)
                guard written >= maxBytes else { return }
                try? handle.close()
                let old = path + ".1"
                try? FileManager.default.removeItem(atPath: old)
                try? FileManager.default.moveItem(atPath: path, toPath: old)
                if let (next, size) = try? Self.open(path) {
                    handle = next
                    written = size
                }
            }
        }
    }

    let sink: Sink
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    init(path: String, label: String, maxBytes: UInt64 = 10_000_000) throws {
        sink = try Sink(path: path, maxBytes: maxBytes)
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let time = ISO8601DateFormatter().string(from: Date())
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let tail = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        sink.write("\(time) \(event.level) \(label): \(event.message)\(tail)\n")
    }
}
