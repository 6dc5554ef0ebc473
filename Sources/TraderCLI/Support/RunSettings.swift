import Configuration
import Foundation
import InteractiveBrokers
import TWSClient
import TradingEngine
import TradingModel
import Yams

/// `ibtrader run --config FILE`: the sections and keys of a live/paper run, read with swift-configuration from YAML,
/// under `IBTRADER_<SECTION>_<KEY>` environment variables (`connection.port` ← `IBTRADER_CONNECTION_PORT`; camelCase
/// keys in snake case, `IBTRADER_ORDERS_CANCEL_ON_EXIT`, or run together, `IBTRADER_ORDERS_CANCELONEXIT`). Relative
/// paths resolve against the file's folder. Every error names the key and where its value came from (the file, or
/// the environment variable). See `RunConfigValues` for the layers and `RunConfigDocument` for the checks of our own.
struct RunSettings {
    var host = "127.0.0.1"
    var port = 7497
    var clientID = 7
    var account: String?
    var symbols: [String] = []
    var strategy = "momentum"
    var cash: Double = 100_000
    var parameters: Node?
    /// `strategy.allocator` (`performance`) and `strategy.allocation` (`PerformanceAllocatorConfig` keys).
    var allocator: String?
    var allocation: Node?
    var risk = RiskConfig()
    /// `risk.maxOrderEfficiencyRatio` / `risk.orderEfficiencyMinimumOrders`: the broker's order-efficiency limit.
    var orderEfficiency: OrderEfficiencyLimit?
    var orderTimeout: Double?
    var outsideRth = false
    var cancelOnExit = true
    /// `orders.resendMaxAge` (s): an intent journaled but never sent is resent at restart only when younger (0: never).
    var resendMaxAge: Double = 300
    /// `orders.unknownOrders`: orders of ours at the broker that no journal intent knows are adopted or cancelled.
    var unknownOrders = "adopt"
    var barSize = "5 secs"
    var warmup = "3600 S"
    var marketDataType = "realtime"
    var delayedFallback = true
    /// `data.quotes`: auto (as the strategy asks) | on | off.
    var quotes = QuoteSubscriptionMode.auto
    // Outages (issue 5, resilience): 1100 grace period, IB's reset window, bar back-fill.
    var gracePeriod: Double = 30
    /// `connection.heartbeat`: seconds of silence before a reqCurrentTime probe (0: off); its answer timeout.
    var heartbeat: Double = 30
    var heartbeatTimeout: Double = 10
    /// `health.stuckLoopTimeout`: seconds without an input taken by the event loop before a critical ALERT (0: off).
    var stuckLoopTimeout: Double = 30
    /// `latency.cpuWakeLatency`: µs asked of the kernel as the longest CPU wake-up while the bot runs
    /// (`/dev/cpu_dma_latency`; `nil`: not asked). Opt-in: idle CPUs then spin.
    var cpuWakeLatency: Int?
    /// `latency.busyPoll`: the session thread never sleeps and polls the socket (one CPU at 100 %; opt-in).
    var busyPoll = false
    /// `latency.busyPollCPU`: the CPU the busy-polling thread is pinned to (Linux; `nil`: not pinned).
    var busyPollCPU: Int?
    /// `latency.keepWarm`: with `busyPoll`, rehearse the bar → order path every millisecond of quiet.
    var keepWarm = false
    var resetWindow = "23:45-00:45"
    var resetTimeZone = "America/New_York"
    var resetDays: [String] = ["sunday"]
    var backfill = true
    var maxBackfill: Double = 21_600
    var journalPath: String?
    /// `journal.durability`: `normal` (default: no fsync per commit, crash-safe at once, on disk within the runner's
    /// 1-second checkpoint) or `full` (an fsync per commit: power-loss safe at once, ~200 µs per order group).
    var journalDurability = "normal"
    var logLevel = "info"
    var logFile: String?
    var summaryInterval: Double = 30
    /// Where the settings came from (the file path, or the bundled default's name).
    var source = ""

