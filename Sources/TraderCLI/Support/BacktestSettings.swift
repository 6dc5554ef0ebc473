import Backtest
import Foundation
import Simulation
import TradingEngine
import TradingModel
import Yams

/// Everything a backtest run needs, as read from `--config FILE` (YAML or JSON) and then overridden by options.
///
/// Keys are camelCase, like the strategy configs they contain:
/// ```yaml
/// strategy: momentum          # momentum | sma-cross | ema-cross | rsi | bollinger
/// data: bundled:sp500         # bundled:NAME | DIR | FILE
/// symbols: [AAPL, MSFT]       # optional filter
/// start: 2009-10-01           # optional, inclusive
/// cash: 100000
/// benchmark: bundled          # bundled (^GSPC) | none | FILE
/// fill: next-open             # next-open | close
/// commission: ibkr-fixed      # none | ibkr-fixed | ibkr-tiered | percent:0.1
/// slippageBps: 5
/// parameters: {lookback: 60, holdings: 10}    # the strategy's own config keys
/// risk: {maxSectorPercentOfEquity: 30}         # RiskConfig keys
/// ```
struct BacktestSettings {
    var strategy = "momentum"
    /// Whether `strategy` was given (the performance allocator's base defaults to sma-cross, not momentum).
    var strategyIsExplicit = false
    /// `performance`: the performance-weighted allocator over `strategy` as its base.
    var allocator: String?
    /// The allocator's settings (`PerformanceAllocatorConfig` keys: window, reallocation, topCount, maxWeight, step,
    /// minimumTradeValue).
    var allocation: Node?
    var data: String?
    var symbols: [String]?
    var start: String?
    var end: String?
    var cash: Double = 100_000
    var benchmark: String?
    var fill = "next-open"
    var commission = "none"
    var slippageBps: Double = 0
    /// `slippage`: `bps:N`, `impact:K` or `spread:BPS` (`SlippageModel(text:)`); wins over `slippageBps`.
    var slippage: String?
    /// `participation`: the largest share of a bar's volume an instrument's orders may take (partial fills).
    var participation: Double?
    /// `latencyMs`: milliseconds between an order's submission and its becoming active.
    var latencyMs: Double = 0
    var settlementDays = 0
    var badRows = "fail"
    /// `session`: `all` (default) or `regular` (US regular hours, 09:30–16:00 New York, for intraday data).
    var session = "all"
    var regularHoursOnly: Bool { session == "regular" }
    var quantity: Double?
    var percent: Double?
    /// The strategy's config as a YAML node (decoded into the right type once the strategy is known).
    var parameters: Node?
    var risk = RiskConfig()

    static let strategies = ["momentum", "sma-cross", "ema-cross", "rsi", "bollinger"]

