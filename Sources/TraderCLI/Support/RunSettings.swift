import Foundation
import InteractiveBrokers
import TWSClient
import TradingEngine
import TradingModel
import Yams

/// `ibtrader run --config FILE`: the sections and keys of a live/paper run, read from YAML, then overridden by
/// `IBTRADER_<SECTION>_<KEY>` environment variables (`connection.port` ← `IBTRADER_CONNECTION_PORT`; camelCase keys
/// also as snake case: `IBTRADER_ORDERS_CANCEL_ON_EXIT`). Relative paths resolve against the file's folder.
/// Every error names the key and where its value came from (the file, or the environment variable).
struct RunSettings {
    var host = "127.0.0.1"
    var port = 7497
    var clientID = 7
    var account: String?
    var symbols: [String] = []
    var strategy = "momentum"
    var cash: Double = 100_000
    var parameters: Node?
    var risk = RiskConfig()
    var orderTimeout: Double?
    var outsideRth = false
    var cancelOnExit = true
    var barSize = "5 secs"
    var warmup = "3600 S"
    var marketDataType = "realtime"
    var delayedFallback = true
    // Outages (issue 5, resilience): 1100 grace period, IB's reset window, bar back-fill.
    var gracePeriod: Double = 30
    var resetWindow = "23:45-00:45"
    var resetTimeZone = "America/New_York"
    var resetDays: [String] = ["sunday"]
    var backfill = true
    var maxBackfill: Double = 3600
    var journalPath: String?
    var logLevel = "info"
    var logFile: String?
    var summaryInterval: Double = 30
    /// Where the settings came from (the file path, or the bundled default's name).
    var source = ""

    /// The keys of each section (the risk section's are `RiskConfig`'s).
    static let keys: [String: [String]] = [
        "connection": ["host", "port", "clientId", "account", "gracePeriod", "resetWindow", "resetTimeZone", "resetDays"],
        "universe": ["symbols"],
        "strategy": ["name", "cash", "parameters"],
        "risk": [
            "maxPositionValue", "maxPositionPercentOfEquity", "maxGrossExposureRatio", "maxActivePositions",
            "maxDailyLossPercent", "maxDrawdownPercent", "maxSectorPercentOfEquity", "volatilitySymbol",
            "volatilityThreshold", "rapidLossPercent", "rapidLossWindow", "maxRiskPerTradePercent", "requireSettledCash",
        ],
        "orders": ["timeout", "outsideRth", "cancelOnExit"],
        "data": ["barSize", "warmup", "marketDataType", "delayedFallback", "backfill", "maxBackfill"],
        "journal": ["path"],
        "logging": ["level", "file", "summaryInterval"],
    ]
    static let marketDataTypes = ["realtime", "delayed", "frozen", "delayed-frozen"]
    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// The environment variable names of a key: `IBTRADER_SECTION_KEY` and the snake-case spelling.
    static func environmentNames(_ section: String, _ key: String) -> [String] {
        var snake = ""
        for character in key {
            if character.isUppercase, !snake.isEmpty { snake.append("_") }
            snake.append(character)
        }
        let plain = "IBTRADER_\(section.uppercased())_\(key.uppercased())"
        let underscored = "IBTRADER_\(section.uppercased())_\(snake.uppercased())"
        return plain == underscored ? [plain] : [plain, underscored]
    }