    /// The keys of each section (the risk section's are `RiskConfig`'s).
    static let keys: [String: [String]] = [
        "connection": [
            "host", "port", "clientId", "account", "gracePeriod", "heartbeat", "heartbeatTimeout", "resetWindow",
            "resetTimeZone", "resetDays",
        ],
        "health": ["stuckLoopTimeout"],
        "latency": ["cpuWakeLatency", "busyPoll", "busyPollCPU", "keepWarm"],
        "universe": ["symbols"],
        "strategy": ["name", "cash", "parameters", "allocator", "allocation"],
        "risk": [
            "maxPositionValue", "maxPositionPercentOfEquity", "maxGrossExposureRatio", "maxActivePositions",
            "maxDailyLossPercent", "maxDrawdownPercent", "maxSectorPercentOfEquity", "volatilitySymbol",
            "volatilityThreshold", "rapidLossPercent", "rapidLossWindow", "maxRiskPerTradePercent", "requireSettledCash",
            "maxOrderEfficiencyRatio", "orderEfficiencyMinimumOrders",
        ],
        "orders": ["timeout", "outsideRth", "cancelOnExit", "resendMaxAge", "unknownOrders"],
        "data": ["barSize", "warmup", "marketDataType", "delayedFallback", "backfill", "maxBackfill", "quotes"],
        "journal": ["path", "durability"],
        "logging": ["level", "file", "summaryInterval"],
    ]
    static let marketDataTypes = ["realtime", "delayed", "frozen", "delayed-frozen"]
    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// Reads a config file through swift-configuration (`FileProvider<YAMLSnapshot>` under the environment), checks
    /// it, applies the environment, validates. Relative paths resolve against the file's folder.
    /// - Parameters:
    ///   - path: the YAML file (named in errors).
    ///   - environment: the process environment.
    static func load(file path: String, environment: [String: String]) async throws -> RunSettings {
        let document = try RunConfigDocument.check(try readTextFile(path), source: path)
        var yaml: (any ConfigProvider)?
        if !document.isEmpty {
            do { yaml = try await FileProvider<YAMLSnapshot>(filePath: .init(path)) } catch {
                throw CLIError("\(path): \(error)")
            }
        }
        return try load(
            RunConfigValues(yaml: yaml, document: document, environment: environment, source: path),
            baseDirectory: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    /// Reads config text (the embedded default, tests) like `load(file:environment:)`.
    /// - Parameters:
    ///   - text: the YAML.
    ///   - source: the file path (named in errors), or a label.
    ///   - baseDirectory: the folder relative paths resolve against (`nil`: the current directory).
    ///   - environment: the process environment.
    static func load(
        text: String, source: String, baseDirectory: URL?, environment: [String: String]
    ) throws -> RunSettings {
        let document = try RunConfigDocument.check(text, source: source)
        var yaml: (any ConfigProvider)?
        if !document.isEmpty {
            do { yaml = try ConfigYAMLTextProvider(text: text, name: source) } catch {
                throw CLIError("\(source): \(error)")
            }
        }
        return try load(
            RunConfigValues(yaml: yaml, document: document, environment: environment, source: source),
            baseDirectory: baseDirectory)
    }

    /// The settings from the layered values: each key parsed and validated with an error naming it and its origin.
    private static func load(_ values: RunConfigValues, baseDirectory: URL?) throws -> RunSettings {
        let source = values.source
        var settings = RunSettings()
        settings.source = source
        func scalar(_ path: String) throws -> (String, String)? { try values.scalar(path) }
        func string(_ path: String) throws -> String? { try scalar(path)?.0 }
        func int(_ path: String) throws -> Int? {
            guard let (text, origin) = try scalar(path) else { return nil }
            guard let value = Int(text) else { throw CLIError("\(origin): '\(path)' must be an integer, got '\(text)'") }
            return value
        }
        func double(_ path: String) throws -> Double? {
            guard let (text, origin) = try scalar(path) else { return nil }
            guard let value = Double(text), value.isFinite else {
                throw CLIError("\(origin): '\(path)' must be a number, got '\(text)'")
            }
            return value
        }
        func bool(_ path: String) throws -> Bool? {
            guard let (text, origin) = try scalar(path) else { return nil }
            switch text.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: throw CLIError("\(origin): '\(path)' must be true or false, got '\(text)'")
            }
        }
        func origin(_ path: String) -> String { values.origin(path) }
        func path(_ key: String) throws -> String? {
            guard let text = try string(key), !text.isEmpty else { return nil }
            if text.hasPrefix("/") || text.hasPrefix("~") { return (text as NSString).expandingTildeInPath }
            let base = baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            return base.appendingPathComponent(text).standardizedFileURL.path
        }

        if let v = try string("connection.host") { settings.host = v }
        if let v = try int("connection.port") {
            guard (1...65_535).contains(v) else { throw CLIError("\(origin("connection.port")): 'connection.port' must be 1…65535, got \(v)") }
            settings.port = v
        }
        if let v = try int("connection.clientId") {
            guard v >= 0 else { throw CLIError("\(origin("connection.clientId")): 'connection.clientId' must be ≥ 0, got \(v)") }
            settings.clientID = v
        }
        settings.account = try string("connection.account").flatMap { $0.isEmpty ? nil : $0 }
        if let v = try double("connection.gracePeriod") {
            guard v >= 0 else { throw CLIError("\(origin("connection.gracePeriod")): 'connection.gracePeriod' must be ≥ 0 seconds") }
            settings.gracePeriod = v
        }
        if let v = try double("connection.heartbeat") {
            guard v >= 0 else { throw CLIError("\(origin("connection.heartbeat")): 'connection.heartbeat' must be ≥ 0 seconds (0: off)") }
            settings.heartbeat = v
        }
        if let v = try double("connection.heartbeatTimeout") {
            guard v > 0 else { throw CLIError("\(origin("connection.heartbeatTimeout")): 'connection.heartbeatTimeout' must be positive") }
            settings.heartbeatTimeout = v
        }
        if let v = try double("health.stuckLoopTimeout") {
            // The loop takes a tick every second even when idle: a shorter timeout would alert on an idle loop.
            guard v == 0 || (v >= 2 && v <= 86_400) else {
                throw CLIError(
                    "\(origin("health.stuckLoopTimeout")): 'health.stuckLoopTimeout' must be 0 or 2…86400 seconds "
                        + "(0: off; the idle loop's tick is 1 s), got \(v)")
            }
            settings.stuckLoopTimeout = v
        }
        if let v = try int("latency.cpuWakeLatency") {
            guard v >= 0, v <= 1_000_000 else {
                throw CLIError(
                    "\(origin("latency.cpuWakeLatency")): 'latency.cpuWakeLatency' must be 0…1000000 µs, got \(v)")
            }
            settings.cpuWakeLatency = v
        }
        if let v = try bool("latency.busyPoll") { settings.busyPoll = v }
        if let v = try int("latency.busyPollCPU") {
            guard v >= 0, v < 1024 else {
                throw CLIError(
                    "\(origin("latency.busyPollCPU")): 'latency.busyPollCPU' must be a CPU number 0…1023, got \(v)")
            }
            guard settings.busyPoll else {
                throw CLIError(
                    "\(origin("latency.busyPollCPU")): 'latency.busyPollCPU' needs 'latency.busyPoll: true'")
            }
            settings.busyPollCPU = v
        }
        if let v = try bool("latency.keepWarm") {
            guard !v || settings.busyPoll else {
                throw CLIError("\(origin("latency.keepWarm")): 'latency.keepWarm' needs 'latency.busyPoll: true'")
            }
            settings.keepWarm = v
        }
        if let v = try string("connection.resetWindow") { settings.resetWindow = v }
        if let v = try string("connection.resetTimeZone") { settings.resetTimeZone = v }
        if let (items, _) = try values.list("connection.resetDays") {
            settings.resetDays = items.filter { !$0.isEmpty }
        }
        do { _ = try settings.resetSchedule() } catch {
            let key = ["connection.resetWindow", "connection.resetTimeZone", "connection.resetDays"]
                .first { key in
                    key == "connection.resetDays"
                        ? (try? values.list(key)).flatMap { $0 } != nil : (try? values.scalar(key)).flatMap { $0 } != nil
                } ?? "connection.resetWindow"
            throw CLIError("\(origin(key)): 'connection.resetWindow/resetTimeZone/resetDays': \(error)")
        }
        if let (items, from) = try values.list("universe.symbols") {
            settings.symbols = try items.map {
                guard !$0.isEmpty else { throw CLIError("\(from): 'universe.symbols' holds a non-symbol") }
                return $0
            }
        }
        guard !settings.symbols.isEmpty else {
            throw CLIError("\(origin("universe.symbols")): 'universe.symbols' must name at least one symbol")
        }
        if let v = try string("strategy.name") {
            guard BacktestSettings.strategies.contains(v) else {
                throw CLIError(
                    "\(origin("strategy.name")): 'strategy.name' '\(v)' is not one of \(BacktestSettings.strategies.joined(separator: ", "))")
            }
            settings.strategy = v
        }
        if let v = try double("strategy.cash") {
            guard v > 0 else { throw CLIError("\(origin("strategy.cash")): 'strategy.cash' must be positive") }
            settings.cash = v
        }
        // Not from the environment: a free-form mapping, decoded like `ibtrader backtest`'s.
        settings.parameters = values.document.structured["strategy.parameters"]
        settings.allocator = try string("strategy.allocator")
        settings.allocation = values.document.structured["strategy.allocation"]
        // The order-efficiency keys belong to the broker (OrderEfficiencyGuard), not to RiskConfig.
        let efficiencyKeys: Set<String> = ["risk.maxOrderEfficiencyRatio", "risk.orderEfficiencyMinimumOrders"]
        if let ratio = try double("risk.maxOrderEfficiencyRatio") {
            guard ratio > 0 else {
                throw CLIError("\(origin("risk.maxOrderEfficiencyRatio")): 'risk.maxOrderEfficiencyRatio' must be positive")
            }
            settings.orderEfficiency = OrderEfficiencyLimit(maxRatio: ratio)
        }
        if let minimum = try int("risk.orderEfficiencyMinimumOrders") {
            guard minimum >= 0, settings.orderEfficiency != nil else {
                throw CLIError(
                    "\(origin("risk.orderEfficiencyMinimumOrders")): 'risk.orderEfficiencyMinimumOrders' must be ≥ 0 "
                        + "and needs 'risk.maxOrderEfficiencyRatio'")
            }
            settings.orderEfficiency?.minimumOrders = minimum
        }
        // RiskConfig is Codable: its values, from either layer, are decoded as one mapping.
        var risk = Node.Mapping([])
        var riskOrigins: [String: String] = [:]
        for key in keys["risk", default: []] where !efficiencyKeys.contains("risk.\(key)") {
            guard let (node, from) = try values.node("risk.\(key)") else { continue }
            risk[Node(key)] = node
            riskOrigins[key] = from
        }
        if !riskOrigins.isEmpty {
            do {
                settings.risk = try YAMLDecoder().decode(RiskConfig.self, from: Node.mapping(risk))
            } catch {
                // Name the layer of the key that failed to decode.
                let key = (error as? DecodingError)?.firstKey
                let from = key.flatMap { riskOrigins[$0] } ?? riskOrigins.values.sorted().first ?? source
                throw CLIError("\(from): 'risk': \(DecodingErrorText.describe(error))")
            }
        }
        if let v = try double("orders.timeout") {
            guard v > 0 else { throw CLIError("\(origin("orders.timeout")): 'orders.timeout' must be positive seconds") }
            settings.orderTimeout = v
        }
        if let v = try bool("orders.outsideRth") { settings.outsideRth = v }
        if let v = try bool("orders.cancelOnExit") { settings.cancelOnExit = v }
        if let v = try double("orders.resendMaxAge") {
            guard v >= 0, v.isFinite else {
                throw CLIError(
                    "\(origin("orders.resendMaxAge")): 'orders.resendMaxAge' must be seconds >= 0 (0: never resend), got \(v)")
            }
            settings.resendMaxAge = v
        }
        if let v = try string("orders.unknownOrders") {
            guard ["adopt", "cancel"].contains(v) else {
                throw CLIError(
                    "\(origin("orders.unknownOrders")): 'orders.unknownOrders' must be adopt or cancel, got '\(v)'")
            }
            settings.unknownOrders = v
        }
        if let v = try string("data.barSize") { settings.barSize = v }
        if let v = try string("data.warmup") { settings.warmup = v }
        if let v = try string("data.marketDataType") {
            guard marketDataTypes.contains(v) else {
                throw CLIError(
                    "\(origin("data.marketDataType")): 'data.marketDataType' must be one of \(marketDataTypes.joined(separator: ", ")), got '\(v)'")
            }
            settings.marketDataType = v
        }
        if let v = try bool("data.delayedFallback") { settings.delayedFallback = v }
        if let v = try string("data.quotes") {
            // YAML 1.1 reads a bare on/off as a boolean: true/false (yes/no) mean on/off here too.
            let word = ["true": "on", "yes": "on", "false": "off", "no": "off"][v.lowercased()] ?? v.lowercased()
            guard let mode = QuoteSubscriptionMode(rawValue: word) else {
                throw CLIError("\(origin("data.quotes")): 'data.quotes' must be auto, on or off, got '\(v)'")
            }
            settings.quotes = mode
        }
        if let v = try bool("data.backfill") { settings.backfill = v }
        if let v = try double("data.maxBackfill") {
            guard v > 0 else { throw CLIError("\(origin("data.maxBackfill")): 'data.maxBackfill' must be positive seconds") }
            settings.maxBackfill = v
        }
        settings.journalPath = try path("journal.path")
        if let v = try string("journal.durability") {
            guard ["normal", "full"].contains(v) else {
                throw CLIError(
                    "\(origin("journal.durability")): 'journal.durability' must be normal or full, got '\(v)'")
            }
            settings.journalDurability = v
        }
        if let v = try string("logging.level") {
            guard logLevels.contains(v) else {
                throw CLIError(
                    "\(origin("logging.level")): 'logging.level' must be one of \(logLevels.joined(separator: ", ")), got '\(v)'")
            }
            settings.logLevel = v
        }
        settings.logFile = try path("logging.file")
        if let v = try double("logging.summaryInterval") {
            guard v > 0 else { throw CLIError("\(origin("logging.summaryInterval")): 'logging.summaryInterval' must be positive") }
            settings.summaryInterval = v
        }
        _ = try settings.strategySpec()
        return settings
    }

    /// The strategy with its parameters, decoded like `ibtrader backtest`'s.
    func strategySpec() throws -> StrategySpec {
        var backtest = BacktestSettings()
        backtest.strategy = strategy
        backtest.strategyIsExplicit = true
        backtest.parameters = parameters
        backtest.allocator = allocator
        backtest.allocation = allocation
        try backtest.validate(source: source)
        return try backtest.strategySpec(source: "\(source): 'strategy.parameters'")
    }

    /// IB's reset window (`nil` when `connection.resetWindow` is none and no days are listed).
    func resetSchedule() throws(ResetScheduleError) -> ResetSchedule? {
        let schedule = try ResetSchedule(window: resetWindow, timeZone: resetTimeZone, days: resetDays)
        return schedule.dailyStart == nil && schedule.days.isEmpty ? nil : schedule
    }

    /// The outage settings of the runner.
    var resilience: ResilienceSettings {
        var value = ResilienceSettings()
        value.gracePeriod = TimeSpan(nanoseconds: Int64(gracePeriod * 1e9))
        value.heartbeat = Heartbeat(
            interval: .milliseconds(Int64(heartbeat * 1000)), timeout: .milliseconds(Int64(heartbeatTimeout * 1000)))
        value.stuckLoopTimeout = .milliseconds(Int64(stuckLoopTimeout * 1000))
        value.resetSchedule = try? resetSchedule()  // validated by load
        value.backfill = backfill
        value.maxBackfill = TimeSpan(nanoseconds: Int64(maxBackfill * 1e9))
        value.delayedFallback = delayedFallback
        return value
    }

    /// The engine settings.
    /// `orders.resendMaxAge` as the runner's policy.
    var resendPolicy: ResendPolicy { .maxAge(seconds: resendMaxAge) }
    var engineConfig: EngineConfig { EngineConfig(initialCash: Money(approximately: cash), risk: risk) }

    /// The TWS market data type.
    var twsMarketDataType: TWSMarketDataType {
        switch marketDataType {
        case "delayed": .delayed
        case "frozen": .frozen
        case "delayed-frozen": .delayedFrozen
        default: .live
        }
    }
}

extension DecodingError {
    /// The outermost key of the failing value's path.
    fileprivate var firstKey: String? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.first?.stringValue
        case .keyNotFound(let key, let context):
            context.codingPath.first?.stringValue ?? key.stringValue
        @unknown default:
            nil
        }
    }
}