    /// Reads a YAML or JSON file (JSON is YAML). Errors name the file and the key.
    static func load(path: String) throws -> BacktestSettings {
        let text = try readTextFile(path)
        let node: Node
        do {
            guard let parsed = try Yams.compose(yaml: text) else { return BacktestSettings() }
            node = parsed
        } catch {
            throw CLIError("\(path): not valid YAML: \(error)")
        }
        guard let mapping = node.mapping else { throw CLIError("\(path): the top level must be a mapping of keys") }
        var settings = BacktestSettings()
        let known: Set<String> = [
            "strategy", "data", "symbols", "start", "end", "cash", "benchmark", "fill", "commission", "slippageBps",
            "settlementDays", "badRows", "quantity", "percent", "parameters", "risk", "allocator", "allocation", "session", "slippage", "participation", "latencyMs",
        ]
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else { continue }
            guard known.contains(key) else {
                throw CLIError("\(path): unknown key '\(key)' (known: \(known.sorted().joined(separator: ", ")))")
            }
            func string() throws -> String {
                guard let text = value.string else { throw CLIError("\(path): '\(key)' must be a string") }
                return text
            }
            func number() throws -> Double {
                guard let number = value.float ?? value.int.map(Double.init) else {
                    throw CLIError("\(path): '\(key)' must be a number, got '\(value.string ?? "?")'")
                }
                return number
            }
            switch key {
            case "strategy":
                settings.strategy = try string()
                settings.strategyIsExplicit = true
            case "allocator": settings.allocator = try string()
            case "allocation": settings.allocation = value
            case "data": settings.data = try string()
            case "symbols":
                guard let list = value.sequence?.compactMap(\.string) else {
                    throw CLIError("\(path): 'symbols' must be a list of symbols")
                }
                settings.symbols = list
            case "start": settings.start = try string()
            case "end": settings.end = try string()
            case "cash": settings.cash = try number()
            case "benchmark": settings.benchmark = try string()
            case "fill": settings.fill = try string()
            case "commission": settings.commission = try string()
            case "slippageBps": settings.slippageBps = try number()
            case "settlementDays": settings.settlementDays = Int(try number())
            case "badRows": settings.badRows = try string()
            case "session": settings.session = try string()
            case "slippage": settings.slippage = try string()
            case "participation": settings.participation = try number()
            case "latencyMs": settings.latencyMs = try number()
            case "quantity": settings.quantity = try number()
            case "percent": settings.percent = try number()
            case "parameters": settings.parameters = value
            case "risk":
                do {
                    settings.risk = try YAMLDecoder().decode(RiskConfig.self, from: value)
                } catch {
                    throw CLIError("\(path): 'risk': \(DecodingErrorText.describe(error))")
                }
            default: break
            }
        }
        return settings
    }

    /// Checks the values that have a fixed set of spellings.
    func validate(source: String) throws {
        guard Self.strategies.contains(strategy) else {
            throw CLIError("\(source): strategy '\(strategy)' is not one of \(Self.strategies.joined(separator: ", "))")
        }
        if let allocator, allocator != "performance" {
            throw CLIError("\(source): allocator must be performance, got '\(allocator)'")
        }
        if allocator != nil, strategyIsExplicit, strategy == "momentum" {
            throw CLIError(
                "\(source): the performance allocator runs a per-symbol base strategy on each symbol: "
                    + "strategy must be sma-cross, ema-cross, rsi or bollinger")
        }
        if allocator != nil, quantity != nil || percent != nil {
            throw CLIError("\(source): quantity and percent do not apply to the performance allocator (it sizes from each symbol's capital)")
        }
        guard ["next-open", "close"].contains(fill) else {
            throw CLIError("\(source): fill must be next-open or close, got '\(fill)'")
        }
        guard ["all", "regular"].contains(session) else {
            throw CLIError("\(source): session must be all or regular (US regular hours), got '\(session)'")
        }
        guard ["fail", "skip"].contains(badRows) else {
            throw CLIError("\(source): bad-rows must be fail or skip, got '\(badRows)'")
        }
        guard cash > 0 else { throw CLIError("\(source): cash must be positive") }
        if let slippage, SlippageModel(text: slippage) == nil {
            throw CLIError("\(source): slippage must be bps:N, impact:K, spread:BPS or none, got '\(slippage)'")
        }
        if let participation, !(participation > 0 && participation <= 1) {
            throw CLIError("\(source): participation must be a share of bar volume in (0, 1], got \(participation)")
        }
        guard latencyMs >= 0, latencyMs <= 86_400_000 else {
            throw CLIError("\(source): latency must be 0 to 86400000 ms, got \(latencyMs)")
        }
        _ = try commissionModel(source: source)
    }

    /// The data argument and symbol filter: `bundled:sp500` for momentum, `bundled:stocks` for the performance
    /// allocator, otherwise `bundled:stocks` with GOOG.
    var dataSelection: (argument: String, symbols: [String]?) {
        let argument = data ?? (strategy == "momentum" && allocator == nil ? "bundled:sp500" : "bundled:stocks")
        if data == nil, strategy != "momentum", allocator == nil, symbols == nil { return (argument, ["GOOG"]) }
        return (argument, symbols)
    }

    /// The strategy's name as printed: `momentum`, `sma-cross`, `performance allocator over sma-cross`.
    var strategyTitle: String {
        allocator == nil ? strategy : "performance allocator over \(baseStrategyName)"
    }

    /// The strategy each symbol runs under the allocator (sma-cross unless one was named).
    var baseStrategyName: String { strategyIsExplicit || strategy != "momentum" ? strategy : "sma-cross" }

    /// `A, B,C` → `["A", "B", "C"]`.
    static func symbolList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The engine and simulation settings of a run, with the given risk limits.
    func backtestConfig(risk: RiskConfig, source: String) throws -> BacktestConfig {
        BacktestConfig(
            engine: EngineConfig(initialCash: Money(approximately: cash), settlementDays: settlementDays, risk: risk),
            simulation: SimulationConfig(
                marketFill: fill == "close" ? .thisClose : .nextOpen,
                slippage: slippage.flatMap(SlippageModel.init(text:))
                    ?? (slippageBps > 0 ? .fixedBasisPoints(slippageBps) : .none),
                commission: try commissionModel(source: source), maxVolumeParticipation: participation,
                latency: TimeSpan(nanoseconds: Int64(latencyMs * 1_000_000))),
            recordsEquityCurve: true)
    }

    func commissionModel(source: String) throws -> CommissionModel {
        switch commission {
        case "none", "0": return .none
        case "ibkr-fixed", "ibkr": return .ibkrFixed(IBKRFixedSchedule())
        case "ibkr-tiered": return .ibkrTiered(IBKRTieredSchedule())
        default:
            if commission.hasPrefix("percent:"), let value = Double(commission.dropFirst("percent:".count)), value >= 0 {
                return .percentage(value)
            }
            throw CLIError("\(source): commission must be none, ibkr-fixed, ibkr-tiered or percent:P, got '\(commission)'")
        }
    }

    /// The strategy with its parameters: the config file's `parameters`, then the sizing options.
    func strategySpec(source: String) throws -> StrategySpec {
        guard allocator != nil else { return try singleStrategySpec(source: source) }
        var base = self
        base.allocator = nil
        base.strategy = baseStrategyName
        var config = PerformanceAllocatorConfig(base: try base.singleStrategySpec(source: source))
        if let allocation {
            do {
                let decoded = try YAMLDecoder().decode(PerformanceAllocatorConfig.self, from: allocation)
                config = PerformanceAllocatorConfig(
                    base: config.base, window: decoded.window, reallocation: decoded.reallocation,
                    topCount: decoded.topCount, maxWeight: decoded.maxWeight, step: decoded.step,
                    minimumTradeValue: decoded.minimumTradeValue)
            } catch {
                throw CLIError("\(source): 'allocation': \(DecodingErrorText.describe(error))")
            }
        }
        if let problem = config.problem { throw CLIError("\(source): 'allocation': \(problem)") }
        return .performanceAllocator(config: config)
    }

    /// The strategy without an allocator.
    private func singleStrategySpec(source: String) throws -> StrategySpec {
        func decode<T: Decodable>(_ type: T.Type, _ fallback: T) throws -> T {
            guard let parameters else { return fallback }
            do {
                return try YAMLDecoder().decode(T.self, from: parameters)
            } catch {
                throw CLIError("\(source): 'parameters' for \(strategy): \(DecodingErrorText.describe(error))")
            }
        }
        let sizing: PositionSizer? =
            quantity.map { .fixedQuantity(Quantity(units: Int64(($0 * 1e8).rounded()))) } ?? percent.map { .percentOfEquity($0) }
        switch strategy {
        case "sma-cross", "ema-cross":
            var config = try decode(MovingAverageCrossoverConfig.self, MovingAverageCrossoverConfig())
            config.kind = strategy == "ema-cross" ? .exponential : .simple
            if let sizing { config.sizing = sizing }
            return .movingAverageCrossover(config: config)
        case "rsi":
            var config = try decode(RSIMeanReversionConfig.self, RSIMeanReversionConfig())
            if let sizing { config.sizing = sizing }
            return .rsiMeanReversion(config: config)
        case "bollinger":
            var config = try decode(BollingerMeanReversionConfig.self, BollingerMeanReversionConfig())
            if let sizing { config.sizing = sizing }
            return .bollingerMeanReversion(config: config)
        default:
            var config = try decode(MomentumRotationConfig.self, Self.flagshipMomentum)
            if let percent { config.investedFraction = percent / 100 }
            return .momentumRotation(config: config)
        }
    }

    /// The flagship defaults (`MomentumRotationConfig.flagship`).
    static let flagshipMomentum = MomentumRotationConfig.flagship
}

/// Readable texts for `DecodingError`s: the key path and what was wrong.
enum DecodingErrorText {
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\((path(context).isEmpty ? "" : path(context) + "."))\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "key '\(path(context))': \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