    /// Reads a config file (or text), applies the environment, validates.
    /// - Parameters:
    ///   - text: the YAML.
    ///   - source: the file path (named in errors; its folder anchors relative paths), or a label.
    ///   - baseDirectory: the folder relative paths resolve against (`nil`: the current directory).
    ///   - environment: the process environment.
    static func load(
        text: String, source: String, baseDirectory: URL?, environment: [String: String]
    ) throws -> RunSettings {
        var values: [String: (node: Node, origin: String)] = [:]
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            throw CLIError("\(source): not valid YAML: \(error)")
        }
        if let root {
            guard let mapping = root.mapping else { throw CLIError("\(source): the top level must be a mapping of sections") }
            for (sectionNode, body) in mapping {
                guard let section = sectionNode.string, let known = keys[section] else {
                    throw CLIError(
                        "\(source): unknown section '\(sectionNode.string ?? "?")' (sections: \(keys.keys.sorted().joined(separator: ", ")))")
                }
                if case .scalar = body, body.null != nil { continue }
                guard let entries = body.mapping else { throw CLIError("\(source): '\(section)' must be a mapping") }
                for (keyNode, value) in entries {
                    guard let key = keyNode.string, known.contains(key) else {
                        throw CLIError(
                            "\(source): unknown key '\(section).\(keyNode.string ?? "?")' (keys: \(known.joined(separator: ", ")))")
                    }
                    values["\(section).\(key)"] = (value, source)
                }
            }
        }
        for (section, known) in keys {
            for key in known where key != "parameters" {
                for name in environmentNames(section, key) {
                    guard let text = environment[name] else { continue }
                    let node: Node =
                        key == "symbols" || key == "resetDays"
                        ? Node.sequence(.init(text.split(separator: ",").map { Node(String($0).trimmingCharacters(in: .whitespaces)) }))
                        : Node(text)
                    values["\(section).\(key)"] = (node, "\(name) (environment)")
                }
            }
        }
        var settings = RunSettings()
        settings.source = source
        func scalar(_ path: String) throws -> (String, String)? {
            guard let (node, origin) = values[path] else { return nil }
            if node.null != nil { return nil }
            guard let text = node.scalar?.string else { throw CLIError("\(origin): '\(path)' must be a single value") }
            return (text, origin)
        }
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
        func origin(_ path: String) -> String { values[path]?.origin ?? source }
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
        if let v = try string("connection.resetWindow") { settings.resetWindow = v }
        if let v = try string("connection.resetTimeZone") { settings.resetTimeZone = v }
        if let (node, from) = values["connection.resetDays"] {
            guard let items = node.sequence else { throw CLIError("\(from): 'connection.resetDays' must be a list of day names") }
            settings.resetDays = items.compactMap(\.string).filter { !$0.isEmpty }
        }
        do { _ = try settings.resetSchedule() } catch {
            let key = ["connection.resetWindow", "connection.resetTimeZone", "connection.resetDays"]
                .first { values[$0] != nil } ?? "connection.resetWindow"
            throw CLIError("\(origin(key)): 'connection.resetWindow/resetTimeZone/resetDays': \(error)")
        }
        if let (node, from) = values["universe.symbols"] {
            guard let items = node.sequence else { throw CLIError("\(from): 'universe.symbols' must be a list of symbols") }
            settings.symbols = try items.map {
                guard let s = $0.string, !s.isEmpty else { throw CLIError("\(from): 'universe.symbols' holds a non-symbol") }
                return s
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
        settings.parameters = values["strategy.parameters"]?.node
        let riskPaths = values.keys.filter { $0.hasPrefix("risk.") }
        if !riskPaths.isEmpty {
            var mapping = Node.Mapping([])
            for key in riskPaths.sorted() { mapping[Node(String(key.dropFirst(5)))] = values[key]!.node }
            do {
                settings.risk = try YAMLDecoder().decode(RiskConfig.self, from: Node.mapping(mapping))
            } catch {
                throw CLIError("\(riskPaths.map(origin).sorted().first ?? source): 'risk': \(DecodingErrorText.describe(error))")
            }
        }
        if let v = try double("orders.timeout") {
            guard v > 0 else { throw CLIError("\(origin("orders.timeout")): 'orders.timeout' must be positive seconds") }
            settings.orderTimeout = v
        }
        if let v = try bool("orders.outsideRth") { settings.outsideRth = v }
        if let v = try bool("orders.cancelOnExit") { settings.cancelOnExit = v }
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
        if let v = try bool("data.backfill") { settings.backfill = v }
        if let v = try double("data.maxBackfill") {
            guard v > 0 else { throw CLIError("\(origin("data.maxBackfill")): 'data.maxBackfill' must be positive seconds") }
            settings.maxBackfill = v
        }
        settings.journalPath = try path("journal.path")
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
        backtest.parameters = parameters
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
        value.resetSchedule = try? resetSchedule()  // validated by load
        value.backfill = backfill
        value.maxBackfill = TimeSpan(nanoseconds: Int64(maxBackfill * 1e9))
        value.delayedFallback = delayedFallback
        return value
    }

    /// The engine settings.
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
